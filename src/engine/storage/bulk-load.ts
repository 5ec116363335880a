/**
 * The bulk loader (the `neo4j-admin database import` of graphdb): loads many nodes and
 * relationships into one database as ONE commit, far faster than row-by-row writes.
 *
 * ```ts
 * const loader = await BulkLoader.open(store, { uniqueChecks: 'deferred' });
 * const a = loader.addNode(['Person'], new Map([['name', 'Ann']]));   // -> internal id (bigint)
 * const b = loader.addNode(['Person'], new Map([['name', 'Bob']]));
 * loader.addRelationship('KNOWS', a, b, new Map());                   // ids assigned at finish
 * const result = await loader.finish();   // -> { version, nodes, relationships, ..., rebuiltIndexes }
 * // or loader.abort(): nothing is kept
 * ```
 *
 * How it is fast: node ids are handed out in sequence and rows written with multi-row INSERTs;
 * tokens are resolved once per distinct name; `node_labels` is written per label in id order;
 * index entries of RANGE/TEXT/POINT indexes are staged in a temp table and moved into
 * `index_entries` in one sorted pass; relationships are buffered, ordered by (start, type, end),
 * given ids in that order and written at the end. When the load adds at least as many
 * relationships as the database holds (always for an empty one) the secondary indexes of `rels`
 * (both adjacency directions and the per-type index) are dropped before and rebuilt after the
 * insert, so SQLite builds each from one sorted pass instead of maintaining it row by row;
 * otherwise SQLite maintains them during the insert. Counts and id
 * allocators in `state` are updated once, by the commit of the write transaction the loader runs
 * in, and everything carries one commit version: `readAt(previous version)` still shows the
 * database as it was. PRAGMAs (cache size, sorter threads) are raised for the load and restored.
 *
 * Atomicity and crash safety: the whole load, index drops and rebuilds included, is one SQLite
 * transaction (the loader holds the database's write lock until `finish`/`abort`); an error, an
 * `abort()` or a killed process leaves the database exactly as it was.
 *
 * Constraints: property values are validated as by any write (TypeError); node existence and
 * property type constraints are checked as each node is added (ConstraintValidationFailed, nothing
 * of that row written), relationship ones at commit (a violation rolls back the whole load). Uniqueness (and the uniqueness half of key constraints) is checked at
 * `finish` over all staged entries and against committed ones; a violation rolls back the whole
 * load. With `uniqueChecks: 'per-row'` node uniqueness is also checked as each node is added
 * (an in-memory key set, plus a lookup when the index already had entries), so a caller can
 * skip the offending row and go on.
 *
 * Time slicing (`sliced: true`, imports into a running server): `finish` gives the event loop back
 * every few milliseconds (label rows, relationship rows, change events), and the relationship
 * indexes are maintained during the insert instead of dropped and rebuilt, since a rebuild is one
 * statement over the whole table. Still one SQLite transaction: other writers wait for the write
 * lock, readers keep their snapshots.
 *
 * Change events: when someone subscribes to change events (search services in use) every
 * created entity is reported, as for any commit; that costs a read per entity.
 */
import { ConstraintValidationFailed, EntityNotFound, StatusCodes, graphError } from '../errors/index.js';
import type { CypherMap, CypherValue } from '../values/types.js';
import type { ConstraintEntry, IndexEntry, SchemaCatalog } from '../catalog/schema-catalog.js';
import type { DatabaseStore } from './database-store.js';
import type { WriteTransaction } from './write-transaction.js';
import type { Connection } from './sqlite/connection.js';
import { LabelSetCache } from './store-context.js';
import { TimeSlice } from './time-slice.js';
import { decodeRecordById, encodeRecord } from './codec/value-codec.js';
import { assertStorableProperty } from './property-rules.js';
import { entryKey, indexedValues } from './index-maintenance.js';
import { violation } from './commit-checks.js';
import { uniquenessViolation } from './constraint-messages.js';
import { RelationshipBuffer, type PendingEntries } from './bulk-load-rels.js';
import { StateKey, readState } from './sqlite/state-table.js';
import {
  checkpointDeltas,
  clearCheckpoint,
  listCheckpoints,
  writeCheckpoint,
  type CheckpointWrite,
  type StoredCheckpoint,
} from './import-checkpoint.js';
import {
  MultiRowInsert,
  STAGED_ENTRIES,
  createStaging,
  dropIndexes,
  indexHasEntries,
  publishStaging,
  rebuildIndexes,
  stagedConflict,
  stagedDuplicate,
  tunePragmas,
} from './bulk-load-sql.js';

