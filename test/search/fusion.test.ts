import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reciprocalRankFusion } from '../../src/engine/search/hybrid/rrf.js';
import { maximalMarginalRelevance } from '../../src/engine/search/hybrid/mmr.js';
import { SearchResultCache } from '../../src/engine/search/hybrid/result-cache.js';
import { chunkText, poolChunks } from '../../src/engine/search/embeddings/chunking.js';
import { embeddingText } from '../../src/engine/search/embeddings/embedding-text.js';

test('RRF with k = 60 sums 1 / (k + rank) over lists', () => {
  const fused = reciprocalRankFusion([
    ['a', 'b', 'c'],
    ['c', 'a'],
  ]);
  assert.deepEqual(
    fused.map((f) => f.id),
    ['a', 'c', 'b'],
  );
  assert.equal(fused[0].rrfScore, 1 / 61 + 1 / 62);
  assert.equal(fused[1].rrfScore, 1 / 63 + 1 / 61);
  assert.deepEqual(fused[2].ranks, [2, null]);
});

test('MMR trades relevance for diversity', () => {
  const candidates = [
    { id: 'a', relevance: 1, vector: [1, 0] },
    { id: 'a2', relevance: 0.95, vector: [1, 0.01] },
    { id: 'b', relevance: 0.6, vector: [0, 1] },
  ];
  assert.deepEqual(maximalMarginalRelevance(candidates, 2, 1), ['a', 'a2']);
  assert.deepEqual(maximalMarginalRelevance(candidates, 2, 0.5), ['a', 'b']);
});

test('result cache: key fields, LRU bound, TTL and invalidation', () => {
  let now = 0;
  const cache = new SearchResultCache<number>(2, 1000, () => now);
  const key = { query: 'q', limit: 10, types: ['node'], rerank: 'none', mmr: false };
  cache.set(key, 1);
  assert.equal(cache.get(key), 1);
  assert.equal(cache.get({ ...key, limit: 5 }), undefined);
  assert.equal(cache.get({ ...key, mmr: true }), undefined);
  assert.equal(cache.get({ ...key, rerank: 'local:x' }), undefined);
  cache.set({ ...key, query: 'r' }, 2);
  cache.get(key);
  cache.set({ ...key, query: 's' }, 3);
  assert.equal(cache.get({ ...key, query: 'r' }), undefined, 'least recently used evicted');
  assert.equal(cache.get(key), 1);
  now = 1000;
  assert.equal(cache.get(key), undefined, 'expired');
  cache.set(key, 4);
  cache.invalidate();
  assert.equal(cache.size, 0);
});

test('chunking splits long text with overlap; pooling averages to unit length', () => {
  const words = Array.from({ length: 200 }, (_, i) => `w${i}`).join(' ');
  const chunks = chunkText(words, { maxChars: 100, overlapChars: 20 });
  assert.ok(chunks.length > 5);
  assert.ok(chunks.every((c) => c.length <= 100));
  const firstWordOfSecond = chunks[1].split(' ')[0];
  assert.ok(chunks[0].split(' ').includes(firstWordOfSecond), 'consecutive chunks overlap');
  assert.equal(chunks.join(' ').includes('w199'), true);
  assert.deepEqual(chunkText('short'), ['short']);
  assert.deepEqual(
    Array.from(poolChunks([Float32Array.from([2, 0]), Float32Array.from([0, 2])])).map((x) => x.toFixed(4)),
    ['0.7071', '0.7071'],
  );
});

test('embedding text honours include/exclude and the labels switch', () => {
  const node = {
    id: 1n,
    labels: ['Person'],
    properties: new Map<string, unknown>([
      ['name', 'Ada'],
      ['age', 36n],
      ['secret', 'x'],
      ['vec', Array(20).fill(0.5)],
    ]),
  } as never;
  assert.equal(
    embeddingText(node, { propertiesInclude: [], propertiesExclude: ['secret'], includeLabels: true }),
    'Labels: Person\nage: 36\nname: Ada',
  );
  assert.equal(
    embeddingText(node, { propertiesInclude: ['name', 'secret'], propertiesExclude: ['secret'], includeLabels: false }),
    'name: Ada',
  );
  assert.equal(embeddingText(node, { propertiesInclude: ['missing'], propertiesExclude: [], includeLabels: true }), '');
});
