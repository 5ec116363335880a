/**
 * Vector-database collections (Qdrant's model) stored as graph data, through Cypher on a
 * `Session`: the session's security context decides what the caller may do, exactly as for any
 * other statement. Layout: see `collections-codec.ts`. Nearest-neighbour search uses the
 * collection's VECTOR index (`db.index.vector.queryNodes`) for Cosine and Euclid vectors and an
 * exact scan otherwise (Dot, Manhattan, `exact`); results are re-scored with Qdrant's scores.
 * Filtering is a predicate over decoded points (the caller translates its filter language).
 *
 * ```ts
 * const collections = new PointCollections(graphdb.session({ security }));
 * await collections.create({ name: 'docs', vectors: [{ name: '', size: 4, distance: 'Cosine' }], named: false });
 * await collections.upsert('docs', [{ id: 1n, payload: { city: 'Oslo' }, vectors: new Map([['', [1, 0, 0, 0]]]) }]);
 * const hits = await collections.search('docs', { vector: [1, 0, 0, 0], limit: 3 });
 * ```
 */
import { ArgumentError, ConstraintValidationFailed } from '../errors/index.js';
import type { QueryParameters, Session, Transaction } from '../session/types.js';
import type { CypherValue } from '../values/types.js';
import {
  COLLECTION_LABEL,
  CollectionAlreadyExists,
  CollectionNotFound,
  ID_PROPERTY,
  ORDER_PROPERTY,
  checkName,
  idConstraintName,
  orderIndexName,
  payloadIndexName,
  pointFromProperties,
  pointIdKey,
  pointLabel,
  pointOrderKey,
  pointProperties,
  quoteIdentifier,
  specFromJson,
  specToJson,
  vectorIndexName,
  vectorProperty,
  type CollectionSpec,
  type PayloadIndexType,
  type PointId,
  type StoredPoint,
  type VectorSpec,
} from './collections-codec.js';
import { compareScores, passesThreshold, score, storedVector } from './collections-scoring.js';
import { valueText } from '../values/to-string.js';

/** Decides whether a point matches a filter. */
export type PointPredicate = (point: StoredPoint) => boolean;

/** A nearest-neighbour request. */
export interface PointSearch {
  /** Name of the vector searched (empty for the unnamed one). */
  readonly vectorName?: string;
  readonly vector: readonly number[];
  readonly limit: number;
  readonly offset?: number;
  readonly filter?: PointPredicate;
  /** Lower bound of similarities, upper bound of distances. */
  readonly scoreThreshold?: number;
  /** Scan every point instead of using the VECTOR index. */
  readonly exact?: boolean;
}

/** How an upsert treats existing and new points. */
export interface UpsertOptions {
  /** `insert_only` skips existing ids, `update_only` skips new ones; default both. */
  readonly mode?: 'upsert' | 'insert_only' | 'update_only';
  /** Existing points are replaced only when they match (new points are inserted). */
  readonly updateFilter?: PointPredicate;
}

/** A search hit. */
export interface ScoredPoint {
  readonly point: StoredPoint;
  readonly score: number;
}

/** Largest dimension graphdb's VECTOR indexes accept; longer vectors are searched by scan. */
const MAX_INDEXED_DIMENSIONS = 4096;
const WRITE_BATCH = 1000;

function similarityFunction(vector: VectorSpec): 'cosine' | 'euclidean' | null {
  if (vector.size > MAX_INDEXED_DIMENSIONS) return null;
  return vector.distance === 'Cosine' ? 'cosine' : vector.distance === 'Euclid' ? 'euclidean' : null;
}

/** The collections of the database a session is bound to. */
export class PointCollections {
  private readonly specs = new Map<string, CollectionSpec>();

  constructor(private readonly session: Session) {}

  private async rows(query: string, parameters: QueryParameters = {}, tx?: Transaction): Promise<(readonly CypherValue[])[]> {
    const result = tx === undefined ? await this.session.run(query, parameters) : await tx.run(query, parameters);
    return [...(await result.pull(-1)).records];
  }

