/**
 * The "graphdb Cypher" rows of V1–V3, B1–B2 and H1: what a user of the product gets through
 * `Session.run` (see search-cypher.ts), checked against the same references as every other adapter.
 */
import type { BenchContext } from '../context.js';
import { documentText, type Corpus, type TextQuery } from '../gen/documents.js';
import { recallAt, row, type VectorSet } from '../gen/vectors.js';
import { measure, throughputOf, timeOnce, type Timing } from '../measure.js';
import { sameTopK, type ReferenceBm25 } from '../peers/bm25-reference.js';
import type { WorkloadRecorder } from '../report-model.js';
import {
  CypherSearch,
  FULLTEXT_INDEX,
  GRAPHDB_SEARCH_CYPHER as CYPHER,
  HYBRID_CANDIDATES,
  SEARCH_QUERIES,
  luceneQuery,
} from './search-cypher.js';

/** Name used in results for graphdb's hybrid pipeline reached through the embedded API. */
export const GRAPHDB_HYBRID_API = 'graphdb hybrid API';

/** ANN neighbours fetched before the V3b post-filter keeps 10 (about 10 pass per 100 at 10 % selectivity). */
export const FILTER_CANDIDATES = 400;

/** Mean recall@k of found lists against truth lists. */
export function meanRecall(found: readonly number[][], truth: readonly number[][], k: number): number {
  let sum = 0;
  for (let q = 0; q < found.length; q++) sum += recallAt(k, found[q], truth[q]);
  return sum / found.length;
}

/** Opens the Cypher adapter and stores every document as a node (the B1 input; not part of B1's figure). */
export async function openCypherSearch(
  ctx: BenchContext,
  corpus: Corpus,
  dir: string,
): Promise<{ search: CypherSearch; loadMs: number } | string> {
  try {
    const search = await CypherSearch.open(ctx.engine, dir);
    try {
      const loadMs = await timeOnce(() => search.loadDocuments(corpus.docs.length, (i) => documentText(corpus, i)));
      ctx.log(`  graphdb Cypher: ${corpus.docs.length} :Doc nodes stored with UNWIND CREATE in ${loadMs.toFixed(0)} ms`);
      return { search, loadMs };
    } catch (e) {
      await search.close();
      throw e;
    }
  } catch (e) {
    return `graphdb Cypher adapter failed to load the documents: ${(e as Error).message.split('\n')[0]}`;
  }
}

/** The vector recorders and the inputs they are checked against. */
export interface VectorRecs {
  readonly v1: WorkloadRecorder;
  readonly v2: WorkloadRecorder;
  readonly v3: WorkloadRecorder;
  readonly v3f: WorkloadRecorder;
  readonly base: VectorSet;
  readonly queries: VectorSet;
  readonly truth: number[][];
  readonly filteredTruth: number[][];
  /** false when only H1 needs the vectors: V2/V3 are then not measured. */
  readonly measureQueries: boolean;
}

/** Query vector `i` (cycling) as the LIST<FLOAT> parameter a client sends. */
export function queryParameter(queries: VectorSet, i: number): number[] {
  return Array.from(row(queries, i % queries.count));
}

/**
 * V1 (storing embeddings with UNWIND SET + CREATE VECTOR INDEX until its ANN build settled), V2
 * (queryNodes recall and QPS), V3a (exact scan in Cypher) and V3b (ANN post-filter). Returns
 * whether the vector index is usable for H1.
 */
