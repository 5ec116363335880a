/**
 * graphdb search through its real query surface: documents and embeddings stored as `:Doc` nodes
 * with Cypher `UNWIND` batches, FULLTEXT / VECTOR indexes created with Cypher DDL, and every query a
 * `Session.run` with parameters (`db.index.fulltext.queryNodes`, `db.index.vector.queryNodes`,
 * `vector.similarity.cosine`, and an RRF fusion of the two procedures written in Cypher).
 * Answers are read back as the `id` property of the returned nodes, so they are compared with the
 * same references as the component adapter (document / vector number = `d.id`).
 */
import type { Session } from '../../../src/engine/session/types.js';
import type { TextQuery } from '../gen/documents.js';
import type { ScoredDoc } from '../peers/bm25-reference.js';
import { openGraphDB } from './embedded.js';
import { engineModule, type EngineSource } from './engine-module.js';

/** Name used in results for the Cypher adapter. */
export const GRAPHDB_SEARCH_CYPHER = 'graphdb Cypher';

/** Index names the adapter creates. */
export const FULLTEXT_INDEX = 'doc_text';
export const VECTOR_INDEX = 'doc_embedding';

/** Candidates each list contributes to hybrid fusion (graphdb's pipeline uses max(50, 4 × limit)). */
export const HYBRID_CANDIDATES = 50;

/** Rows per load transaction. */
const TEXT_BATCH = 2000;
const VECTOR_BATCH = 500;

/** The Cypher the adapter runs (parameters: $q text query, $v vector, $k / $c counts, $rows). */
export const SEARCH_QUERIES = {
  docIdIndex: 'CREATE INDEX doc_id IF NOT EXISTS FOR (d:Doc) ON (d.id)',
  loadDocs: 'UNWIND $rows AS r CREATE (:Doc {id: r.id, text: r.text})',
  storeEmbeddings: 'UNWIND $rows AS r MERGE (d:Doc {id: r.id}) SET d.embedding = r.v',
  fulltextIndex: `CREATE FULLTEXT INDEX ${FULLTEXT_INDEX} FOR (d:Doc) ON EACH [d.text]`,
  vectorIndex: (dimensions: number) =>
    `CREATE VECTOR INDEX ${VECTOR_INDEX} FOR (d:Doc) ON d.embedding OPTIONS {indexConfig: {\`vector.dimensions\`: ${dimensions}, \`vector.similarity_function\`: 'cosine'}}`,
  fulltext: `CALL db.index.fulltext.queryNodes('${FULLTEXT_INDEX}', $q, {limit: $k}) YIELD node, score RETURN node.id AS id, score`,
  knn: `CALL db.index.vector.queryNodes('${VECTOR_INDEX}', $k, $v) YIELD node, score RETURN node.id AS id, score`,
  exact: 'MATCH (d:Doc) WHERE d.embedding IS NOT NULL RETURN d.id AS id ORDER BY vector.similarity.cosine(d.embedding, $v) DESC LIMIT $k',
  /** Over-fetches $c neighbours from the ANN index and keeps the first $k passing the filter (Neo4j's post-filter idiom). */
  filteredKnn: `CALL db.index.vector.queryNodes('${VECTOR_INDEX}', $c, $v) YIELD node, score WHERE node.id % 10 = 3 RETURN node.id AS id LIMIT $k`,
  /** RRF (k = 60) of the full-text and vector candidate lists; ties by best single rank. */
  hybrid: `CALL {
  CALL db.index.fulltext.queryNodes('${FULLTEXT_INDEX}', $q, {limit: $c}) YIELD node
  WITH collect(node) AS hits UNWIND range(0, size(hits) - 1) AS i RETURN hits[i] AS n, i + 1 AS rank
  UNION ALL
  CALL db.index.vector.queryNodes('${VECTOR_INDEX}', $c, $v) YIELD node
  WITH collect(node) AS hits UNWIND range(0, size(hits) - 1) AS i RETURN hits[i] AS n, i + 1 AS rank
}
WITH n, sum(1.0 / (60 + rank)) AS rrf, min(rank) AS best
RETURN n.id AS id, rrf ORDER BY rrf DESC, best LIMIT $k`,
} as const;

/** The facade as far as this adapter uses it. */
interface SearchGraphDB {
  session(): Session | Promise<Session>;
  close(): Promise<void> | void;
  search?(database?: string): DatabaseSearchLike;
  searchServices?: { settle(): Promise<void> } | null;
}

