import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VectorCollection } from '../../src/engine/search/vector/vector-collection.js';
import { DEFAULT_VECTOR_TUNING } from '../../src/engine/search/vector/tuning.js';
import { generateVectors } from './helpers/vectors.js';

test('writes are searchable at once past 50,000 vectors and during an HNSW rebuild', async () => {
  const dimensions = 16;
  const vectors = generateVectors(50_010, dimensions, 11);
  const collection = new VectorCollection({
    dimensions,
    similarity: 'cosine',
    tuning: { ...DEFAULT_VECTOR_TUNING, hnswEfConstruction: 40, buildDebounceMs: 0, maintenanceIntervalMs: 0, minRebuildIntervalMs: 0 },
  });
  for (let i = 0; i < 50_000; i++) collection.upsert(BigInt(i), vectors[i]);
  await collection.buildNow();
  assert.equal(collection.strategy, 'hnsw');

  const fresh = vectors[50_000];
  collection.upsert(900_001n, fresh);
  assert.equal(collection.search(fresh, 1)[0].nodeId, 900_001n, 'found right after the write');

  // Tombstone over half the vectors: the rebuild becomes due and starts in the background.
  for (let i = 0; i < 26_000; i++) collection.remove(BigInt(i));
  const rebuilt = collection.buildNow();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(collection.status().buildPhase, 'building_hnsw');
  assert.equal(collection.status().ready, false);

  const duringBuild = vectors[50_001];
  collection.upsert(900_002n, duringBuild);
  collection.remove(30_000n);
  assert.equal(collection.search(duringBuild, 1)[0].nodeId, 900_002n, 'found while the rebuild runs');
  assert.ok(!collection.search(vectors[30_000], 5).some((hit) => hit.nodeId === 30_000n));

  await rebuilt;
  const status = collection.status();
  assert.equal(status.buildPhase, 'idle');
  assert.equal(status.tombstones, 1, 'compacted; only the removal made during the build is a tombstone');
  assert.equal(collection.size, 50_000 - 26_000 + 2 - 1);
  assert.equal(collection.search(duringBuild, 1)[0].nodeId, 900_002n, 'write replayed into the new index');
  assert.equal(collection.search(fresh, 1)[0].nodeId, 900_001n);
  assert.ok(!collection.search(vectors[30_000], 5).some((hit) => hit.nodeId === 30_000n), 'removal replayed');
  assert.ok(!collection.search(vectors[5], 5).some((hit) => hit.nodeId === 5n));
  collection.close();
});