export async function cypherVectors(ctx: BenchContext, search: CypherSearch, recs: VectorRecs): Promise<boolean> {
  const { base, queries } = recs;
  const budget = { budgetMs: ctx.profile.budgetMs, warmupOps: 1 };
  const params = Array.from({ length: queries.count }, (_, q) => queryParameter(queries, q));
  const qp = (i: number): number[] => params[i % params.length];
  try {
    const storeMs = await timeOnce(() => search.storeEmbeddings(base.count, (i) => Array.from(row(base, i))));
    let textDocs = 0;
    const servicesMs = await timeOnce(() => {
      textDocs = search.startSearchServices();
    });
    const buildMs = await timeOnce(() => search.createVectorIndex(base.dim, qp(0)));
    const strategy = search.vectorStrategy();
    recs.v1.ok(
      CYPHER,
      'ours',
      throughputOf(base.count, storeMs + buildMs),
      `UNWIND MERGE/SET d.embedding (500 rows/tx) ${storeMs.toFixed(0)} ms + CREATE VECTOR INDEX until queryable and its ANN build settled ${buildMs.toFixed(0)} ms (strategy ${strategy}); ` +
        `not included: first use of the search services (automatic text index over ${textDocs} nodes) ${servicesMs.toFixed(0)} ms`,
    );
    ctx.log(
      `  V1 graphdb Cypher: store ${storeMs.toFixed(0)} ms + index ${buildMs.toFixed(0)} ms (${strategy}); search services first use ${servicesMs.toFixed(0)} ms`,
    );
  } catch (e) {
    for (const r of [recs.v1, recs.v2, recs.v3, recs.v3f]) r.failed(CYPHER, 'ours', e);
    return false;
  }
  if (!recs.measureQueries) return true;
  try {
    const found: number[][] = [];
    for (let q = 0; q < queries.count; q++) found.push(await search.knn(qp(q), 10));
    const recall = meanRecall(found, recs.truth, 10);
    recs.v2.ok(
      CYPHER,
      'ours',
      await measure((i) => search.knn(qp(i), 10), budget),
      `db.index.vector.queryNodes; recall@10 ${recall.toFixed(3)}`,
    );
    recs.v2.check('graphdb Cypher recall@10 ≥ 0.95', recall >= 0.95, recall.toFixed(3));
  } catch (e) {
    recs.v2.failed(CYPHER, 'ours', e);
  }
  try {
    // A full scan in Cypher takes seconds per query at 100k vectors: the timed queries are the sample itself.
    await search.exact(qp(0), 10);
    const sample: number[][] = [];
    const latencies: number[] = [];
    for (let q = 0; q < Math.min(10, queries.count); q++) {
      const t0 = performance.now();
      sample.push(await search.exact(qp(q), 10));
      latencies.push(performance.now() - t0);
    }
    recs.v3.answer(CYPHER, sample);
    recs.v3.ok(
      CYPHER,
      'ours',
      timingOf(latencies),
      "MATCH (d:Doc) WHERE d.embedding IS NOT NULL RETURN d.id ORDER BY vector.similarity.cosine(d.embedding, $v) DESC LIMIT 10 (the exact-kNN plan NodeVectorTopK over the VECTOR index's vectors, candidates re-scored from the store; timed over the 10 sample queries)",
    );
  } catch (e) {
    recs.v3.failed(CYPHER, 'ours', e);
  }
  try {
    const filtered: number[][] = [];
    for (let q = 0; q < queries.count; q++) filtered.push(await search.filteredKnn(qp(q), 10, FILTER_CANDIDATES));
    const recall = meanRecall(filtered, recs.filteredTruth, 10);
    recs.v3f.ok(
      CYPHER,
      'ours',
      await measure((i) => search.filteredKnn(qp(i), 10, FILTER_CANDIDATES), budget),
      `queryNodes(k=${FILTER_CANDIDATES}) YIELD node WHERE node.id % 10 = 3 LIMIT 10; recall@10 ${recall.toFixed(3)}`,
    );
    recs.v3f.check('graphdb Cypher filtered recall@10 ≥ 0.95', recall >= 0.95, recall.toFixed(3));
  } catch (e) {
    recs.v3f.failed(CYPHER, 'ours', e);
  }
  return true;
}

/** B1: CREATE FULLTEXT INDEX until the first query answers (the nodes were stored before). */
export async function cypherFulltextBuild(
  ctx: BenchContext,
  search: CypherSearch,
  docs: number,
  loadMs: number,
  b1: WorkloadRecorder,
): Promise<boolean> {
  try {
    // The search services' first use (the automatic text index; done by V1 unless only B runs) is not B1.
    const servicesMs = await timeOnce(() => search.startSearchServices());
    const ms = await timeOnce(() => search.createFulltextIndex());
    b1.ok(
      CYPHER,
      'ours',
      throughputOf(docs, ms),
      `CREATE FULLTEXT INDEX until the first queryNodes answers (populated from the store); not included: storing the :Doc nodes before it (UNWIND CREATE, 2k rows/tx) ${loadMs.toFixed(0)} ms = ${(docs / (loadMs / 1000)).toFixed(0)} docs/s, and the first use of the search services ${servicesMs.toFixed(0)} ms`,
    );
    ctx.log(`  B1 graphdb Cypher: ${ms.toFixed(0)} ms`);
    return true;
  } catch (e) {
    b1.failed(CYPHER, 'ours', e);
    return false;
  }
}

