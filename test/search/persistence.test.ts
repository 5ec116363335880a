import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VectorCollection } from '../../src/engine/search/vector/vector-collection.js';
import { loadCollection, saveCollection } from '../../src/engine/search/vector/persistence.js';
import { DatabaseSearch } from '../../src/engine/search/database-search.js';
import { generateVectors } from './helpers/vectors.js';
import { testSettings, testTuning } from './helpers/settings.js';

test('a persisted HNSW collection reloads with the same answers; other format versions are ignored', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'graphdb-vec-'));
  try {
    const vectors = generateVectors(6000, 16, 5);
    const original = new VectorCollection({ dimensions: 16, similarity: 'cosine', tuning: testTuning });
    vectors.forEach((v, i) => original.upsert(BigInt(i), v));
    await original.buildNow();
    original.remove(3n);
    original.upsert(4n, vectors[100]);
    const path = join(dir, 'v.gdbv');
    saveCollection(original, path);

    const copy = new VectorCollection({ dimensions: 16, similarity: 'cosine', tuning: testTuning });
    assert.equal(loadCollection(copy, path), true);
    assert.equal(copy.strategy, 'hnsw');
    assert.equal(copy.size, original.size);
    for (const q of vectors.slice(0, 20)) {
      assert.deepEqual(
        copy.search(q, 5).map((h) => h.nodeId),
        original.search(q, 5).map((h) => h.nodeId),
      );
    }
    assert.ok(!copy.has(3n));

    const bytes = readFileSync(path);
    bytes.writeUInt32LE(999, 4);
    writeFileSync(path, bytes);
    const stale = new VectorCollection({ dimensions: 16, similarity: 'cosine', tuning: testTuning });
    assert.equal(loadCollection(stale, path), false);
    assert.equal(stale.size, 0);
    const wrongDims = new VectorCollection({ dimensions: 8, similarity: 'cosine', tuning: testTuning });
    assert.equal(loadCollection(wrongDims, join(dir, 'missing')), false);
    for (const c of [original, copy, stale, wrongDims]) c.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('database search persists embeddings and metadata when persist_search_indexes is on', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'graphdb-dbs-'));
  try {
    const settings = { ...testSettings({ embeddings: { dimensions: 3 } }), persistIndexes: true };
    const first = new DatabaseSearch({ database: 'neo4j', settings, directory: dir, tuning: testTuning });
    first.setEmbedding(1n, [1, 0, 0]);
    first.setEmbedding(2n, [0, 1, 0]);
    await first.close();
    const second = new DatabaseSearch({ database: 'neo4j', settings, directory: dir, tuning: testTuning });
    assert.equal(second.load(), true);
    assert.equal(second.hasEmbedding(2n), true);
    assert.equal(second.embeddingOf(1n)?.length, 3);
    assert.deepEqual(
      second.similar({ vector: [0.9, 0.1, 0], limit: 1 }).map((h) => h.nodeId),
      [1n],
    );
    assert.equal(
      second.removeOrphans((id) => id !== 2n),
      1,
    );
    assert.equal(second.status().vectors, 1);
    await second.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
