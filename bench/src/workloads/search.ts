/**
 * V1–V3 (vectors), B1–B2 (BM25) and H1 (hybrid). Limits: raw faiss-node, a JS bandwidth scan, SQLite
 * FTS5, and a reference BM25 that every top-10 must reproduce. graphdb is measured twice: through
 * Cypher (`graphdb Cypher`: documents and embeddings as nodes, indexes created with DDL, queries by
 * `Session.run`; the verdict row) and through its search components called directly
 * (`graphdb search (component)`: the engine's ceiling, without Cypher, transactions or storage).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchContext } from '../context.js';
import { documentText, generateCorpus, generateTextQueries, type Corpus, type TextQuery } from '../gen/documents.js';
import { exactTopK, generateVectors, groundTruth, row, type VectorSet } from '../gen/vectors.js';
import { GRAPHDB_SEARCH_COMPONENT, type ComponentTextIndex, type ComponentVectors } from '../graphdb/search-component.js';
import { GRAPHDB_SEARCH_CYPHER, HYBRID_CANDIDATES, referenceRrf, type CypherSearch } from '../graphdb/search-cypher.js';
import {
  apiHybrid,
  cypherBm25,
  cypherFulltextBuild,
  cypherHybrid,
  cypherVectors,
  hybridOverlap,
  meanRecall,
  measureInterleaved,
  openCypherSearch,
  type HybridInputs,
} from '../graphdb/search-cypher-workloads.js';
import { measure, throughputOf, timeOnce, type Timing } from '../measure.js';
import { ReferenceBm25, sameTopK } from '../peers/bm25-reference.js';
import { FaissVectors, loadFaiss } from '../peers/faiss.js';
import { Fts5Index } from '../peers/fts5.js';
import { WorkloadRecorder, type WorkloadResult } from '../report-model.js';

const DIM = 384;
const RAW_HNSW = 'raw faiss HNSW32';
const COMPONENT_NOTE = 'engine search component called directly (no Cypher, transactions or storage)';

/** The ids of the 10 %-selective filter of V3b. */
const selected = (i: number): boolean => i % 10 === 3;

/** The generated vectors and their exact answers. */
interface VectorData {
  readonly base: VectorSet;
  readonly queries: VectorSet;
  readonly truth: number[][];
  readonly filteredTruth: number[][];
}

/** The Cypher adapter once its documents are stored, or why it is unavailable. */
type CypherHandle = { readonly search: CypherSearch; readonly loadMs: number; vectorsReady: boolean; textReady: boolean } | string;

async function componentVectors(
  ctx: BenchContext,
  data: VectorData,
  measureQueries: boolean,
  recs: {
    v1: WorkloadRecorder;
    v2: WorkloadRecorder;
    v3: WorkloadRecorder;
    v3f: WorkloadRecorder;
  },
): Promise<ComponentVectors | null> {
  const { base, queries, truth } = data;
  const factory = ctx.graphdb.searchComponents.vectors;
  if (typeof factory === 'string') {
    for (const r of [recs.v1, recs.v2, recs.v3, recs.v3f]) r.pending(GRAPHDB_SEARCH_COMPONENT, factory);
    return null;
  }
  const qrow = (i: number): Float32Array => row(queries, i % queries.count);
  const budget = { budgetMs: ctx.profile.budgetMs, warmupOps: 1 };
  const vectors = factory(DIM);
  try {
    const ms = await timeOnce(async () => {
      for (let i = 0; i < base.count; i++) vectors.collection.upsert(BigInt(i), row(base, i));
      await vectors.collection.buildNow(true);
    });
    const strategy = vectors.collection.status().strategy;
    recs.v1.ok(
      GRAPHDB_SEARCH_COMPONENT,
      'ours',
      throughputOf(base.count, ms),
      `${COMPONENT_NOTE}; VectorCollection upsert + buildNow, strategy ${strategy}`,
    );
    ctx.log(`  V1 graphdb component: ${ms.toFixed(0)} ms (${strategy})`);
    if (!measureQueries) return vectors;
    const found = Array.from({ length: queries.count }, (_, q) => vectors.search(qrow(q), 10));
    const recall = meanRecall(found, truth, 10);
    recs.v2.ok(
      GRAPHDB_SEARCH_COMPONENT,
      'ours',
      await measure((i) => vectors.search(qrow(i), 10), budget),
      `${COMPONENT_NOTE}; recall@10 ${recall.toFixed(3)}, strategy ${strategy}`,
    );
    recs.v2.check('graphdb component recall@10 ≥ 0.95', recall >= 0.95, recall.toFixed(3));
    recs.v3.answer(
      GRAPHDB_SEARCH_COMPONENT,
      Array.from({ length: Math.min(10, queries.count) }, (_, q) => vectors.exact(qrow(q), 10)),
    );
    recs.v3.ok(
      GRAPHDB_SEARCH_COMPONENT,
      'ours',
      await measure((i) => vectors.exact(qrow(i), 10), budget),
      `${COMPONENT_NOTE}; exactSearch`,
    );
    const filtered = Array.from({ length: queries.count }, (_, q) => vectors.search(qrow(q), 10, selected));
    const filteredRecall = meanRecall(filtered, data.filteredTruth, 10);
    recs.v3f.ok(
      GRAPHDB_SEARCH_COMPONENT,
      'ours',
      await measure((i) => vectors.search(qrow(i), 10, selected), budget),
      `${COMPONENT_NOTE}; recall@10 ${filteredRecall.toFixed(3)}`,
    );
    recs.v3f.check('graphdb component filtered recall@10 ≥ 0.95', filteredRecall >= 0.95, filteredRecall.toFixed(3));
    return vectors;
  } catch (e) {
    for (const r of [recs.v1, recs.v2, recs.v3, recs.v3f]) r.failed(GRAPHDB_SEARCH_COMPONENT, 'ours', e);
    vectors.collection.close();
    return null;
  }
}

