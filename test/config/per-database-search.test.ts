/**
 * Search settings resolve per database, through a real server: `search.min_similarity` overridden
 * to 0.99 for one database (PUT /admin/databases/{db}/config) filters a vector hit at similarity
 * 0.707 that the global 0.5 lets through, while another database keeps the global value; the
 * override is live (no restart); `search_rerank.*` overridden for one database reranks its
 * searches through a rerank API started here and leaves the other's alone. Also observed here: `search.diag_timings` (the HTTP handler's
 * timing breakdown in the log), `search.log_timings` (the engine's stage timings) and
 * `embedding_worker.properties_include` / `properties_exclude` / `include_labels` (what is embedded). Embeddings come
 * from a bag-of-words `local_server` provider started by the test.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { commit, request, startTestServer, type TestServer } from '../http/helpers.js';
import { bagOfWords, startEmbeddingServer, type EmbeddingServer } from '../search/helpers/embedding-server.js';
import { eventually } from '../helpers/eventually.js';

const VOCABULARY = ['graph', 'databases', 'secret', 'article'];
const DIMENSIONS = 8;

const embed = bagOfWords(VOCABULARY, DIMENSIONS);

let embedder: EmbeddingServer;
let reranker: Server;
let rerankCalls = 0;
const embeddedTexts: string[] = [];
const embedAuthorization = new Set<string | undefined>();
let server: TestServer;
const logs: Record<string, unknown>[] = [];

before(async () => {
  embedder = await startEmbeddingServer(embed, (input, req) => {
    embeddedTexts.push(...input);
    embedAuthorization.add(req.headers.authorization);
  });
  // Cohere-style rerank API: scores documents by length, so the order is known.
  reranker = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      rerankCalls++;
      const { documents } = JSON.parse(body) as { documents: string[] };
      const results = documents.map((document, index) => ({ index, relevance_score: 1 / (1 + document.length) }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results }));
    });
  });
  await new Promise<void>((resolve) => reranker.listen(0, '127.0.0.1', resolve));
  server = await startTestServer(
    {
      'async_writes.enabled': false,
      'embeddings.enabled': true,
      'embeddings.provider': 'local_server',
      'embeddings.model': 'bow',
      'embeddings.url': embedder.url,
      'embeddings.dimensions': DIMENSIONS,
      'embeddings.api_key': 'embed-key',
      'embedding_worker.properties_include': ['title', 'note'],
      'embedding_worker.properties_exclude': ['note'],
      'embedding_worker.include_labels': false,
      'search.diag_timings': true,
      'search.log_timings': true,
    },
    {},
    { logs },
  );
});

after(async () => {
  await server?.stop();
  await embedder?.close();
  await new Promise((resolve) => reranker?.close(resolve));
});

const search = (json: Record<string, unknown>) => request(`${server.url}/graphdb/search`, { method: 'POST', json });
const setOverrides = (database: string, overrides: Record<string, string>) =>
  request(`${server.url}/admin/databases/${database}/config`, { method: 'PUT', json: { overrides } });

test('search.min_similarity overridden for one database filters a 0.707 hit there and only there', async () => {
  const created = await request(`${server.url}/db/system/tx/commit`, {
    method: 'POST',
    json: { statements: [{ statement: 'CREATE DATABASE other' }] },
  });
  assert.deepEqual(created.body.errors, []);
  for (const database of ['graphdb', 'other']) {
    const written = await commit(server.url, ["CREATE (:Article {title: 'graph databases', note: 'secret', tag: 'article'})"], database);
    assert.deepEqual(written.body.errors, []);
  }
  // 'graph' against 'graph databases': cosine ≈ 0.707 in the bag-of-words space.
  for (const database of ['graphdb', 'other']) {
    const hit = await eventually(async () => {
      const response = await search({ query: 'graph', method: 'vector', limit: 1, database });
      assert.equal(response.status, 200, response.text);
      return response.body.results[0] as { similarity: number } | undefined;
    }, `the node of ${database} to be embedded`);
    assert.ok(Math.abs(hit.similarity - 0.707) < 0.01, `similarity ${hit.similarity}`);
  }

  const saved = await setOverrides('graphdb', { GRAPHDB_SEARCH_MIN_SIMILARITY: '0.99' });
  assert.equal(saved.status, 200, saved.text);
  const filtered = await search({ query: 'graph', method: 'vector', limit: 1, database: 'graphdb' });
  assert.deepEqual(filtered.body.results, [], 'the override filters the 0.707 hit');
  const untouched = await search({ query: 'graph', method: 'vector', limit: 1, database: 'other' });
  assert.equal(untouched.body.results.length, 1, 'another database keeps the global min_similarity');
  const explicit = await search({ query: 'graph', method: 'vector', limit: 1, database: 'graphdb', minSimilarity: 0.5 });
  assert.equal(explicit.body.results.length, 1, 'a per-search value still overrides the setting');

  const effective = await request(`${server.url}/admin/databases/graphdb/config`);
  assert.equal(effective.body.effective.search.min_similarity, 0.99);

  const rejected = await setOverrides('graphdb', { GRAPHDB_VECTOR_ROUTING_MODE: 'semantic' });
  assert.equal(rejected.status, 400, rejected.text);
  assert.match(rejected.body.errors[0].message, /unsupported configuration key "GRAPHDB_VECTOR_ROUTING_MODE"/);
});

test('search.diag_timings logs the HTTP handler breakdown and search.log_timings the stage timings', () => {
  const handler = logs.find((line) => line.msg === 'search handler timings');
  assert.ok(handler !== undefined, 'a handler timing line');
  for (const field of ['searchMs', 'loadNodesMs', 'serializeMs', 'totalMs']) assert.equal(typeof handler[field], 'number', field);
  assert.ok(logs.some((line) => typeof line.msg === 'string' && line.msg.startsWith('search timings db=')));
});

test('embeddings.api_key is sent to the embedding provider', () => {
  assert.deepEqual([...embedAuthorization], ['Bearer embed-key']);
});

test('embedding_worker.properties_include, properties_exclude and include_labels shape the embedded text', () => {
  const texts = embeddedTexts.filter((text) => text.includes('graph databases'));
  assert.ok(texts.length > 0);
  for (const text of texts) {
    assert.doesNotMatch(text, /secret/, 'the excluded property is not embedded');
    assert.doesNotMatch(text, /article/, 'a property outside properties_include is not embedded');
    assert.doesNotMatch(text, /Article/, 'labels are left out');
  }
});

test('search_rerank.* overridden for one database rerank its searches only', async () => {
  const url = `http://127.0.0.1:${(reranker.address() as AddressInfo).port}/rerank`;
  const saved = await setOverrides('other', {
    GRAPHDB_SEARCH_RERANK_ENABLED: 'true',
    GRAPHDB_SEARCH_RERANK_PROVIDER: 'hosted_api',
    GRAPHDB_SEARCH_RERANK_MODEL: 'by-length',
    GRAPHDB_SEARCH_RERANK_API_URL: url,
    GRAPHDB_SEARCH_RERANK_API_KEY: 'rerank-key',
  });
  assert.equal(saved.status, 200, saved.text);
  const reranked = await eventually(async () => {
    const response = await search({ query: 'graph', method: 'text', limit: 5, database: 'other' });
    const first = response.body.results[0] as { rerankScore?: number } | undefined;
    return typeof first?.rerankScore === 'number' ? first : undefined;
  }, 'the rerank stage of database other');
  assert.ok(reranked.rerankScore! > 0);
  const calls = rerankCalls;
  const plain = await search({ query: 'graph', method: 'text', limit: 5, database: 'graphdb' });
  assert.equal(plain.body.results[0].rerankScore ?? null, null, 'the global setting (off) applies to graphdb');
  assert.equal(rerankCalls, calls);
});