/** Options of a bulk load. */
export interface BulkLoadOptions {
  /** How long to wait for the write lock (default: the database's write-lock timeout). */
  readonly timeoutMs?: number;
  /**
   * `deferred` (default): uniqueness checked once at `finish` (a violation fails the whole load).
   * `per-row`: node uniqueness also checked by `addNode` (the row is refused, the load goes on).
   */
  readonly uniqueChecks?: 'deferred' | 'per-row';
  /** Page cache during the load, in MiB (default 256; restored afterwards). */
  readonly cacheMiB?: number;
  /** `finish` yields the event loop between short slices and keeps the relationship indexes (see above). */
  readonly sliced?: boolean;
}

/** Outcome of a finished bulk load. */
export interface BulkLoadResult {
  /** The commit version of the load (unchanged when nothing was added). */
  readonly version: bigint;
  readonly nodes: number;
  readonly relationships: number;
  readonly labels: number;
  readonly properties: number;
  readonly indexEntries: number;
  /** True when the adjacency indexes were dropped and rebuilt (the load at least doubled the relationships). */
  readonly rebuiltIndexes: boolean;
  readonly durationMs: number;
}

interface LabelSet {
  readonly ids: readonly number[];
  readonly text: string;
}

/** A bulk load into one database: add nodes and relationships, then `finish()` (one commit) or `abort()`. */
export class BulkLoader {
  private readonly connection: Connection;
  private readonly catalog: SchemaCatalog;
  private readonly startedAt = Date.now();
  private readonly firstNodeId: number;
  private nextNodeId: number;
  private readonly restorePragmas: () => void;
  /** Resolved label sets: by the label for one label, by the JSON of the list for several. */
  private readonly singleLabelSets = new Map<string, LabelSet>();
  private readonly labelSets = new Map<string, LabelSet>();
  /** Node ids per label id, in id order (written to `node_labels` at the end). */
  private readonly labelMembers = new Map<number, number[]>();
  private readonly nodeRows: MultiRowInsert;
  private readonly stagedEntries: MultiRowInsert;
  private readonly rels = new RelationshipBuffer();
  /** Per-row uniqueness: staged keys (latin1 strings) per unique index -> entity id. */
  private readonly seenKeys: Map<number, Map<string, number>> | null;
  /** Unique indexes that had entries before the load (need a lookup per row in per-row mode). */
  private readonly nonEmptyUnique = new Set<number>();
  private readonly touchedIndexes = new Set<IndexEntry>();
  private nodes = 0;
  private labels = 0;
  private properties = 0;
  private entries = 0;
  private open = true;
  private readonly sliced: boolean;

  private constructor(
    private readonly tx: WriteTransaction,
    options: BulkLoadOptions,
  ) {
    this.connection = tx.db;
    this.catalog = tx.schema;
    this.sliced = options.sliced === true;
    this.firstNodeId = Number(tx.nextNodeId);
    this.nextNodeId = this.firstNodeId;
    const cacheMiB = options.cacheMiB ?? 256;
    this.restorePragmas = tunePragmas(this.connection, { cache_size: -cacheMiB * 1024, threads: 2 });
    try {
      createStaging(this.connection);
    } catch (error) {
      this.restorePragmas();
      throw error;
    }
    this.nodeRows = new MultiRowInsert(this.connection, 'nodes', ['id', 'version', 'labels', 'props']);
    this.stagedEntries = new MultiRowInsert(this.connection, STAGED_ENTRIES, ['index_id', 'key', 'entity']);
    this.seenKeys = options.uniqueChecks === 'per-row' ? new Map() : null;
    if (this.seenKeys !== null) {
      for (const index of this.catalog.indexes) {
        if (index.unique && index.maintained && indexHasEntries(this.connection, index.id)) this.nonEmptyUnique.add(index.id);
      }
    }
  }

