/**
 * V1–V3 (vectors), B1–B2 (BM25) and H1 (hybrid): the raw-library limits are measured now (faiss-node,
 * a JS bandwidth scan, SQLite FTS5, a reference BM25); graphdb's side stays pending until the search
 * feature is reachable through the engine.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchContext } from '../context.js';
import { generateCorpus, generateTextQueries } from '../gen/documents.js';
import { exactTopK, generateVectors, groundTruth, recallAt, row } from '../gen/vectors.js';
import { measure, throughputOf, timeOnce } from '../measure.js';
import { ReferenceBm25, sameTopK } from '../peers/bm25-reference.js';
import { FaissVectors, loadFaiss } from '../peers/faiss.js';
import { Fts5Index } from '../peers/fts5.js';
import { WorkloadRecorder, type WorkloadResult } from '../report-model.js';
import { GRAPHDB_EMBEDDED } from './common.js';

const DIM = 384;

function meanRecall(found: number[][], truth: number[][], k: number): number {
  let sum = 0;
  for (let q = 0; q < found.length; q++) sum += recallAt(k, found[q]!, truth[q]!);
  return sum / found.length;
}

async function vectorWorkloads(ctx: BenchContext): Promise<WorkloadResult[]> {
  const { profile } = ctx;
  const pending = ctx.graphdb.search;
  let t = performance.now();
  const { base, queries } = generateVectors(profile.seed, DIM, profile.vectors, profile.vectorQueries);
  const truth = groundTruth(base, queries, 100);
  ctx.log(`  generated ${base.count} × ${DIM} vectors and exact top-100 of ${queries.count} queries in ${(performance.now() - t).toFixed(0)} ms`);
  const v1 = new WorkloadRecorder('V1', `vector index build incl. storing embeddings (${base.count} × ${DIM})`, 'vectors/s', '≥ 0.8× raw library build',
    [{ against: 'raw faiss HNSW32', factor: 0.8 }]);
  const v2 = new WorkloadRecorder('V2', 'kNN k=10, embedded', 'queries/s', '≥ 0.8× raw QPS at recall ≥ 0.95 and ≥ 0.99',
    [{ against: 'raw faiss HNSW32', factor: 0.8 }]);
  const v3 = new WorkloadRecorder('V3a', 'exact kNN k=10 (full scan)', 'queries/s', '≥ 0.5× memory-bandwidth scan',
    [{ against: 'JS bandwidth scan', factor: 0.5 }]);
  const v3f = new WorkloadRecorder('V3b', '10 %-selective filtered kNN k=10', 'queries/s', 'filtered recall ≥ 0.95 (exact filtered scan as limit)', []);
  for (const rec of [v1, v2, v3, v3f]) {
    if (pending) rec.pending(GRAPHDB_EMBEDDED, pending);
  }
  const qrow = (i: number): Float32Array => row(queries, i % queries.count);

  // V3: exact scans — the JS loop is the memory-bandwidth limit.
  const scanAnswers = Array.from({ length: Math.min(10, queries.count) }, (_, q) => exactTopK(base, qrow(q), 10));
  v3.answer('JS bandwidth scan', scanAnswers);
  v3.ok('JS bandwidth scan', 'limit', await measure((i) => exactTopK(base, qrow(i), 10), { budgetMs: profile.budgetMs, warmupOps: 1 }),
    'Float32Array dot products, one pass over all vectors');
  const selected = (i: number): boolean => i % 10 === 3;
  v3f.ok('JS filtered scan', 'limit', await measure((i) => exactTopK(base, qrow(i), 10, selected), { budgetMs: profile.budgetMs, warmupOps: 1 }),
    'exact scan of the 10 % of vectors passing the filter');

  const faiss = loadFaiss();
  if (typeof faiss === 'string') {
    for (const rec of [v1, v2, v3]) rec.unavailable('raw faiss', 'limit', faiss);
  } else {
    const flat = FaissVectors.build(faiss, 'Flat', base);
    v3.answer('raw faiss Flat', scanAnswers.map((_, q) => flat.search(qrow(q), 10)));
    v3.ok('raw faiss Flat', 'peer', await measure((i) => flat.search(qrow(i), 10), { budgetMs: profile.budgetMs, warmupOps: 1 }), 'IndexFlatIP');
    let hnsw: FaissVectors | undefined;
    const ms = await timeOnce(() => {
      hnsw = FaissVectors.build(faiss, 'HNSW32', base);
    });
    v1.ok('raw faiss HNSW32', 'limit', throughputOf(base.count, ms), 'Index.fromFactory("HNSW32"), inner product, number[] marshalling included');
    ctx.log(`  V1 raw faiss HNSW32 build: ${ms.toFixed(0)} ms`);
    const found = Array.from({ length: queries.count }, (_, q) => hnsw!.search(qrow(q), 10));
    const recall = meanRecall(found, truth, 10);
    const timing = await measure((i) => hnsw!.search(qrow(i), 10), { budgetMs: profile.budgetMs });
    v2.ok('raw faiss HNSW32', 'limit', timing, `recall@10 ${recall.toFixed(3)} (faiss-node exposes no efSearch setter: one point of the curve)`);
    ctx.log(`  V2 raw faiss HNSW32: ${timing.opsPerSec.toFixed(0)} q/s at recall@10 ${recall.toFixed(3)}`);
  }
  return [v1.finish(), v2.finish(), v3.finish(), v3f.finish()];
}

async function textWorkloads(ctx: BenchContext): Promise<WorkloadResult[]> {
  const { profile } = ctx;
  const pending = ctx.graphdb.search;
  let t = performance.now();
  const corpus = generateCorpus(profile.seed, profile.documents);
  ctx.log(`  generated ${corpus.docs.length} documents (vocabulary ${corpus.vocabulary.length}) in ${(performance.now() - t).toFixed(0)} ms`);
  const b1 = new WorkloadRecorder('B1', `full-text index build (${corpus.docs.length} docs)`, 'docs/s', '≥ 1.0× FTS5', [{ against: 'raw FTS5', factor: 1 }]);
  if (pending) b1.pending(GRAPHDB_EMBEDDED, pending);
  const dir = join(ctx.tmp, 'fts5');
  mkdirSync(dir, { recursive: true });
  let fts: Fts5Index | undefined;
  const ms = await timeOnce(() => {
    fts = Fts5Index.build(dir, corpus);
  });
  b1.ok('raw FTS5', 'limit', throughputOf(corpus.docs.length, ms), 'better-sqlite3 FTS5, one transaction');
  ctx.log(`  B1 raw FTS5: ${ms.toFixed(0)} ms`);
  t = performance.now();
  const reference = new ReferenceBm25(corpus);
  ctx.log(`  reference BM25 index in ${(performance.now() - t).toFixed(0)} ms`);

  const out: WorkloadResult[] = [b1.finish()];
  for (const [mode, factor] of [['OR', 10], ['AND', 1]] as const) {
    const rec = new WorkloadRecorder(`B2-${mode}`, `BM25 top-10, ${mode} queries`, 'queries/s',
      `≥ ${factor}× FTS5; top-10 identical to the reference BM25 (k1 1.2, b 0.75)`, [{ against: 'raw FTS5', factor }]);
    if (pending) rec.pending(GRAPHDB_EMBEDDED, pending);
    const queries = generateTextQueries(profile.seed, corpus, profile.textQueries, mode);
    const ref = queries.map((q) => reference.search(q, 10));
    const fromFts = queries.map((q) => fts!.search(q, 10));
    const mismatches = queries.filter((_, i) => !sameTopK(ref[i]!, fromFts[i]!)).length;
    rec.check('FTS5 top-10 = reference BM25', mismatches === 0, `${queries.length - mismatches}/${queries.length} queries identical`);
    rec.ok('raw FTS5', 'limit', await measure((i) => fts!.search(queries[i % queries.length]!, 10), { budgetMs: profile.budgetMs }));
    rec.ok('reference BM25 (JS maps)', 'peer', await measure((i) => reference.search(queries[i % queries.length]!, 10), { budgetMs: profile.budgetMs }),
      'naive in-memory postings maps; the correctness reference, shown for scale');
    out.push(rec.finish());
  }
  fts?.close();
  const h1 = new WorkloadRecorder('H1', 'hybrid RRF (k=60) of V2 and B2', 'queries/s', '≤ 1.2× the sum of our own V2 and B2 times', []);
  h1.pending(GRAPHDB_EMBEDDED, pending ?? 'hybrid search not wired into the bench yet');
  out.push(h1.finish());
  return out;
}

/** Runs the vector and text workloads. */
export async function runSearchWorkloads(ctx: BenchContext): Promise<WorkloadResult[]> {
  ctx.log('V1–V3 vectors');
  const vectors = await vectorWorkloads(ctx);
  ctx.log('B1–B2 BM25, H1 hybrid');
  const text = await textWorkloads(ctx);
  return [...vectors, ...text];
}