/** Vector results plus what H1 reuses (graphdb's loaded collection and the query vectors). */
interface VectorOutcome {
  readonly results: WorkloadResult[];
  readonly ours: ComponentVectors | null;
  readonly data: VectorData;
}

/** V1–V3; with `measureQueries` false (only H1 wanted) just the graphdb indexes H1 needs are built. */
async function vectorWorkloads(ctx: BenchContext, data: VectorData, cypher: CypherHandle, measureQueries: boolean): Promise<VectorOutcome> {
  const { profile } = ctx;
  const { base, queries, truth } = data;
  const v1 = new WorkloadRecorder(
    'V1',
    `vector index build incl. storing embeddings (${base.count} × ${DIM})`,
    'vectors/s',
    '≥ 0.8× raw library build',
    [{ against: RAW_HNSW, factor: 0.8 }],
  );
  const v2 = new WorkloadRecorder('V2', 'kNN k=10, embedded', 'queries/s', '≥ 0.8× raw QPS at recall ≥ 0.95 (and at ≥ 0.99)', [
    { against: RAW_HNSW, factor: 0.8 },
  ]);
  const v3 = new WorkloadRecorder('V3a', 'exact kNN k=10 (full scan)', 'queries/s', '≥ 0.5× memory-bandwidth scan', [
    { against: 'JS bandwidth scan', factor: 0.5 },
  ]);
  const v3f = new WorkloadRecorder(
    'V3b',
    '10 %-selective filtered kNN k=10',
    'queries/s',
    'filtered recall ≥ 0.95 (exact filtered scan shown as limit)',
    [],
  );
  const qrow = (i: number): Float32Array => row(queries, i % queries.count);
  const budget = { budgetMs: profile.budgetMs, warmupOps: 1 };

  if (typeof cypher === 'string') for (const r of [v1, v2, v3, v3f]) r.pending(GRAPHDB_SEARCH_CYPHER, cypher);
  else cypher.vectorsReady = await cypherVectors(ctx, cypher.search, { v1, v2, v3, v3f, ...data, measureQueries });
  const ours = await componentVectors(ctx, data, measureQueries, { v1, v2, v3, v3f });
  if (!measureQueries) return { results: [], ours, data };

  const scanAnswers = Array.from({ length: Math.min(10, queries.count) }, (_, q) => exactTopK(base, qrow(q), 10));
  v3.answer('JS bandwidth scan', scanAnswers);
  v3.ok(
    'JS bandwidth scan',
    'limit',
    await measure((i) => exactTopK(base, qrow(i), 10), budget),
    'Float32Array dot products, one pass over all vectors',
  );
  v3f.ok(
    'JS filtered scan',
    'limit',
    await measure((i) => exactTopK(base, qrow(i), 10, selected), budget),
    'exact scan of the 10 % passing the filter',
  );

  const faiss = loadFaiss();
  if (typeof faiss === 'string') {
    for (const rec of [v1, v2, v3]) rec.unavailable('raw faiss', 'limit', faiss);
  } else {
    const flat = FaissVectors.build(faiss, 'Flat', base);
    v3.answer(
      'raw faiss Flat',
      scanAnswers.map((_, q) => flat.search(qrow(q), 10)),
    );
    v3.ok('raw faiss Flat', 'peer', await measure((i) => flat.search(qrow(i), 10), budget), 'IndexFlatIP');
    let hnsw: FaissVectors | undefined;
    const ms = await timeOnce(() => {
      hnsw = FaissVectors.build(faiss, 'HNSW32', base);
    });
    v1.ok(RAW_HNSW, 'limit', throughputOf(base.count, ms), 'Index.fromFactory("HNSW32"), inner product, number[] marshalling included');
    ctx.log(`  V1 raw faiss HNSW32 build: ${ms.toFixed(0)} ms`);
    const found = Array.from({ length: queries.count }, (_, q) => hnsw!.search(qrow(q), 10));
    const recall = meanRecall(found, truth, 10);
    const timing = await measure((i) => hnsw!.search(qrow(i), 10), { budgetMs: profile.budgetMs });
    v2.ok(
      RAW_HNSW,
      'limit',
      timing,
      `recall@10 ${recall.toFixed(3)} (faiss-node has no efSearch setter: one point of the curve, efSearch 16)`,
    );
    ctx.log(`  V2 raw faiss HNSW32: ${timing.opsPerSec.toFixed(0)} q/s at recall@10 ${recall.toFixed(3)}`);
  }
  return { results: [v1.finish(), v2.finish(), v3.finish(), v3f.finish()], ours, data };
}

