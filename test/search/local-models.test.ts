import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTinyBert } from './fixtures/tiny-bert.js';
import { LocalEmbeddingProvider } from '../../src/engine/search/embeddings/local-provider.js';
import { createEmbeddingProvider } from '../../src/engine/search/embeddings/factory.js';
import { LocalReranker, RerankStage } from '../../src/engine/search/rerank/reranker.js';
import { cosineSimilarity } from '../../src/engine/search/vector/similarity.js';
import { DatabaseSearch } from '../../src/engine/search/database-search.js';
import type { NodeRecord } from '../../src/engine/storage/graph-store.js';
import { testSettings, testTuning } from './helpers/settings.js';

let modelsDir = '';

before(() => {
  modelsDir = mkdtempSync(join(tmpdir(), 'graphdb-models-'));
  writeTinyBert(join(modelsDir, 'tiny-embed.gguf'));
  writeTinyBert(join(modelsDir, 'tiny-rerank.gguf'), { rerank: true });
});

after(() => rmSync(modelsDir, { recursive: true, force: true }));

test('local provider embeds with a generated GGUF BERT model (deterministic, model-sized)', async () => {
  const provider = createEmbeddingProvider(
    { enabled: true, provider: 'local', model: 'tiny-embed', dimensions: 0, api_url: '', url: '', api_key: '' },
    modelsDir,
  );
  assert.ok(provider instanceof LocalEmbeddingProvider);
  try {
    const [a, b, again] = await provider.embed(['graph database search', 'cat and dog', 'graph database search']);
    assert.equal(provider.dimensions, 32);
    assert.equal(a.length, 32);
    assert.deepEqual(Array.from(again), Array.from(a));
    assert.ok(cosineSimilarity(a, b) < 0.9999, 'different texts give different vectors');
  } finally {
    await provider.close();
  }
});

test('missing local model file is an error naming the models directory', async () => {
  const provider = new LocalEmbeddingProvider({ model: 'absent', modelsDir });
  await assert.rejects(provider.embed(['x']), /absent not found/);
});

test('local GGUF reranker scores in 0..1 and reorders; a failed load fails open with a warning', async () => {
  const stage = new RerankStage(new LocalReranker('tiny-rerank.gguf', modelsDir));
  await stage.loaded;
  assert.equal(stage.state, 'ready');
  const docs = ['graph database', 'cat dog', 'water fire city'];
  const ranked = await stage.apply('graph', docs, (d) => d);
  assert.equal(ranked.length, 3);
  for (const { score } of ranked) assert.ok(score !== null && score >= 0 && score <= 1);
  const scores = ranked.map((r) => r.score!);
  assert.deepEqual(
    scores,
    [...scores].sort((x, y) => y - x),
  );
  await stage.close();

  const warnings: string[] = [];
  const broken = new RerankStage(new LocalReranker('missing.gguf', modelsDir), { info: () => undefined, warn: (m) => warnings.push(m) });
  await broken.loaded;
  assert.equal(broken.state, 'failed');
  assert.match(warnings[0], /failed to load; using RRF order/);
  assert.deepEqual(
    (await broken.apply('q', docs, (d) => d)).map((r) => r.item),
    docs,
  );
});

test('background worker embeds new and changed nodes with the local model; text is searchable at once', async () => {
  const nodes = new Map<bigint, NodeRecord>();
  const put = (id: bigint, labels: string[], name: string): NodeRecord => {
    const node = { id, labels, properties: new Map([['name', name]]) };
    nodes.set(id, node);
    return node;
  };
  const provider = new LocalEmbeddingProvider({ model: 'tiny-embed.gguf', modelsDir });
  const search = new DatabaseSearch({
    database: 'neo4j',
    settings: testSettings({ embeddings: { enabled: true, provider: 'local', model: 'tiny-embed.gguf' } }),
    embedder: provider,
    loadNode: (id) => nodes.get(id) ?? null,
    tuning: testTuning,
    embeddingDelayMs: 0,
  });
  try {
    search.apply([
      { kind: 'nodeCreated', database: 'neo4j', node: put(1n, ['Doc'], 'graph database search') },
      { kind: 'nodeCreated', database: 'neo4j', node: put(2n, ['Doc'], 'cat dog house') },
    ]);
    assert.deepEqual(
      (await search.search({ query: 'graph', method: 'text' })).results.map((r) => r.nodeId),
      [1n],
    );
    assert.equal(search.status().embeddings.pending, 2);
    await search.settle();
    assert.equal(search.status().vectors, 2);
    assert.equal(search.embeddingWorker!.counters.processed, 2);
    const before = search.embeddingCollection!.vectorOf(2n)!;
    search.apply([{ kind: 'nodeUpdated', database: 'neo4j', node: put(2n, ['Doc'], 'water fire city') }]);
    await search.settle();
    assert.equal(search.embeddingWorker!.counters.processed, 3);
    assert.notDeepEqual(Array.from(search.embeddingCollection!.vectorOf(2n)!), Array.from(before));
    const page = await search.search({ query: 'graph database search', limit: 2, minSimilarity: -1 });
    assert.equal(page.results[0].nodeId, 1n, 'text and vector lists agree on node 1');
    assert.ok(page.results[0].textRank === 1 && page.results[0].vectorRank === 1);
    search.apply([{ kind: 'nodeDeleted', database: 'neo4j', id: 1n, labels: ['Doc'] }]);
    assert.equal(search.status().vectors, 1);
  } finally {
    await search.close();
    await provider.close();
  }
});
