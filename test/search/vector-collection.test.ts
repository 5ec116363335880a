import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VectorCollection } from '../../src/engine/search/vector/vector-collection.js';
import { DEFAULT_VECTOR_TUNING, type VectorTuning } from '../../src/engine/search/vector/tuning.js';
import { generateVectors, recallAt } from './helpers/vectors.js';

const tuning = (overrides: Partial<VectorTuning> = {}): VectorTuning => ({
  ...DEFAULT_VECTOR_TUNING,
  buildDebounceMs: 0,
  maintenanceIntervalMs: 0,
  minRebuildIntervalMs: 0,
  ...overrides,
});

function filled(count: number, dimensions: number, overrides: Partial<VectorTuning> = {}, seed = 7) {
  const vectors = generateVectors(count + 50, dimensions, seed);
  const collection = new VectorCollection({ dimensions, similarity: 'cosine', tuning: tuning(overrides) });
  for (let i = 0; i < count; i++) collection.upsert(BigInt(i), vectors[i]);
  return { collection, vectors, queries: vectors.slice(count) };
}

function recallAgainstExact(collection: VectorCollection, queries: Float32Array[]): number {
  const found = queries.map((q) => collection.search(q, 10).map((hit) => hit.nodeId));
  const truth = queries.map((q) => collection.exactSearch(collection.prepare(q), 10).map((hit) => hit.nodeId));
  return recallAt(found, truth);
}

test('exact search reports Neo4j scores for cosine and euclidean', () => {
  const cosine = new VectorCollection({ dimensions: 2, similarity: 'cosine', tuning: tuning() });
  cosine.upsert(1n, [1, 0]);
  cosine.upsert(2n, [0, 1]);
  cosine.upsert(3n, [-1, 0]);
  const hits = cosine.search([2, 0], 3);
  assert.deepEqual(
    hits.map((h) => h.nodeId),
    [1n, 2n, 3n],
  );
  assert.deepEqual(
    hits.map((h) => h.score),
    [1, 0.5, 0],
  );
  const euclidean = new VectorCollection({ dimensions: 2, similarity: 'euclidean', tuning: tuning() });
  euclidean.upsert(1n, [1, 1]);
  euclidean.upsert(2n, [3, 1]);
  const [near, far] = euclidean.search([1, 2], 2);
  assert.equal(near.nodeId, 1n);
  assert.equal(near.score, 1 / (1 + 1));
  assert.equal(far.score, 1 / (1 + 5));
  cosine.close();
  euclidean.close();
});

test('bad vectors are rejected before they reach faiss', () => {
  const collection = new VectorCollection({ dimensions: 3, similarity: 'cosine', tuning: tuning() });
  assert.throws(() => collection.upsert(1n, [1, 2]), /expects 3/);
  assert.throws(() => collection.search([1, Number.NaN, 0], 1), /finite/);
  collection.close();
});

test('updates replace, removals tombstone, filters restrict', () => {
  const collection = new VectorCollection({ dimensions: 2, similarity: 'cosine', tuning: tuning() });
  collection.upsert(1n, [1, 0]);
  collection.upsert(2n, [0.9, 0.1]);
  collection.upsert(1n, [0, 1]);
  assert.equal(collection.search([1, 0], 1)[0].nodeId, 2n);
  collection.remove(2n);
  assert.deepEqual(
    collection.search([1, 0], 5).map((h) => h.nodeId),
    [1n],
  );
  assert.equal(collection.status().tombstones, 2);
  collection.upsert(3n, [1, 0]);
  assert.deepEqual(
    collection.search([1, 0], 5, (id) => id !== 3n).map((h) => h.nodeId),
    [1n],
  );
  collection.close();
});

test('HNSW recall@10 against exact search on 20k vectors', async () => {
  const { collection, queries } = filled(20_000, 64);
  assert.equal(collection.strategy, 'brute_force');
  await collection.buildNow();
  assert.equal(collection.strategy, 'hnsw');
  const recall = recallAgainstExact(collection, queries);
  assert.ok(recall >= 0.95, `recall ${recall}`);
  collection.close();
});

test('IVF-PQ (compressed) recall@10 with exact re-scoring on 20k vectors', async () => {
  const { collection, queries } = filled(20_000, 64, { quality: 'compressed' });
  await collection.buildNow();
  assert.equal(collection.strategy, 'ivf_pq');
  const recall = recallAgainstExact(collection, queries);
  assert.ok(recall >= 0.9, `recall ${recall}`);
  collection.close();
});

test('compressed mode falls back to HNSW with a logged diagnostic', async () => {
  const warnings: string[] = [];
  const vectors = generateVectors(6000, 24, 3);
  const collection = new VectorCollection({
    dimensions: 24,
    similarity: 'cosine',
    tuning: tuning({ quality: 'compressed', pqSegments: 16 }),
    logger: { info: () => undefined, warn: (m) => warnings.push(m) },
  });
  vectors.forEach((v, i) => collection.upsert(BigInt(i), v));
  await collection.buildNow();
  assert.equal(collection.strategy, 'hnsw');
  assert.match(warnings.join('\n'), /not divisible by PQ segments 16/);
  collection.close();
});

test('cluster-based strategy (IVF over an HNSW quantizer) when clustering is enabled', async () => {
  const { collection, queries } = filled(8000, 16, { clusteringEnabled: true });
  await collection.buildNow();
  assert.equal(collection.strategy, 'ivf_hnsw');
  const recall = recallAgainstExact(collection, queries);
  assert.ok(recall >= 0.9, `recall ${recall}`);
  collection.remove(0n);
  collection.upsert(99_999n, queries[0]);
  assert.equal(collection.search(queries[0], 1)[0].nodeId, 99_999n);
  collection.close();
});

test('a 10%-selective filter keeps recall on an HNSW collection', async () => {
  const { collection, queries } = filled(8000, 16);
  await collection.buildNow();
  assert.equal(collection.strategy, 'hnsw');
  const selective = (id: bigint) => id % 10n === 3n;
  const found = queries.map((q) => collection.search(q, 10, selective).map((h) => h.nodeId));
  const truth = queries.map((q) => collection.exactSearch(collection.prepare(q), 10, selective).map((h) => h.nodeId));
  assert.ok(found.every((ids) => ids.length === 10 && ids.every(selective)));
  const recall = recallAt(found, truth);
  assert.ok(recall >= 0.95, `filtered recall ${recall}`);
  collection.close();
});