/** B1 for graphdb's text component; returns the index for B2 and H1. */
async function componentText(ctx: BenchContext, corpus: Corpus, b1: WorkloadRecorder) {
  const factory = ctx.graphdb.searchComponents.text;
  if (typeof factory === 'string') {
    b1.pending(GRAPHDB_SEARCH_COMPONENT, factory);
    return { reason: factory };
  }
  const index = factory();
  const ms = await timeOnce(() => {
    for (let i = 0; i < corpus.docs.length; i++) index.add(i, documentText(corpus, i));
  });
  b1.ok(
    GRAPHDB_SEARCH_COMPONENT,
    'ours',
    throughputOf(corpus.docs.length, ms),
    `${COMPONENT_NOTE}; ${index.engine} upsert (analyzer + postings, in memory)`,
  );
  ctx.log(`  B1 graphdb component: ${ms.toFixed(0)} ms`);
  return { index };
}

async function textWorkloads(
  ctx: BenchContext,
  corpus: Corpus,
  vectors: VectorOutcome,
  cypher: CypherHandle,
  withHybrid: boolean,
): Promise<WorkloadResult[]> {
  const { profile } = ctx;
  const b1 = new WorkloadRecorder('B1', `full-text index build (${corpus.docs.length} docs)`, 'docs/s', '≥ 1.0× FTS5', [
    { against: 'raw FTS5', factor: 1 },
  ]);
  if (typeof cypher === 'string') b1.pending(GRAPHDB_SEARCH_CYPHER, cypher);
  else cypher.textReady = await cypherFulltextBuild(ctx, cypher.search, corpus.docs.length, cypher.loadMs, b1);
  const ours = await componentText(ctx, corpus, b1);
  const dir = join(ctx.tmp, 'fts5');
  mkdirSync(dir, { recursive: true });
  let fts: Fts5Index | undefined;
  const ms = await timeOnce(() => {
    fts = Fts5Index.build(dir, corpus);
  });
  b1.ok('raw FTS5', 'limit', throughputOf(corpus.docs.length, ms), 'better-sqlite3 FTS5, one transaction, on disk');
  ctx.log(`  B1 raw FTS5: ${ms.toFixed(0)} ms`);
  const t = performance.now();
  const ftsReference = new ReferenceBm25(corpus, 'fts5');
  const luceneReference = new ReferenceBm25(corpus, 'lucene');
  ctx.log(`  reference BM25 indexes in ${(performance.now() - t).toFixed(0)} ms`);

  const out: WorkloadResult[] = [b1.finish()];
  for (const [mode, factor] of [
    ['OR', 10],
    ['AND', 1],
  ] as const) {
    const rec = new WorkloadRecorder(
      `B2-${mode}`,
      `BM25 top-10, ${mode} queries`,
      'queries/s',
      `≥ ${factor}× FTS5; top-10 identical to the reference BM25 (k1 1.2, b 0.75; FTS5 and Lucene IDF respectively)`,
      [{ against: 'raw FTS5', factor }],
    );
    const queries = generateTextQueries(profile.seed, corpus, profile.textQueries, mode);
    const pick = (i: number) => queries[i % queries.length];
    const same = (engine: (q: TextQuery) => ReturnType<ReferenceBm25['search']>, reference: ReferenceBm25): string => {
      const ok = queries.filter((q) => sameTopK(reference.search(q, 10), engine(q))).length;
      return `${ok}/${queries.length}`;
    };
    const ftsSame = same((q) => fts!.search(q, 10), ftsReference);
    rec.check('FTS5 top-10 = reference BM25 (FTS5 IDF)', ftsSame === `${queries.length}/${queries.length}`, `${ftsSame} queries identical`);
    if (typeof cypher === 'string') rec.pending(GRAPHDB_SEARCH_CYPHER, cypher);
    else if (cypher.textReady) await cypherBm25(ctx, cypher.search, queries, luceneReference, rec);
    if (ours.index) {
      const index = ours.index;
      const oursSame = same((q) => index.search(q, 10), luceneReference);
      rec.check(
        'graphdb component top-10 = reference BM25 (Lucene IDF)',
        oursSame === `${queries.length}/${queries.length}`,
        `${oursSame} queries identical`,
      );
      rec.ok(
        GRAPHDB_SEARCH_COMPONENT,
        'ours',
        await measure((i) => index.search(pick(i), 10), { budgetMs: profile.budgetMs }),
        COMPONENT_NOTE,
      );
    } else rec.pending(GRAPHDB_SEARCH_COMPONENT, ours.reason ?? 'unavailable');
    rec.ok('raw FTS5', 'limit', await measure((i) => fts!.search(pick(i), 10), { budgetMs: profile.budgetMs }));
    rec.ok(
      'reference BM25 (JS maps)',
      'peer',
      await measure((i) => ftsReference.search(pick(i), 10), { budgetMs: profile.budgetMs }),
      'naive in-memory postings maps; the correctness reference, shown for scale',
    );
    out.push(rec.finish());
  }
  fts?.close();
  if (!withHybrid) return out;
  const texts = generateTextQueries(profile.seed + 60, corpus, profile.textQueries, 'OR');
  const { queries, truth } = vectors.data;
  const inputs: HybridInputs = {
    texts,
    queries,
    reference: (i) =>
      referenceRrf(
        luceneReference.search(texts[i % texts.length], HYBRID_CANDIDATES).map((h) => h.doc),
        truth[i % queries.count].slice(0, HYBRID_CANDIDATES),
        10,
      ),
  };
  out.push(await hybrid(ctx, corpus, ours.index ?? null, vectors, cypher, inputs));
  return out;
}