/** B2 for one mode: top-10 identical to the reference on every query, then QPS. */
export async function cypherBm25(
  ctx: BenchContext,
  search: CypherSearch,
  queries: readonly TextQuery[],
  reference: ReferenceBm25,
  rec: WorkloadRecorder,
): Promise<void> {
  try {
    let same = 0;
    for (const q of queries) if (sameTopK(reference.search(q, 10), await search.fulltext(q, 10))) same++;
    rec.check(
      'graphdb Cypher top-10 = reference BM25 (Lucene IDF)',
      same === queries.length,
      `${same}/${queries.length} queries identical`,
    );
    rec.ok(
      CYPHER,
      'ours',
      await measure((i) => search.fulltext(queries[i % queries.length], 10), { budgetMs: ctx.profile.budgetMs }),
      `db.index.fulltext.queryNodes('${FULLTEXT_INDEX}', '${queries[0] ? luceneQuery(queries[0]) : ''}', {limit: 10}) YIELD node, score RETURN node.id, score`,
    );
  } catch (e) {
    rec.failed(CYPHER, 'ours', e);
  }
}

/**
 * Times several operations in rotation (op 0, op 1, ..., op 0, ...) for `budgetMs` in total, so a
 * shared machine's changing load hits all of them alike; each timing's seconds are the sum of its
 * own latencies. H1 compares hybrid time with the sum of its parts this way.
 */
export async function measureInterleaved(
  ops: readonly ((i: number) => Promise<unknown>)[],
  budgetMs: number,
  minRounds = 5,
  maxRounds = Number.MAX_SAFE_INTEGER,
): Promise<Timing[]> {
  for (const op of ops) await op(0);
  const latencies = ops.map((): number[] => []);
  const deadline = performance.now() + budgetMs;
  for (let i = 1; i <= maxRounds && (i <= minRounds || performance.now() < deadline); i++) {
    for (let o = 0; o < ops.length; o++) {
      const t0 = performance.now();
      await ops[o](i);
      latencies[o].push(performance.now() - t0);
    }
  }
  return latencies.map(timingOf);
}

/** A Timing from per-operation latencies (seconds: their sum). */
export function timingOf(latencies: readonly number[]): Timing {
  const sorted = Float64Array.from(latencies).sort();
  const pick = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const seconds = latencies.reduce((a, b) => a + b, 0) / 1000;
  return { ops: latencies.length, seconds, opsPerSec: latencies.length / seconds, p50Ms: pick(0.5), p99Ms: pick(0.99) };
}

/** What H1 needs: queries, their exact hybrid reference, and the inputs of both graphdb paths. */
export interface HybridInputs {
  readonly texts: readonly TextQuery[];
  readonly queries: VectorSet;
  /** Reference RRF top-10 of text query i with vector query i (cycling over both). */
  reference(i: number): number[];
}

/** Mean top-10 overlap with the exact RRF reference over every text query. */
export async function hybridOverlap(inputs: HybridInputs, run: (i: number) => Promise<number[]>): Promise<number> {
  const found: number[][] = [];
  const truth: number[][] = [];
  for (let i = 0; i < inputs.texts.length; i++) {
    found.push(await run(i));
    truth.push(inputs.reference(i));
  }
  return meanRecall(found, truth, 10);
}

/**
 * H1 through Cypher: one statement fusing both procedures' candidates with RRF, against the two
 * procedure calls alone with the same candidate counts (its parts), all through Session.run.
 */
export async function cypherHybrid(ctx: BenchContext, search: CypherSearch, inputs: HybridInputs, rec: WorkloadRecorder): Promise<void> {
  const params = Array.from({ length: inputs.queries.count }, (_, q) => queryParameter(inputs.queries, q));
  const text = (i: number): string => inputs.texts[i % inputs.texts.length].terms.join(' ');
  const vector = (i: number): number[] => params[i % params.length];
  try {
    const first = await search.hybrid(text(0), vector(0), 10);
    rec.check('graphdb Cypher hybrid returns 10 results', first.length === 10, `${first.length} results`);
    const overlap = await hybridOverlap(inputs, (i) => search.hybrid(text(i), vector(i), 10));
    rec.check('graphdb Cypher top-10 overlap with exact RRF ≥ 0.9', overlap >= 0.9, overlap.toFixed(3));
    const [th, tt, tv] = (await measureInterleaved(
      [
        (i) => search.hybrid(text(i), vector(i), 10),
        (i) => search.run(SEARCH_QUERIES.fulltext, { q: text(i), k: BigInt(HYBRID_CANDIDATES) }),
        (i) => search.knn(vector(i), HYBRID_CANDIDATES),
      ],
      3 * ctx.profile.budgetMs,
    )) as [Timing, Timing, Timing];
    rec.ok(
      CYPHER,
      'ours',
      th,
      `one statement: CALL { fulltext queryNodes (${HYBRID_CANDIDATES}) UNION ALL vector queryNodes (${HYBRID_CANDIDATES}) } then sum(1.0 / (60 + rank)); top-10 overlap with exact RRF ${overlap.toFixed(3)}`,
    );
    rec.ok(
      'graphdb Cypher text part',
      'limit',
      tt,
      `fulltext queryNodes, ${HYBRID_CANDIDATES} candidates (timed interleaved with the hybrid statement)`,
    );
    rec.ok(
      'graphdb Cypher vector part',
      'limit',
      tv,
      `vector queryNodes, ${HYBRID_CANDIDATES} candidates (timed interleaved with the hybrid statement)`,
    );
    const sumMs = 1000 / tt.opsPerSec + 1000 / tv.opsPerSec;
    const hybridMs = 1000 / th.opsPerSec;
    rec.check(
      'graphdb Cypher hybrid ≤ 1.2× (text + vector)',
      hybridMs <= 1.2 * sumMs,
      `${hybridMs.toFixed(3)} ms vs ${sumMs.toFixed(3)} ms (${(hybridMs / sumMs).toFixed(2)}×)`,
    );
    ctx.log(`  H1 graphdb Cypher ${hybridMs.toFixed(3)} ms/query, text + vector ${sumMs.toFixed(3)} ms`);
  } catch (e) {
    rec.failed(CYPHER, 'ours', e);
  }
}

