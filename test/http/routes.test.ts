import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { commit, request, startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
before(async () => {
  t = await startTestServer({ 'async_writes.enabled': false }, { GRAPHDB_EMBEDDING_API_KEY: 'sk-secret', GRAPHDB_AUTH: 'admin:pw' });
});
after(() => t.stop());

describe('health, status, discovery', () => {
  it('GET /health', async () => {
    const response = await request(`${t.url}/health`);
    assert.equal(response.status, 200);
    assert.equal(response.body.status, 'healthy');
  });

  it('GET /status reports live counts', async () => {
    const before = await request(`${t.url}/status`);
    assert.equal(before.status, 200);
    assert.equal(before.body.status, 'healthy');
    assert.equal(before.body.server.version, '9.9.9-test');
    assert.ok(!Number.isNaN(Date.parse(before.body.server.started_at)));
    assert.equal(typeof before.body.server.uptime, 'string');
    assert.equal(typeof before.body.database.data_size, 'string');
    assert.deepEqual(before.body.embeddings, { enabled: false, provider: 'local', model: '', pending: 0 });
    await commit(t.url, ['CREATE (:S)-[:R]->(:S), (:S)']);
    const after = await request(`${t.url}/status`);
    assert.equal(after.body.database.nodes, before.body.database.nodes + 3);
    assert.equal(after.body.database.edges, before.body.database.edges + 1);
  });

  it('GET / is the discovery document (no Bolt keys when Bolt is disabled)', async () => {
    const response = await request(`${t.url}/`);
    assert.equal(response.status, 200);
    assert.equal(response.body.transaction, `${t.url}/db/{databaseName}/tx`);
    assert.equal(typeof response.body.neo4j_version, 'string');
    assert.equal(response.body.bolt_direct, undefined);
  });

  it('unknown routes answer 404 in the Neo4j error shape', async () => {
    const response = await request(`${t.url}/nope`);
    assert.equal(response.status, 404);
    assert.equal(response.body.errors[0].code, 'Neo.ClientError.Request.Invalid');
  });
});

describe('metrics', () => {
  it('exports the event-loop delay since the previous scrape (p50, p99, max)', async () => {
    await request(`${t.url}/metrics`);
    // Hold this process's event loop (the server's) for 120 ms, let the delay monitor's own timer
    // sample it (a turn through the timers phase), then scrape: the max reports the stall. A loaded
    // machine can put the scrape before the sample, so up to five stalls are tried.
    const maxima: number[] = [];
    for (let attempt = 0; attempt < 5 && !maxima.some((m) => m >= 0.1); attempt++) {
      const until = performance.now() + 120;
      while (performance.now() < until);
      await new Promise((resolve) => setTimeout(resolve, 0));
      const text = (await request(`${t.url}/metrics`)).text;
      for (const quantile of ['p50', 'p99', 'max']) {
        assert.match(text, new RegExp(`# TYPE graphdb_nodejs_eventloop_lag_${quantile}_seconds gauge`), quantile);
      }
      maxima.push(Number(/^graphdb_nodejs_eventloop_lag_max_seconds ([0-9.e+-]+)$/m.exec(text)?.[1]));
    }
    assert.ok(
      maxima.some((m) => m >= 0.1),
      `a 120 ms stall shows in the max (${maxima.join(', ')} s)`,
    );
  });

  it('exposes every graphdb_* metric of the spec with its labels', async () => {
    await commit(t.url, ['RETURN 1']);
    await commit(t.url, ['RETURN 1/0']);
    const response = await request(`${t.url}/metrics`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /text\/plain/);
    const text = response.text;
    for (const name of [
      'graphdb_http_requests_total',
      'graphdb_http_request_duration_seconds',
      'graphdb_nodes_total',
      'graphdb_edges_total',
      'graphdb_storage_bytes',
      'graphdb_query_duration_seconds',
      'graphdb_queries_total',
      'graphdb_embeddings_pending',
      'graphdb_embeddings_processed_total',
      'graphdb_embedding_duration_seconds',
      'graphdb_rate_limit_hits_total',
    ]) {
      assert.match(text, new RegExp(`# TYPE ${name} `), name);
    }
    assert.match(text, /graphdb_http_requests_total\{method="POST",path="\/db\/:database\/tx\/commit",status="200"\} \d+/);
    assert.match(
      text,
      /graphdb_http_request_duration_seconds_bucket\{le="[^"]+",method="GET",path="\/health"\}|graphdb_http_request_duration_seconds_count\{method="POST",path="\/db\/:database\/tx\/commit"\}/,
    );
    assert.match(text, /graphdb_queries_total\{type="read",status="success"\} \d+/);
    assert.match(text, /graphdb_queries_total\{type="unknown",status="error"\} \d+/);
    assert.match(text, /graphdb_query_duration_seconds_count\{type="read"\} \d+/);
    assert.match(text, /graphdb_nodes_total \d+/);
  });
});

describe('admin', () => {
  it('GET /admin/stats has the search readiness block and database figures', async () => {
    const response = await request(`${t.url}/admin/stats`);
    assert.equal(response.status, 200);
    assert.deepEqual(Object.keys(response.body.search).sort(), [
      'build_phase',
      'index_bytes',
      'index_max_bytes',
      'progress_pct',
      'ready',
      'vector_backend',
    ]);
    assert.equal(response.body.search.vector_backend, 'faiss', 'CI installs libfaiss-dev, so faiss-node is built');
    assert.equal(typeof response.body.search.ready, 'boolean');
    assert.ok(response.body.databases.some((d: { name: string }) => d.name === 'graphdb'));
    assert.equal(typeof response.body.transactions.open, 'number');
  });

  it('GET /admin/config redacts secrets', async () => {
    const response = await request(`${t.url}/admin/config`);
    assert.equal(response.status, 200);
    assert.equal(response.body.config.embeddings.api_key, '********');
    assert.equal(response.body.config.auth.initial_credentials, '********');
    assert.ok(!response.text.includes('sk-secret'));
    assert.ok(!response.text.includes('admin:pw'));
    assert.equal(response.body.config.server.http_address, '127.0.0.1');
  });

  it('per-database configuration: keys, overrides, effective, validation', async () => {
    const keys = await request(`${t.url}/admin/databases/config/keys`);
    assert.ok(keys.body.keys.some((k: { key: string }) => k.key === 'GRAPHDB_EMBEDDING_MODEL'));
    const put = await request(`${t.url}/admin/databases/graphdb/config`, {
      method: 'PUT',
      json: { overrides: { GRAPHDB_EMBEDDING_MODEL: 'mini' } },
    });
    assert.equal(put.status, 200);
    const get = await request(`${t.url}/admin/databases/graphdb/config`);
    assert.deepEqual(get.body.overrides, { GRAPHDB_EMBEDDING_MODEL: 'mini' });
    assert.equal(get.body.effective.embeddings.model, 'mini');
    const bad = await request(`${t.url}/admin/databases/graphdb/config`, {
      method: 'PUT',
      json: { overrides: { GRAPHDB_HTTP_PORT: '1' } },
    });
    assert.equal(bad.status, 400);
    assert.match(bad.body.errors[0].message, /GRAPHDB_HTTP_PORT/);
    assert.equal((await request(`${t.url}/admin/databases/nosuch/config`)).status, 404);
  });
});

describe('subsystem probes', () => {
  it('feed /admin/stats, /status and the pending-embeddings gauge', async () => {
    const probed = await startTestServer(
      {},
      {},
      {
        probes: {
          searchReadiness: () => ({ ready: false, build_phase: 'building_hnsw', progress_pct: 42.5 }),
          embeddingsPending: () => 7,
        },
      },
    );
    try {
      assert.deepEqual((await request(`${probed.url}/admin/stats`)).body.search, {
        ready: false,
        build_phase: 'building_hnsw',
        progress_pct: 42.5,
      });
      assert.equal((await request(`${probed.url}/status`)).body.embeddings.pending, 7);
      assert.match((await request(`${probed.url}/metrics`)).text, /graphdb_embeddings_pending 7/);
    } finally {
      await probed.stop();
    }
  });
});

describe('OpenAPI', () => {
  it('describes the REST routes with bearer and basic security', async () => {
    const response = await request(`${t.url}/openapi.json`);
    assert.equal(response.status, 200);
    const doc = response.body;
    assert.equal(doc.openapi, '3.0.3');
    assert.deepEqual(doc.components.securitySchemes.bearerAuth, { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    assert.deepEqual(doc.components.securitySchemes.basicAuth, { type: 'http', scheme: 'basic' });
    for (const [path, method] of [
      ['/health', 'get'],
      ['/status', 'get'],
      ['/metrics', 'get'],
      ['/db/{database}/tx/commit', 'post'],
      ['/db/{database}/tx', 'post'],
      ['/db/{database}/tx/{id}', 'post'],
      ['/db/{database}/tx/{id}', 'delete'],
      ['/db/{database}/tx/{id}/commit', 'post'],
      ['/admin/stats', 'get'],
      ['/admin/config', 'get'],
    ]) {
      assert.ok(doc.paths[path]?.[method], `${method} ${path}`);
    }
    assert.deepEqual(doc.paths['/health'].get.security, []);
    assert.equal(doc.paths['/status'].get.security.length, 2);
    const commitOp = doc.paths['/db/{database}/tx/commit'].post;
    assert.equal(commitOp.parameters.find((p: { name: string }) => p.name === 'database').in, 'path');
    assert.ok(commitOp.requestBody.content['application/json'].schema.properties.statements);
    assert.ok(commitOp.responses['202']);
  });
});