/**
 * H1: hybrid RRF (k=60) against its own two halves: through Cypher (one statement fusing both
 * procedures, against each procedure alone) and through graphdb's hybrid pipeline (methods
 * `hybrid`, `text`, `vector`): hybrid time must be ≤ 1.2× their sum. Documents 0..n-1 carry vectors
 * too (n = the vector count), so both lists overlap. Top-10 overlap with an exact RRF (reference
 * BM25 + exact kNN candidates) checks the answers.
 */
async function hybrid(
  ctx: BenchContext,
  corpus: Corpus,
  text: ComponentTextIndex | null,
  vectors: VectorOutcome,
  cypher: CypherHandle,
  inputs: HybridInputs,
): Promise<WorkloadResult> {
  const rec = new WorkloadRecorder(
    'H1',
    'hybrid RRF (k=60) of vector kNN and BM25, top-10',
    'queries/s',
    'hybrid time ≤ 1.2× (text time + vector time) of our own pipeline',
    [],
  );
  if (typeof cypher === 'string') rec.pending(GRAPHDB_SEARCH_CYPHER, cypher);
  else if (cypher.vectorsReady && cypher.textReady) {
    await cypherHybrid(ctx, cypher.search, inputs, rec);
    await apiHybrid(ctx, cypher.search, vectors.data.base, inputs, rec);
  }
  const run = ctx.graphdb.searchComponents.hybrid;
  if (typeof run === 'string' || !text || !vectors.ours) {
    rec.pending(GRAPHDB_SEARCH_COMPONENT, typeof run === 'string' ? run : 'needs graphdb text and vector components');
    vectors.ours?.collection.close();
    return rec.finish();
  }
  const collection = vectors.ours.collection;
  const queryVectors = vectors.data.queries;
  const args = (i: number, method: 'hybrid' | 'text' | 'vector') => ({
    query: inputs.texts[i % inputs.texts.length].terms.join(' '),
    limit: 10,
    method,
    text: text.index,
    vectors: collection,
    queryVector: collection.prepare(row(queryVectors, i % queryVectors.count)),
    minSimilarity: -1,
    mmr: false,
    rerank: null,
    documentText: (id: bigint) => documentText(corpus, Number(id)),
  });
  try {
    const first = await run(args(0, 'hybrid'));
    rec.check('graphdb component hybrid returns 10 results', first.length === 10, `${first.length} results`);
    const overlap = await hybridOverlap(inputs, async (i) => (await run(args(i, 'hybrid'))).map((h) => Number(h.nodeId)));
    rec.check('graphdb component top-10 overlap with exact RRF ≥ 0.9', overlap >= 0.9, overlap.toFixed(3));
    const [th, tt, tv] = (await measureInterleaved(
      [(i) => run(args(i, 'hybrid')), (i) => run(args(i, 'text')), (i) => run(args(i, 'vector'))],
      3 * ctx.profile.budgetMs,
    )) as [Timing, Timing, Timing];
    rec.ok(
      GRAPHDB_SEARCH_COMPONENT,
      'ours',
      th,
      `${COMPONENT_NOTE}; hybridSearch method hybrid; top-10 overlap with exact RRF ${overlap.toFixed(3)}`,
    );
    rec.ok('graphdb component text part', 'limit', tt, 'hybridSearch method text (timed interleaved with method hybrid)');
    rec.ok('graphdb component vector part', 'limit', tv, 'hybridSearch method vector (timed interleaved with method hybrid)');
    const sumMs = 1000 / tt.opsPerSec + 1000 / tv.opsPerSec;
    const hybridMs = 1000 / th.opsPerSec;
    rec.check(
      'graphdb component hybrid ≤ 1.2× (text + vector)',
      hybridMs <= 1.2 * sumMs,
      `${hybridMs.toFixed(3)} ms vs ${sumMs.toFixed(3)} ms (${(hybridMs / sumMs).toFixed(2)}×)`,
    );
    ctx.log(`  H1 graphdb component ${hybridMs.toFixed(3)} ms/query, text + vector ${sumMs.toFixed(3)} ms`);
  } catch (e) {
    rec.failed(GRAPHDB_SEARCH_COMPONENT, 'ours', e);
  } finally {
    collection.close();
  }
  return rec.finish();
}