/** The part of the embedded `db.search()` API (DatabaseSearch) the adapter uses. */
interface DatabaseSearchLike {
  status(): { text_documents: number; strategy: string };
  named?: { vector: ReadonlyMap<string, { collection: { status(): { strategy: string } } }> };
  setEmbedding(nodeId: bigint, vector: ArrayLike<number>): void;
  search(request: {
    query: string;
    limit: number;
    method: HybridMethod;
    minSimilarity: number;
    queryVector: readonly number[];
  }): Promise<{ results: readonly { nodeId: bigint }[]; cached: boolean }>;
}

/** Methods of graphdb's hybrid pipeline. */
export type HybridMethod = 'hybrid' | 'text' | 'vector';

type Params = Record<string, unknown>;

/** Lucene syntax of a bench query (`a OR b OR c` / `a AND b`). */
export function luceneQuery(q: TextQuery): string {
  return q.terms.join(q.mode === 'OR' ? ' OR ' : ' AND ');
}

/** An embedded graphdb holding the bench's documents and vectors as `:Doc` nodes. */
export class CypherSearch {
  /** Internal node id -> document number, filled by storeNodeEmbeddings. */
  private readonly docOf = new Map<bigint, number>();

  private constructor(
    private readonly db: SearchGraphDB,
    private readonly session: Session,
  ) {}

  /** Opens a fresh database in `dir` with the engine from `source`. */
  static async open(source: EngineSource, dir: string): Promise<CypherSearch> {
    const url = engineModule(source, 'engine/index');
    if (!url) throw new Error(`${source}/engine/index does not exist`);
    const engine = (await import(url)) as Record<string, unknown>;
    const db = (await openGraphDB(engine, dir)) as unknown as SearchGraphDB;
    return new CypherSearch(db, await db.session());
  }

  /** Runs one statement; rows as arrays (integers as bigint). */
  async run(query: string, params: Params = {}): Promise<unknown[][]> {
    const stream = await this.session.run(query, new Map(Object.entries(params)) as never);
    const rows: unknown[][] = [];
    for (;;) {
      const { records, hasMore } = await stream.pull(-1);
      for (const r of records) rows.push([...r]);
      if (!hasMore) return rows;
    }
  }

  /** Creates `(:Doc {id, text})` for every document, in UNWIND batches (plus the `Doc.id` index). */
  async loadDocuments(count: number, text: (i: number) => string): Promise<void> {
    await this.run(SEARCH_QUERIES.docIdIndex);
    for (let start = 0; start < count; start += TEXT_BATCH) {
      const rows: Map<string, unknown>[] = [];
      for (let i = start; i < Math.min(count, start + TEXT_BATCH); i++)
        rows.push(
          new Map<string, unknown>([
            ['id', BigInt(i)],
            ['text', text(i)],
          ]),
        );
      await this.run(SEARCH_QUERIES.loadDocs, { rows });
    }
  }

  /** Sets `d.embedding` (LIST<FLOAT>) on documents 0..count-1 (created when missing), in UNWIND batches. */
  async storeEmbeddings(count: number, vector: (i: number) => number[]): Promise<void> {
    for (let start = 0; start < count; start += VECTOR_BATCH) {
      const rows: Map<string, unknown>[] = [];
      for (let i = start; i < Math.min(count, start + VECTOR_BATCH); i++)
        rows.push(
          new Map<string, unknown>([
            ['id', BigInt(i)],
            ['v', vector(i)],
          ]),
        );
      await this.run(SEARCH_QUERIES.storeEmbeddings, { rows });
    }
  }

  /**
   * First use of the database's search services (embedded API `db.search()`): builds the automatic
   * text index over every string property. Returns the documents it indexed.
   */
  startSearchServices(): number {
    return this.services().status().text_documents;
  }

  /** CREATE FULLTEXT INDEX, then the first query (which populates it from the store). */
  async createFulltextIndex(): Promise<void> {
    await this.run(SEARCH_QUERIES.fulltextIndex);
    await this.fulltext({ terms: ['x'], mode: 'OR' }, 1);
  }

  /** CREATE VECTOR INDEX, the first query (populating it), then waits for its ANN build. */
  async createVectorIndex(dimensions: number, probe: number[]): Promise<void> {
    await this.run(SEARCH_QUERIES.vectorIndex(dimensions));
    await this.knn(probe, 1);
    await this.db.searchServices?.settle();
  }

  /** The VECTOR index's strategy (embedded API, for the report), or 'unknown'. */
  vectorStrategy(): string {
    return this.db.search?.().named?.vector.get(VECTOR_INDEX)?.collection.status().strategy ?? 'unknown';
  }

  /** BM25 top-k through `db.index.fulltext.queryNodes`. */
  async fulltext(q: TextQuery, k: number): Promise<ScoredDoc[]> {
    const rows = await this.run(SEARCH_QUERIES.fulltext, { q: luceneQuery(q), k: BigInt(k) });
    return rows.map((r) => ({ doc: Number(r[0]), score: r[1] as number }));
  }

