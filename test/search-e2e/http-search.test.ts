/**
 * REST search end to end: a server with the background embedding worker on, embedding through a
 * `local_server` (Ollama-style) provider served by a tiny HTTP server started here (deterministic
 * bag-of-words vectors), nodes written over the HTTP Cypher API, then found by hybrid search
 * (`rrfScore`, text and vector contributions), `/graphdb/similar`, `/status` embeddings,
 * `/admin/stats` search readiness, the embedding metrics, and the 400 for mismatched dimensions.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { commit, request, startTestServer, type TestServer } from '../http/helpers.js';
import { bagOfWords, startEmbeddingServer, type EmbeddingServer } from '../search/helpers/embedding-server.js';
import { eventually } from '../helpers/eventually.js';

const VOCABULARY = [
  'graph',
  'databases',
  'nodes',
  'relationships',
  'store',
  'sourdough',
  'bread',
  'baking',
  'pancakes',
  'home',
  'metrics',
  'scrape',
];
const DIMENSIONS = 16;

/** Deterministic embedding: counts of VOCABULARY words plus a small constant component. */
const embed = bagOfWords(VOCABULARY, DIMENSIONS);

let embedder: EmbeddingServer;
let embedCalls = 0;
let server: TestServer;

before(async () => {
  embedder = await startEmbeddingServer(embed, (input) => {
    embedCalls += input.length;
  });
  server = await startTestServer({
    // Pure CREATEs would otherwise go through the write-behind queue (visible after its flush);
    // this file checks that a committed write is searchable as soon as the commit answers.
    'async_writes.enabled': false,
    'embeddings.enabled': true,
    'embeddings.provider': 'local_server',
    'embeddings.model': 'bow',
    'embeddings.url': embedder.url,
    'embeddings.dimensions': DIMENSIONS,
  });
});

after(async () => {
  await server?.stop();
  await embedder?.close();
});

const search = (json: Record<string, unknown>) => request(`${server.url}/graphdb/search`, { method: 'POST', json });

test('a node written over HTTP is found by hybrid search once embedded, with rrfScore, text and vector parts', async () => {
  const written = await commit(server.url, [
    "CREATE (:Article {title: 'graph databases store nodes and relationships'})",
    "CREATE (:Article {title: 'baking sourdough bread at home'})",
    "CREATE (:Recipe {title: 'sourdough pancakes'})",
  ]);
  assert.deepEqual(written.body.errors, []);

  const text = await search({ query: 'sourdough', limit: 5, method: 'text' });
  assert.equal(text.status, 200, text.text);
  assert.equal(text.body.results.length, 2, 'text search sees the commit at once');

  const hit = await eventually(async () => {
    const response = await search({ query: 'graph databases', limit: 3, method: 'vector', minSimilarity: 0 });
    assert.equal(response.status, 200, response.text);
    const first = response.body.results[0];
    return first?.node.properties.title === 'graph databases store nodes and relationships' ? first : undefined;
  }, 'the node to be embedded');
  assert.ok(hit.similarity > 0);

  const hybrid = await search({ query: 'graph databases', limit: 3, minSimilarity: 0 });
  assert.equal(hybrid.status, 200, hybrid.text);
  const top = hybrid.body.results[0];
  assert.equal(top.node.properties.title, 'graph databases store nodes and relationships');
  assert.deepEqual(top.node.labels, ['Article']);
  assert.equal(typeof top.node.elementId, 'string');
  assert.equal(top.textRank, 1);
  assert.equal(top.vectorRank, 1);
  assert.ok(Math.abs(top.rrfScore - 2 / 61) < 1e-9, `rrfScore ${top.rrfScore}`);
  assert.equal(hybrid.body.method, 'hybrid');
  assert.equal(typeof hybrid.body.executionTimeMs, 'number');
  assert.equal(hybrid.body.totalCount, hybrid.body.results.length);

  const filtered = await search({ query: 'sourdough', limit: 5, labels: ['Recipe'], minSimilarity: 0 });
  assert.deepEqual(
    filtered.body.results.map((r: any) => r.node.properties.title),
    ['sourdough pancakes'],
  );

  const similar = await request(`${server.url}/graphdb/similar`, { method: 'POST', json: { nodeId: top.node.id, limit: 2 } });
  assert.equal(similar.status, 200, similar.text);
  assert.ok(
    similar.body.results.every((r: any) => r.node.id !== top.node.id),
    'the node itself is left out',
  );
  const byVector = await request(`${server.url}/graphdb/similar`, {
    method: 'POST',
    json: { vector: embed('sourdough pancakes'), limit: 1 },
  });
  assert.equal(byVector.body.results[0].node.properties.title, 'sourdough pancakes');
  assert.ok(byVector.body.results[0].similarity > 0.5 && byVector.body.results[0].similarity <= 1);
});