/**
 * Runs the vector and text workloads. `wanted` (the `--only` filter) lets an H1-only run skip the
 * V2/V3 measurements and the raw faiss builds (H1 still needs graphdb's vector indexes), and a
 * B-only run skip vectors altogether (none generated).
 */
export async function runSearchWorkloads(ctx: BenchContext, wanted: (id: string) => boolean = () => true): Promise<WorkloadResult[]> {
  const { profile } = ctx;
  const needVectors = ['V1', 'V2', 'V3', 'H1'].some(wanted);
  let t = performance.now();
  const vectorCount = needVectors ? profile.vectors : 0;
  const { base, queries } = generateVectors(profile.seed, DIM, vectorCount, needVectors ? profile.vectorQueries : 0);
  const truth = groundTruth(base, queries, 100);
  const filteredTruth = Array.from({ length: queries.count }, (_, q) => exactTopK(base, row(queries, q), 10, selected));
  ctx.log(
    `  generated ${base.count} × ${DIM} vectors and exact top-100 of ${queries.count} queries in ${(performance.now() - t).toFixed(0)} ms`,
  );
  t = performance.now();
  const corpus = generateCorpus(profile.seed, profile.documents);
  ctx.log(
    `  generated ${corpus.docs.length} documents (vocabulary ${corpus.vocabulary.length}) in ${(performance.now() - t).toFixed(0)} ms`,
  );
  const dir = join(ctx.tmp, 'graphdb-search');
  const opened = ctx.graphdb.search ?? (await openCypherSearch(ctx, corpus, dir));
  const cypher: CypherHandle = typeof opened === 'string' ? opened : { ...opened, vectorsReady: false, textReady: false };
  try {
    const data = { base, queries, truth, filteredTruth };
    ctx.log(needVectors ? 'V1–V3 vectors' : 'V1–V3 vectors: skipped (neither V nor H1 wanted)');
    const vectors = needVectors
      ? await vectorWorkloads(ctx, data, cypher, ['V1', 'V2', 'V3'].some(wanted))
      : { results: [], ours: null, data };
    ctx.log('B1–B2 BM25, H1 hybrid');
    const text = await textWorkloads(ctx, corpus, vectors, cypher, wanted('H1'));
    return [...vectors.results, ...text];
  } finally {
    if (typeof cypher !== 'string') await cypher.search.close();
  }
}