  /** Approximate kNN through `db.index.vector.queryNodes`. */
  async knn(vector: number[], k: number): Promise<number[]> {
    return (await this.run(SEARCH_QUERIES.knn, { v: vector, k: BigInt(k) })).map((r) => Number(r[0]));
  }

  /** Exact kNN: every stored embedding scored with `vector.similarity.cosine`. */
  async exact(vector: number[], k: number): Promise<number[]> {
    return (await this.run(SEARCH_QUERIES.exact, { v: vector, k: BigInt(k) })).map((r) => Number(r[0]));
  }

  /** The 10 %-selective filter (`id % 10 = 3`) applied to `candidates` ANN neighbours. */
  async filteredKnn(vector: number[], k: number, candidates: number): Promise<number[]> {
    return (await this.run(SEARCH_QUERIES.filteredKnn, { v: vector, k: BigInt(k), c: BigInt(candidates) })).map((r) => Number(r[0]));
  }

  /** Hybrid RRF top-k of a plain-words text query (implicit OR) and a query vector. */
  async hybrid(text: string, vector: number[], k: number): Promise<number[]> {
    const rows = await this.run(SEARCH_QUERIES.hybrid, { q: text, v: vector, k: BigInt(k), c: BigInt(HYBRID_CANDIDATES) });
    return rows.map((r) => Number(r[0]));
  }

  /**
   * Puts the embeddings of documents 0..count-1 into the database's node-embedding store (embedded
   * API `db.search().setEmbedding`; what an embedding provider would fill), the vectors graphdb's
   * hybrid search (`db.search().search()`, HTTP `POST /graphdb/search`) uses; waits for its ANN build.
   */
  async storeNodeEmbeddings(count: number, vector: (i: number) => ArrayLike<number>): Promise<void> {
    const search = this.services();
    for (const [doc, node] of await this.run('MATCH (d:Doc) RETURN d.id AS doc, id(d) AS node'))
      this.docOf.set(node as bigint, Number(doc));
    for (const [node, doc] of this.docOf) if (doc < count) search.setEmbedding(node, vector(doc));
    await this.db.searchServices?.settle();
  }

  /** The node-embedding store's strategy (after storeNodeEmbeddings). */
  embeddingStrategy(): string {
    return this.services().status().strategy;
  }

  /**
   * graphdb's own hybrid pipeline (RRF k = 60 over BM25 on the automatic text index and the node
   * embeddings): document numbers of the top `k`. Throws when the result cache answered, so a timing
   * never measures the cache (callers pass distinct query/vector pairs).
   */
  async hybridSearch(text: string, vector: readonly number[], k: number, method: HybridMethod): Promise<number[]> {
    const page = await this.services().search({ query: text, limit: k, method, minSimilarity: -1, queryVector: vector });
    if (page.cached) throw new Error('hybrid search answered from its result cache: the bench must not repeat a request');
    return page.results.map((r) => this.docOf.get(r.nodeId) ?? -1);
  }

  private services(): DatabaseSearchLike {
    if (typeof this.db.search !== 'function') throw new Error('GraphDB.search() is not available');
    return this.db.search();
  }

  async close(): Promise<void> {
    await this.session.close();
    await this.db.close();
  }
}

/** Null when the checkout answers search through Cypher, else why not. */
export function probeCypherSearch(source: EngineSource): string | null {
  if (!engineModule(source, 'engine/index')) return `${source}/engine/index does not exist yet`;
  if (!engineModule(source, 'engine/cypher/procedures/search')) return 'no db.index.fulltext/vector procedures in this checkout';
  return null;
}

/**
 * Reciprocal-rank fusion (k = 60) of two ranked id lists, best first; ties by best single rank then
 * id. The bench's exact hybrid reference: reference BM25 candidates fused with exact kNN candidates.
 */
export function referenceRrf(text: readonly number[], vector: readonly number[], k: number): number[] {
  const fused = new Map<number, { score: number; best: number }>();
  const add = (list: readonly number[]): void => {
    list.forEach((id, i) => {
      const e = fused.get(id) ?? { score: 0, best: Number.POSITIVE_INFINITY };
      e.score += 1 / (60 + i + 1);
      e.best = Math.min(e.best, i + 1);
      fused.set(id, e);
    });
  };
  add(text);
  add(vector);
  return [...fused.entries()]
    .sort((a, b) => b[1].score - a[1].score || a[1].best - b[1].best || a[0] - b[0])
    .slice(0, k)
    .map(([id]) => id);
}