test('/status, /admin/stats and /metrics report the real search and embedding state', async () => {
  const created = await commit(server.url, ["CREATE (n:Note {text: 'metrics are collected at scrape time'}) RETURN id(n)"]);
  const noteId = created.body.results[0].data[0].row[0];
  const status = await eventually(async () => {
    const similar = await request(`${server.url}/graphdb/similar`, { method: 'POST', json: { vector: embed('metrics scrape'), limit: 1 } });
    if (similar.body.results[0]?.node.id !== noteId) return undefined;
    const response = await request(`${server.url}/status`);
    return response.body.embeddings.pending === 0 ? response.body : undefined;
  }, 'the note to be embedded and pending embeddings to drain');
  assert.equal(status.embeddings.enabled, true);
  assert.equal(status.embeddings.provider, 'local_server');
  assert.ok(embedCalls >= 4);

  const stats = await request(`${server.url}/admin/stats`);
  const { index_bytes: indexBytes, index_max_bytes: indexMaxBytes, ...readiness } = stats.body.search;
  assert.deepEqual(readiness, { ready: true, build_phase: 'ready', progress_pct: 100, vector_backend: 'faiss' });
  assert.ok(indexBytes > 0 && indexBytes < indexMaxBytes, 'the full-text index is within dbms.memory.search_index.max_size');

  const metrics = await request(`${server.url}/metrics`);
  const processed = /^graphdb_embeddings_processed_total (\d+)/m.exec(metrics.text);
  assert.ok(
    processed !== null && Number(processed[1]) >= 4,
    metrics.text
      .split('\n')
      .filter((l) => l.includes('embedding'))
      .join('\n'),
  );
  const observed = /^graphdb_embedding_duration_seconds_count (\d+)/m.exec(metrics.text);
  assert.ok(observed !== null && Number(observed[1]) >= 4);
  assert.match(metrics.text, /^graphdb_embeddings_pending 0$/m);
});

test('400 when the embedder dimensions differ from the database resolved dimensions; bad requests are 400', async () => {
  server.server.app!.graphdb.config.setOverrides('graphdb', { GRAPHDB_EMBEDDING_DIMENSIONS: '8' });
  try {
    const mismatch = await search({ query: 'graph', limit: 3 });
    assert.equal(mismatch.status, 400);
    assert.equal(mismatch.body.errors[0].code, 'Neo.ClientError.Statement.ArgumentError');
    assert.match(mismatch.body.errors[0].message, /^embedding dimension mismatch: .*16.*8/);
    const textOnly = await search({ query: 'graph', limit: 3, method: 'text' });
    assert.equal(textOnly.status, 200, 'text search does not embed the query');
  } finally {
    server.server.app!.graphdb.config.setOverrides('graphdb', {});
  }
  assert.equal((await search({ query: 'graph', limit: 3, minSimilarity: 0 })).status, 200);
  assert.equal((await search({ limit: 3 })).status, 400);
  assert.equal((await search({ query: 'graph', method: 'fuzzy' })).status, 400);
  assert.equal((await search({ query: 'graph', queryVector: [1, 2, 3] })).status, 400);
  assert.equal((await search({ query: 'graph', database: 'nope' })).status, 404);
  assert.equal((await request(`${server.url}/graphdb/similar`, { method: 'POST', json: { limit: 3 } })).status, 400);
});