/**
 * H1 through graphdb's own hybrid pipeline (`db.search().search()`, what HTTP `POST /graphdb/search`
 * runs): the documents' embeddings are copied into the node-embedding store first (embedded API
 * `setEmbedding`, not timed here). Methods `hybrid`, `text` and `vector` timed interleaved; every
 * request is a distinct (text, vector) pair so the result cache never answers (it would throw).
 */
export async function apiHybrid(
  ctx: BenchContext,
  search: CypherSearch,
  base: VectorSet,
  inputs: HybridInputs,
  rec: WorkloadRecorder,
): Promise<void> {
  const params = Array.from({ length: inputs.queries.count }, (_, q) => queryParameter(inputs.queries, q));
  const n = inputs.texts.length;
  const m = params.length;
  // Request i pairs text i % n with vector (i % n + floor(i / n)) % m: distinct for i < n × m.
  const text = (i: number): string => inputs.texts[i % n].terms.join(' ');
  const vector = (i: number): number[] => params[((i % n) + Math.floor(i / n)) % m];
  try {
    const ms = await timeOnce(() => search.storeNodeEmbeddings(base.count, (i) => row(base, i)));
    ctx.log(
      `  H1 graphdb hybrid API: ${base.count} node embeddings stored and indexed in ${ms.toFixed(0)} ms (${search.embeddingStrategy()})`,
    );
    const overlap = await hybridOverlap(inputs, (i) => search.hybridSearch(text(i), vector(i), 10, 'hybrid'));
    rec.check('graphdb hybrid API top-10 overlap with exact RRF ≥ 0.9', overlap >= 0.9, overlap.toFixed(3));
    const round = (method: 'hybrid' | 'text' | 'vector') => (i: number) => search.hybridSearch(text(n + i), vector(n + i), 10, method);
    const [th, tt, tv] = (await measureInterleaved(
      [round('hybrid'), round('text'), round('vector')],
      3 * ctx.profile.budgetMs,
      5,
      n * (m - 1) - 1,
    )) as [Timing, Timing, Timing];
    rec.ok(
      GRAPHDB_HYBRID_API,
      'ours',
      th,
      `db.search().search({method: 'hybrid', queryVector, minSimilarity: -1}) over the automatic text index and the node embeddings (${search.embeddingStrategy()}); top-10 overlap with exact RRF ${overlap.toFixed(3)}; result cache never hit`,
    );
    rec.ok('graphdb hybrid API text part', 'limit', tt, "method 'text' (timed interleaved)");
    rec.ok('graphdb hybrid API vector part', 'limit', tv, "method 'vector' (timed interleaved)");
    const sumMs = 1000 / tt.opsPerSec + 1000 / tv.opsPerSec;
    const hybridMs = 1000 / th.opsPerSec;
    rec.check(
      'graphdb hybrid API ≤ 1.2× (text + vector)',
      hybridMs <= 1.2 * sumMs,
      `${hybridMs.toFixed(3)} ms vs ${sumMs.toFixed(3)} ms (${(hybridMs / sumMs).toFixed(2)}×)`,
    );
    ctx.log(`  H1 graphdb hybrid API ${hybridMs.toFixed(3)} ms/query, text + vector ${sumMs.toFixed(3)} ms`);
  } catch (e) {
    rec.failed(GRAPHDB_HYBRID_API, 'ours', e);
  }
}
