/**
 * Recall@10 and QPS of our vector collection against exact search and raw faiss-node (run by hand):
 *   node --import tsx test/search/measure/vector-recall.ts [n=100000] [d=384] [qualities=fast,compressed]
 * Vectors have low intrinsic dimension (16-d latent projected up, plus noise), like sentence embeddings.
 */
import { createRequire } from 'node:module';
import { VectorCollection } from '../../../src/engine/search/vector/vector-collection.js';
import { DEFAULT_VECTOR_TUNING, type AnnQuality } from '../../../src/engine/search/vector/tuning.js';
import { generateVectors, recallAt } from '../helpers/vectors.js';

const n = Number(process.argv[2] ?? 100_000);
const d = Number(process.argv[3] ?? 384);
const qualities = (process.argv[4] ?? 'fast,compressed').split(',') as AnnQuality[];
const queryCount = 200;
const all = generateVectors(n + queryCount, d, 2024);
const data = all.slice(0, n);
const queries = all.slice(n);

function seconds(start: number): string {
  return ((performance.now() - start) / 1000).toFixed(1);
}

const exact = new VectorCollection({
  dimensions: d,
  similarity: 'cosine',
  tuning: { ...DEFAULT_VECTOR_TUNING, rebuildEnabled: false, maintenanceIntervalMs: 0 },
});
data.forEach((v, i) => exact.upsert(BigInt(i), v));
let start = performance.now();
const truth = queries.map((q) => exact.exactSearch(exact.prepare(q), 10).map((h) => h.nodeId));
console.log(`exact scan: ${((performance.now() - start) / queryCount).toFixed(2)} ms/query (n=${n}, d=${d})`);
exact.close();

for (const quality of qualities) {
  const collection = new VectorCollection({
    dimensions: d,
    similarity: 'cosine',
    tuning: { ...DEFAULT_VECTOR_TUNING, quality, buildDebounceMs: 0, maintenanceIntervalMs: 0 },
  });
  start = performance.now();
  data.forEach((v, i) => collection.upsert(BigInt(i), v));
  await collection.buildNow();
  const build = seconds(start);
  start = performance.now();
  const found = queries.map((q) => collection.search(q, 10).map((h) => h.nodeId));
  const ms = (performance.now() - start) / queryCount;
  console.log(
    `${quality} (${collection.strategy}): build ${build} s, ${ms.toFixed(2)} ms/query (${(1000 / ms).toFixed(0)} QPS), recall@10 ${recallAt(found, truth).toFixed(3)}`,
  );
  collection.close();
}

const faiss = createRequire(import.meta.url)('faiss-node') as {
  Index: { fromFactory(d: number, s: string, m: number): { add(x: number[]): void; search(x: number[], k: number): { labels: number[] } } };
};
const raw = faiss.Index.fromFactory(d, 'HNSW16', 0);
const normalized = (v: Float32Array) => {
  const length = Math.hypot(...v);
  return Array.from(v, (x) => x / length);
};
start = performance.now();
for (let i = 0; i < n; i += 1000) raw.add(data.slice(i, i + 1000).flatMap(normalized));
const rawBuild = seconds(start);
for (const k of [10, 50]) {
  start = performance.now();
  const rawFound = queries.map((q) =>
    raw
      .search(normalized(q), k)
      .labels.slice(0, 10)
      .map((l) => BigInt(l)),
  );
  const ms = (performance.now() - start) / queryCount;
  console.log(
    `raw faiss HNSW16 (efC 40, ef max(16,k=${k})): build ${rawBuild} s, ${ms.toFixed(2)} ms/query, recall@10 ${recallAt(rawFound, truth).toFixed(3)}`,
  );
}