  /** Runs `work` in one write transaction. */
  private async inTransaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const tx = await this.session.beginTransaction({ mode: 'WRITE' });
    try {
      const value = await work(tx);
      await tx.commit();
      return value;
    } catch (error) {
      if (tx.isOpen) await tx.rollback();
      throw error;
    }
  }

  /** Names of every collection, sorted. */
  async list(): Promise<string[]> {
    const rows = await this.rows(`MATCH (c:${COLLECTION_LABEL}) RETURN c.name ORDER BY c.name`);
    return rows.map((row) => valueText(row[0] ?? null));
  }

  /** The configuration of a collection, or null. */
  async describe(name: string): Promise<CollectionSpec | null> {
    const cached = this.specs.get(name);
    if (cached !== undefined) return cached;
    const rows = await this.rows(`MATCH (c:${COLLECTION_LABEL} {name: $name}) RETURN c.config`, { name });
    const config = rows[0]?.[0];
    if (typeof config !== 'string') return null;
    const spec = specFromJson(name, config);
    this.specs.set(name, spec);
    return spec;
  }

  /** The configuration of a collection; throws CollectionNotFound. */
  async spec(name: string): Promise<CollectionSpec> {
    const spec = await this.describe(name);
    if (spec === null) throw new CollectionNotFound(name);
    return spec;
  }

  /** Creates a collection: its uniqueness constraint, VECTOR indexes and configuration node. */
  async create(spec: CollectionSpec): Promise<void> {
    checkName('collection', spec.name);
    if (spec.vectors.length === 0) throw new ArgumentError('A collection needs at least one vector');
    for (const vector of spec.vectors) {
      if (vector.name !== '') checkName('vector', vector.name);
      if (!Number.isInteger(vector.size) || vector.size < 1 || vector.size > 65536) {
        throw new ArgumentError(`Vector size must be between 1 and 65536, got ${vector.size}`);
      }
    }
    if ((await this.describe(spec.name)) !== null) throw new CollectionAlreadyExists(spec.name);
    try {
      await this.createSchemaAndNode(spec);
    } catch (error) {
      // A concurrent create of the same name may win any of the steps.
      if (error instanceof ConstraintValidationFailed || (await this.describe(spec.name)) !== null)
        throw new CollectionAlreadyExists(spec.name);
      throw error;
    }
    this.specs.set(spec.name, spec);
  }

  private async createSchemaAndNode(spec: CollectionSpec): Promise<void> {
    const label = quoteIdentifier(pointLabel(spec.name));
    await this.rows(`CREATE CONSTRAINT qdrant_collection_name IF NOT EXISTS FOR (c:${COLLECTION_LABEL}) REQUIRE c.name IS UNIQUE`);
    await this.rows(
      `CREATE CONSTRAINT ${quoteIdentifier(idConstraintName(spec.name))} IF NOT EXISTS FOR (p:${label}) REQUIRE p.${ID_PROPERTY} IS UNIQUE`,
    );
    await this.rows(`CREATE INDEX ${quoteIdentifier(orderIndexName(spec.name))} IF NOT EXISTS FOR (p:${label}) ON (p.${ORDER_PROPERTY})`);
    for (const vector of spec.vectors) {
      const similarity = similarityFunction(vector);
      if (similarity === null) continue;
      await this.rows(
        `CREATE VECTOR INDEX ${quoteIdentifier(vectorIndexName(spec.name, vector.name))} IF NOT EXISTS ` +
          `FOR (p:${label}) ON (p.${quoteIdentifier(vectorProperty(vector.name))}) ` +
          `OPTIONS {indexConfig: {\`vector.dimensions\`: ${vector.size}, \`vector.similarity_function\`: '${similarity}'}}`,
      );
    }
    await this.rows(`CREATE (:${COLLECTION_LABEL} {name: $name, config: $config})`, { name: spec.name, config: specToJson(spec) });
  }

  private async saveSpec(spec: CollectionSpec): Promise<void> {
    await this.rows(`MATCH (c:${COLLECTION_LABEL} {name: $name}) SET c.config = $config`, { name: spec.name, config: specToJson(spec) });
    this.specs.set(spec.name, spec);
  }

  /**
   * Declares a payload index; a top-level key also gets a RANGE index on its property (nested
   * keys are only recorded). Re-declaring a key replaces its type.
   */
  async createPayloadIndex(name: string, key: string, type: PayloadIndexType): Promise<void> {
    const spec = await this.spec(name);
    if (key === '' || key.startsWith('_qdrant_')) throw new ArgumentError(`Invalid payload index key '${key}'`);
    if (!key.includes('.') && !key.includes('[')) {
      await this.rows(
        `CREATE INDEX ${quoteIdentifier(payloadIndexName(name, key))} IF NOT EXISTS FOR (p:${quoteIdentifier(pointLabel(name))}) ON (p.${quoteIdentifier(key)})`,
      );
    }
    const others = (spec.payloadIndexes ?? []).filter((index) => index.key !== key);
    await this.saveSpec({ ...spec, payloadIndexes: [...others, { key, type }] });
  }

  /** Removes a payload index; false when the key had none. */
  async dropPayloadIndex(name: string, key: string): Promise<boolean> {
    const spec = await this.spec(name);
    const indexes = spec.payloadIndexes ?? [];
    if (!indexes.some((index) => index.key === key)) return false;
    await this.rows(`DROP INDEX ${quoteIdentifier(payloadIndexName(name, key))} IF EXISTS`);
    await this.saveSpec({ ...spec, payloadIndexes: indexes.filter((index) => index.key !== key) });
    return true;
  }

  /** Deletes a collection with its points, indexes and constraint; false when it did not exist. */
  async drop(name: string): Promise<boolean> {
    const spec = await this.describe(name);
    if (spec === null) return false;
    const label = quoteIdentifier(pointLabel(name));
    await this.inTransaction(async (tx) => {
      await this.rows(`MATCH (p:${label}) DETACH DELETE p`, {}, tx);
      await this.rows(`MATCH (c:${COLLECTION_LABEL} {name: $name}) DETACH DELETE c`, { name }, tx);
    });
    for (const vector of spec.vectors) {
      if (similarityFunction(vector) !== null)
        await this.rows(`DROP INDEX ${quoteIdentifier(vectorIndexName(name, vector.name))} IF EXISTS`);
    }
    for (const index of spec.payloadIndexes ?? [])
      await this.rows(`DROP INDEX ${quoteIdentifier(payloadIndexName(name, index.key))} IF EXISTS`);
    await this.rows(`DROP INDEX ${quoteIdentifier(orderIndexName(name))} IF EXISTS`);
    await this.rows(`DROP CONSTRAINT ${quoteIdentifier(idConstraintName(name))} IF EXISTS`);
    this.specs.delete(name);
    return true;
  }

  /** Checks and normalizes a point's vectors against the collection's configuration. */
  private prepared(spec: CollectionSpec, point: StoredPoint): StoredPoint {
    const vectors = new Map<string, readonly number[]>();
    for (const [name, vector] of point.vectors) {
      const vectorSpec = spec.vectors.find((v) => v.name === name);
      if (vectorSpec === undefined)
        throw new ArgumentError(`Wrong input: Not existing vector name error: ${name === '' ? '(unnamed)' : name}`);
      vectors.set(name, storedVector(vectorSpec.distance, vectorSpec.size, vector, `point ${String(point.id)}`));
    }
    return { id: point.id, payload: point.payload, vectors };
  }

  private async write(spec: CollectionSpec, points: readonly StoredPoint[], tx: Transaction, mode: 'merge' | 'match'): Promise<void> {
    const label = quoteIdentifier(pointLabel(spec.name));
    const clause = mode === 'merge' ? 'MERGE' : 'MATCH';
    for (let start = 0; start < points.length; start += WRITE_BATCH) {
      const rows = points.slice(start, start + WRITE_BATCH).map(
        (point) =>
          new Map<string, CypherValue>([
            ['id', pointIdKey(point.id)],
            ['props', pointProperties(point)],
          ]),
      );
      await this.rows(`UNWIND $rows AS row ${clause} (p:${label} {${ID_PROPERTY}: row.id}) SET p = row.props`, { rows }, tx);
    }
  }

  /** Inserts or replaces points (the last one wins when an id repeats). */
  async upsert(name: string, points: readonly StoredPoint[], options: UpsertOptions = {}): Promise<void> {
    const spec = await this.spec(name);
    const byId = new Map<string, StoredPoint>();
    for (const point of points) byId.set(pointIdKey(point.id), this.prepared(spec, point));
    const mode = options.mode ?? 'upsert';
    await this.inTransaction(async (tx) => {
      let chosen = [...byId.values()];
      if (mode !== 'upsert' || options.updateFilter !== undefined) {
        const existing = new Map(
          (
            await this.retrieve(
              name,
              chosen.map((p) => p.id),
              tx,
            )
          ).map((p) => [pointIdKey(p.id), p]),
        );
        chosen = chosen.filter((point) => {
          const current = existing.get(pointIdKey(point.id));
          if (current === undefined) return mode !== 'update_only';
          return mode !== 'insert_only' && (options.updateFilter === undefined || options.updateFilter(current));
        });
      }
      await this.write(spec, chosen, tx, 'merge');
    });
  }

  /** The points with the given ids, in request order, skipping missing ones. */
  async retrieve(name: string, ids: readonly PointId[], tx?: Transaction): Promise<StoredPoint[]> {
    const spec = await this.spec(name);
    const keys = ids.map(pointIdKey);
    const rows = await this.rows(
      `MATCH (p:${quoteIdentifier(pointLabel(name))}) WHERE p.${ID_PROPERTY} IN $keys RETURN properties(p)`,
      { keys },
      tx,
    );
    const found = new Map<string, StoredPoint>();
    for (const [properties] of rows) {
      const point = pointFromProperties(properties as ReadonlyMap<string, CypherValue>, spec);
      if (point !== null) found.set(pointIdKey(point.id), point);
    }
    return [...new Set(keys)].flatMap((key) => found.get(key) ?? []);
  }

  /** Every point matching `filter`. */
  async scan(name: string, filter?: PointPredicate, tx?: Transaction): Promise<StoredPoint[]> {
    const spec = await this.spec(name);
    const rows = await this.rows(`MATCH (p:${quoteIdentifier(pointLabel(name))}) RETURN properties(p)`, {}, tx);
    const points: StoredPoint[] = [];
    for (const [properties] of rows) {
      const point = pointFromProperties(properties as ReadonlyMap<string, CypherValue>, spec);
      if (point !== null && (filter === undefined || filter(point))) points.push(point);
    }
    return points;
  }

  /**
   * One page of points in id order (integers ascending, then UUIDs) starting at `from`
   * (inclusive), and the id the next page starts at. The cursor is a seek on the `_qdrant_order`
   * RANGE index, so a page reads the points after the cursor rather than decoding the collection;
   * with a filter, chunks are read until the page is full.
   */
  async page(
    name: string,
    options: { readonly from?: PointId; readonly limit: number; readonly filter?: PointPredicate },
  ): Promise<{ points: StoredPoint[]; next: PointId | null }> {
    const spec = await this.spec(name);
    const wanted = options.limit + 1;
    const chunk = BigInt(Math.max(wanted, 256));
    const found: StoredPoint[] = [];
    let cursor = options.from === undefined ? '' : pointOrderKey(options.from);
    let comparison = '>=';
    for (;;) {
      const rows = await this.rows(
        `MATCH (p:${quoteIdentifier(pointLabel(name))}) WHERE p.${ORDER_PROPERTY} ${comparison} $cursor ` +
          `RETURN properties(p), p.${ORDER_PROPERTY} AS key ORDER BY key LIMIT $chunk`,
        { cursor, chunk },
      );
      for (const [properties] of rows) {
        const point = pointFromProperties(properties as ReadonlyMap<string, CypherValue>, spec);
        if (point !== null && (options.filter === undefined || options.filter(point))) found.push(point);
        if (found.length === wanted) return { points: found.slice(0, options.limit), next: found[options.limit]!.id };
      }
      if (BigInt(rows.length) < chunk) return { points: found, next: null };
      cursor = valueText(rows[rows.length - 1]![1] ?? null);
      comparison = '>';
    }
  }

  /** Number of points matching `filter` (all points without one). */
  async count(name: string, filter?: PointPredicate): Promise<number> {
    if (filter !== undefined) return (await this.scan(name, filter)).length;
    await this.spec(name);
    const rows = await this.rows(`MATCH (p:${quoteIdentifier(pointLabel(name))}) RETURN count(p)`);
    return Number(rows[0]?.[0] ?? 0);
  }

  /** Deletes points by id or by filter; returns how many were deleted. */
  async delete(name: string, selector: readonly PointId[] | PointPredicate): Promise<number> {
    await this.spec(name);
    return this.inTransaction(async (tx) => {
      const keys = Array.isArray(selector)
        ? (selector as readonly PointId[]).map(pointIdKey)
        : (await this.scan(name, selector as PointPredicate, tx)).map((p) => pointIdKey(p.id));
      if (keys.length === 0) return 0;
      const rows = await this.rows(
        `UNWIND $keys AS key MATCH (p:${quoteIdentifier(pointLabel(name))} {${ID_PROPERTY}: key}) DETACH DELETE p RETURN count(*)`,
        { keys },
        tx,
      );
      return Number(rows[0]?.[0] ?? 0);
    });
  }

  /**
   * Rewrites the selected points with `change` (payload edits, vector updates) in one
   * transaction; returns how many points were rewritten.
   */
  async update(name: string, selector: readonly PointId[] | PointPredicate, change: (point: StoredPoint) => StoredPoint): Promise<number> {
    const spec = await this.spec(name);
    return this.inTransaction(async (tx) => {
      const points = Array.isArray(selector)
        ? await this.retrieve(name, selector as readonly PointId[], tx)
        : await this.scan(name, selector as PointPredicate, tx);
      const changed = points.map((point) => {
        const next = change(point);
        return { ...next, vectors: next.vectors === point.vectors ? point.vectors : this.prepared(spec, next).vectors };
      });
      await this.write(spec, changed, tx, 'match');
      return changed.length;
    });
  }

  /** Nearest neighbours of a vector, best first, with Qdrant's scores. */
  async search(name: string, request: PointSearch): Promise<ScoredPoint[]> {
    const spec = await this.spec(name);
    const vectorName = request.vectorName ?? '';
    const vectorSpec = spec.vectors.find((v) => v.name === vectorName);
    if (vectorSpec === undefined)
      throw new ArgumentError(`Wrong input: Not existing vector name error: ${vectorName === '' ? '(unnamed)' : vectorName}`);
    const query = storedVector(vectorSpec.distance, vectorSpec.size, request.vector, 'query');
    const offset = request.offset ?? 0;
    const wanted = offset + request.limit;
    if (request.limit <= 0) return [];
    const scoreAll = (points: readonly StoredPoint[]): ScoredPoint[] =>
      points
        .flatMap((point) => {
          const stored = point.vectors.get(vectorName);
          if (stored === undefined || stored.length !== query.length) return [];
          const value = score(vectorSpec.distance, query, stored);
          return passesThreshold(vectorSpec.distance, value, request.scoreThreshold) ? [{ point, score: value }] : [];
        })
        .sort((a, b) => compareScores(vectorSpec.distance, a.score, b.score));

    if (request.exact === true || similarityFunction(vectorSpec) === null) {
      return scoreAll(await this.scan(name, request.filter)).slice(offset, wanted);
    }
    const index = vectorIndexName(name, vectorName);
    let k = request.filter === undefined ? wanted : Math.max(wanted * 4, 64);
    for (;;) {
      const rows = await this.rows('CALL db.index.vector.queryNodes($index, $k, $vector) YIELD node RETURN properties(node)', {
        index,
        k: BigInt(k),
        vector: query,
      });
      const points = rows
        .map(([properties]) => pointFromProperties(properties as ReadonlyMap<string, CypherValue>, spec))
        .filter((p): p is StoredPoint => p !== null && (request.filter === undefined || request.filter(p)));
      if (points.length >= wanted || rows.length < k) return scoreAll(points).slice(offset, wanted);
      k *= 4;
    }
  }
}