  /** Starts a bulk load: takes the database's write lock and opens its one transaction. */
  static async open(store: DatabaseStore, options: BulkLoadOptions = {}): Promise<BulkLoader> {
    const tx = await store.beginWrite(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs });
    try {
      return new BulkLoader(tx, options);
    } catch (error) {
      tx.rollback();
      throw error;
    }
  }

  /** Nodes added so far. */
  get nodeCount(): number {
    return this.nodes;
  }

  /** The id the load's first relationship gets (relationship ids are assigned in order at `finish`). */
  get nextRelationshipId(): bigint {
    return this.tx.nextRelId;
  }

  /** Relationships added so far. */
  get relationshipCount(): number {
    return this.rels.length;
  }

  private assertOpen(): void {
    if (!this.open) throw graphError(StatusCodes.TransactionNotFound, 'The bulk load is finished.');
  }

  private labelSet(labels: readonly string[]): LabelSet {
    const cache = labels.length === 1 ? this.singleLabelSets : this.labelSets;
    const name = labels.length === 1 ? labels[0]! : JSON.stringify(labels);
    let set = cache.get(name);
    if (set === undefined) {
      const dictionary = this.tx.ctx.tokens.labels;
      const ids = [...new Set(labels.map((l) => dictionary.getOrCreate(l, this.connection)))].sort((a, b) => a - b);
      set = { ids, text: LabelSetCache.text(ids) };
      cache.set(name, set);
    }
    return set;
  }

  /** Validates values and maps keys to token ids (nulls dropped). */
  private record(properties: CypherMap): Map<number, CypherValue> {
    const keys = this.tx.ctx.tokens.keys;
    const record = new Map<number, CypherValue>();
    for (const [key, value] of properties) {
      if (value === null) continue;
      assertStorableProperty(value);
      record.set(keys.getOrCreate(key, this.connection), value);
    }
    return record;
  }

  /** Existence and property-type constraints of a node's labels. */
  private checkNodeConstraints(labelIds: readonly number[], id: bigint, record: ReadonlyMap<number, CypherValue>): void {
    const checks: ReadonlyMap<number, readonly ConstraintEntry[]> = this.catalog.nodeCommitChecks;
    for (const labelId of labelIds) {
      for (const constraint of checks.get(labelId) ?? []) {
        const message = violation(constraint, id, record);
        if (message !== null) throw new ConstraintValidationFailed(message);
      }
    }
  }

  /** Per-row uniqueness of a node about to get `id` (throws before anything is written). */
  private checkUniqueNow(indexes: readonly IndexEntry[], id: number, record: ReadonlyMap<number, CypherValue>): void {
    for (const index of indexes) {
      if (!index.unique) continue;
      const key = entryKey(index, record);
      if (key === null) continue;
      const existing =
        this.seenKeys!.get(index.id)?.get(key.toString('latin1')) ??
        (this.nonEmptyUnique.has(index.id)
          ? (this.connection.pluck('SELECT entity FROM index_entries WHERE index_id = ? AND key = ? LIMIT 1').get(index.id, key) as
              bigint | undefined)
          : undefined);
      if (existing !== undefined) {
        const d = index.definition;
        throw uniquenessViolation(d.entityType, BigInt(existing), d.labelsOrTypes[0]!, d.properties, indexedValues(index, record)!);
      }
    }
  }

  /**
   * Adds a node; returns its id. Throws (writing nothing of the row) for invalid property values
   * and constraint violations found per row.
   */
  addNode(labels: readonly string[], properties: CypherMap): bigint {
    this.assertOpen();
    const set = this.labelSet(labels);
    const record = this.record(properties);
    const id = this.nextNodeId;
    const bigId = BigInt(id);
    if (this.catalog.hasCommitChecks) this.checkNodeConstraints(set.ids, bigId, record);
    const indexesByLabel = this.catalog.nodeIndexesByLabel;
    if (this.seenKeys !== null) {
      for (const labelId of set.ids) this.checkUniqueNow(indexesByLabel.get(labelId) ?? [], id, record);
    }
    this.nextNodeId++;
    this.nodeRows.add(id, this.tx.commitVersion, set.text, encodeRecord(record));
    for (const labelId of set.ids) {
      let members = this.labelMembers.get(labelId);
      if (members === undefined) this.labelMembers.set(labelId, (members = []));
      members.push(id);
      const indexes = indexesByLabel.get(labelId);
      if (indexes !== undefined) for (const index of indexes) this.stage(index, id, record);
    }
    this.nodes++;
    this.labels += set.ids.length;
    this.properties += record.size;
    this.tx.state.nodeChanged(bigId, 'created');
    return bigId;
  }

  private stage(index: IndexEntry, entity: number, record: ReadonlyMap<number, CypherValue>): void {
    const key = entryKey(index, record);
    if (key === null) return;
    this.stagedEntries.add(index.id, key, entity);
    this.entries++;
    this.touchedIndexes.add(index);
    if (this.seenKeys !== null && index.unique && index.definition.entityType === 'NODE') {
      let seen = this.seenKeys.get(index.id);
      if (seen === undefined) this.seenKeys.set(index.id, (seen = new Map<string, number>()));
      seen.set(key.toString('latin1'), entity);
    }
  }

  private nodeExists(id: number): boolean {
    if (id >= this.firstNodeId) return id < this.nextNodeId;
    return this.connection.pluck('SELECT 1 FROM nodes WHERE id = ?').get(id) !== undefined;
  }

  /**
   * Adds a relationship between existing nodes or nodes of this load (its id is assigned by
   * `finish`; node ids may be given as numbers). Throws EntityNotFound for an unknown endpoint, TypeError for bad values.
   */
  addRelationship(type: string, startId: bigint | number, endId: bigint | number, properties: CypherMap): void {
    this.assertOpen();
    const start = Number(startId);
    const end = Number(endId);
    if (!this.nodeExists(start)) throw new EntityNotFound(`Node with id ${startId} does not exist or has been deleted`);
    if (end !== start && !this.nodeExists(end)) throw new EntityNotFound(`Node with id ${endId} does not exist or has been deleted`);
    const typeId = this.tx.ctx.tokens.types.getOrCreate(type, this.connection);
    if (properties.size === 0 && !this.catalog.relIndexesByType.has(typeId)) {
      this.rels.add(start, typeId, end, null);
      return;
    }
    const record = this.record(properties);
    const position = this.rels.add(start, typeId, end, encodeRecord(record));
    const indexes = this.catalog.relIndexesByType.get(typeId);
    if (indexes !== undefined) {
      const pending: [number, Buffer][] = [];
      for (const index of indexes) {
        const key = entryKey(index, record);
        if (key !== null) pending.push([index.id, key]);
        this.touchedIndexes.add(index);
      }
      if (pending.length > 0) this.rels.entries.set(position, pending);
    }
    this.properties += record.size;
  }

  /** Writes the buffered relationships in (start, type, end) order; returns the next free id. */
  private async writeRelationships(firstRelId: number, slice: TimeSlice | null): Promise<number> {
    const { rels } = this;
    let order: Uint32Array;
    if (slice === null) order = rels.order();
    else {
      const steps = rels.orderSteps();
      for (let step = steps.next(); ; step = steps.next()) {
        if (step.done === true) {
          order = step.value;
          break;
        }
        if (slice.due) await slice.yield();
      }
    }
    const insert = new MultiRowInsert(this.connection, 'rels', ['id', 'type', 'src', 'dst', 'version', 'props']);
    const version = Number(this.tx.commitVersion);
    const state = this.tx.state;
    const trackChanges = state.relChanges !== null;
    const checked = this.catalog.relCommitChecks;
    const perRowWork = trackChanges || checked.size > 0 || rels.entries.size > 0;
    const { src, dst, type } = rels;
    let id = firstRelId;
    for (let i = 0; i < order.length; i++, id++) {
      if (slice !== null && (i & 255) === 255 && slice.due) await slice.yield();
      const at = order[i]!;
      const typeId = type[at]!;
      insert.add(id, typeId, src[at], dst[at], version, rels.props(at));
      if (!perRowWork) continue;
      const pending: PendingEntries | undefined = rels.entries.get(at);
      if (pending !== undefined) {
        for (const [indexId, key] of pending) this.stagedEntries.add(indexId, key, id);
        this.entries += pending.length;
      }
      if (trackChanges) state.relChanged(BigInt(id), 'created');
      if (checked.has(typeId)) state.touchedRels.add(BigInt(id));
    }
    insert.flush();
    for (const [typeId, count] of rels.typeCounts()) state.typeDelta(typeId, count);
    return id;
  }

  private async writeNodeLabels(slice: TimeSlice | null): Promise<void> {
    const insert = new MultiRowInsert(this.connection, 'node_labels', ['label', 'node']);
    for (const labelId of [...this.labelMembers.keys()].sort((a, b) => a - b)) {
      const members = this.labelMembers.get(labelId)!;
      for (let i = 0; i < members.length; i++) {
        insert.add(labelId, members[i]);
        if (slice !== null && (i & 255) === 255 && slice.due) await slice.yield();
      }
      this.tx.state.labelDelta(labelId, members.length);
    }
    insert.flush();
  }

  /** Fails (ConstraintValidationFailed) on the first duplicate key of a unique index. */
  private checkUniqueStaged(): void {
    for (const index of this.touchedIndexes) {
      if (!index.unique) continue;
      const duplicate = stagedDuplicate(this.connection, index.id);
      const pair: [bigint, bigint] | null =
        duplicate !== null
          ? [duplicate[1], duplicate[2]]
          : indexHasEntries(this.connection, index.id)
            ? stagedConflict(this.connection, index.id)
            : null;
      if (pair === null) continue;
      const d = index.definition;
      const table = d.entityType === 'NODE' ? 'nodes' : 'rels';
      const props = this.connection.pluck(`SELECT props FROM ${table} WHERE id = ?`).get(pair[1]) as Buffer | null;
      const values = indexedValues(index, decodeRecordById(props)) ?? [];
      throw uniquenessViolation(d.entityType, pair[0], d.labelsOrTypes[0]!, d.properties, values);
    }
  }

  /** The unfinished resumable imports recorded in the database (`import-checkpoint.ts`), read in this load's transaction. */
  checkpoints(): StoredCheckpoint[] {
    this.assertOpen();
    return listCheckpoints(this.connection);
  }

  /** The deltas of the committed batches of the resumable import `key`, in order. */
  checkpointDeltas(key: string): string[] {
    this.assertOpen();
    return checkpointDeltas(this.connection, key);
  }

  /**
   * Writes everything, checks uniqueness, rebuilds indexes and commits (one version). `checkpoint`
   * commits with it: a resumable import's progress through this load, or `{ clear }` when the load
   * is the import's last.
   */
  async finish(options: { readonly checkpoint?: CheckpointWrite | { readonly clear: string } } = {}): Promise<BulkLoadResult> {
    this.assertOpen();
    this.open = false;
    const tx = this.tx;
    const slice = this.sliced ? new TimeSlice() : null;
    let rebuilt = false;
    try {
      this.nodeRows.flush();
      await this.writeNodeLabels(slice);
      const relCount = this.rels.length;
      if (relCount > 0) {
        rebuilt = slice === null && Number(readState(this.connection, StateKey.relCount)) <= relCount;
        const dropped = rebuilt ? dropIndexes(this.connection, 'rels') : [];
        tx.nextRelId = BigInt(await this.writeRelationships(Number(tx.nextRelId), slice));
        rebuildIndexes(this.connection, dropped);
      }
      this.stagedEntries.flush();
      this.checkUniqueStaged();
      publishStaging(this.connection);
      const state = tx.state;
      tx.nextNodeId = BigInt(this.nextNodeId);
      state.nodeDelta += this.nodes;
      state.relDelta += relCount;
      state.counters.nodesCreated += this.nodes;
      state.counters.relationshipsCreated += relCount;
      state.counters.labelsAdded += this.labels;
      state.counters.propertiesSet += this.properties;
      if (this.nodes + relCount > 0) state.dirty = true;
      const checkpoint = options.checkpoint;
      if (checkpoint !== undefined) {
        if ('clear' in checkpoint) clearCheckpoint(this.connection, checkpoint.clear);
        else writeCheckpoint(this.connection, checkpoint);
      }
      if (slice !== null) await tx.prepareCommitSliced(slice);
      const version = tx.commit();
      return {
        version,
        nodes: this.nodes,
        relationships: relCount,
        labels: this.labels,
        properties: this.properties,
        indexEntries: this.entries,
        rebuiltIndexes: rebuilt,
        durationMs: Date.now() - this.startedAt,
      };
    } catch (error) {
      tx.rollback();
      throw error;
    } finally {
      this.restorePragmas();
    }
  }

  /** Discards everything added (nothing of the load is kept). Idempotent. */
  abort(): void {
    if (!this.open) return;
    this.open = false;
    this.tx.rollback();
    this.restorePragmas();
  }
}
