import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import https from 'node:https';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import neo4j from 'neo4j-driver';
import { commit, request, startTestServer, type TestServer } from './helpers.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const basic = (credentials: string) => ({ authorization: `Basic ${Buffer.from(credentials).toString('base64')}` });

describe('authentication (HTTP Basic against GRAPHDB_AUTH)', () => {
  let t: TestServer;
  const logs: Record<string, unknown>[] = [];
  before(async () => {
    t = await startTestServer(
      { 'auth.enabled': true, 'server.trusted_proxies': ['127.0.0.1', '::1', '::ffff:127.0.0.1'] },
      { GRAPHDB_AUTH: 'neo:s3cret' },
      { logs },
    );
  });
  after(() => t.stop());

  it('keeps /health and the discovery document public', async () => {
    assert.equal((await request(`${t.url}/health`)).status, 200);
    assert.equal((await request(`${t.url}/`)).status, 200);
  });

  it('requires credentials elsewhere', async () => {
    for (const route of ['/status', '/metrics', '/admin/stats']) {
      const response = await request(`${t.url}${route}`);
      assert.equal(response.status, 401, route);
      assert.equal(response.body.errors[0].code, 'Neo.ClientError.Security.Unauthorized');
      assert.match(response.headers.get('www-authenticate') ?? '', /^Basic/);
    }
    assert.equal((await commit(t.url, ['RETURN 1'])).status, 401);
    assert.equal((await request(`${t.url}/status`, { headers: basic('neo:wrong') })).status, 401);
  });

  it('logs failed logins with username, client IP and reason', async () => {
    await request(`${t.url}/status`, { headers: { ...basic('mallory:guess'), 'x-real-ip': '203.0.113.9' } });
    const event = logs.find((line) => line.type === 'failed_login' && line.username === 'mallory');
    assert.ok(event, JSON.stringify(logs));
    assert.equal(event.ip, '203.0.113.9', 'X-Real-IP honoured from a trusted proxy');
    assert.equal(event.reason, 'wrong username or password');
  });

  it('accepts the right credentials', async () => {
    assert.equal((await request(`${t.url}/status`, { headers: basic('neo:s3cret') })).status, 200);
    const response = await commit(t.url, ['RETURN 1'], 'graphdb', basic('neo:s3cret'));
    assert.deepEqual(response.body.results[0].data[0].row, [1]);
  });
});

describe('Bolt beside HTTP', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer(
      { 'auth.enabled': true, 'server.bolt_enabled': true, 'server.bolt_port': 0, 'server.bolt_address': '127.0.0.1' },
      { GRAPHDB_AUTH: 'neo:s3cret' },
    );
  });
  after(() => t.stop());

  it('announces Bolt in the discovery document', async () => {
    const discovery = await request(`${t.url}/`);
    assert.equal(discovery.body.bolt_direct, `bolt://127.0.0.1:${t.server.bolt!.port}`);
    assert.equal(discovery.body.bolt_routing, `neo4j://127.0.0.1:${t.server.bolt!.port}`);
  });

  it('counts Bolt queries in the same metrics', async () => {
    const readCount = async (): Promise<number> => {
      const text = (await request(`${t.url}/metrics`, { headers: basic('neo:s3cret') })).text;
      return Number(/graphdb_queries_total\{type="read",status="success"\} (\d+)/.exec(text)?.[1] ?? 0);
    };
    const before = await readCount();
    const driver = neo4j.driver(`bolt://127.0.0.1:${t.server.bolt!.port}`, neo4j.auth.basic('neo', 's3cret'));
    try {
      await driver.executeQuery('RETURN 1');
      await driver.executeQuery('RETURN 2');
    } finally {
      await driver.close();
    }
    assert.equal(await readCount(), before + 2);
  });

  it('checks Bolt credentials against the same initial user', async () => {
    const good = neo4j.driver(`bolt://127.0.0.1:${t.server.bolt!.port}`, neo4j.auth.basic('neo', 's3cret'));
    try {
      const result = await good.executeQuery('RETURN 40 + 2 AS answer');
      assert.equal(result.records[0].get('answer').toNumber(), 42);
    } finally {
      await good.close();
    }
    const bad = neo4j.driver(`bolt://127.0.0.1:${t.server.bolt!.port}`, neo4j.auth.basic('neo', 'wrong'));
    try {
      await assert.rejects(
        bad.executeQuery('RETURN 1'),
        (error: { code?: string }) => error.code === 'Neo.ClientError.Security.Unauthorized',
      );
    } finally {
      await bad.close();
    }
  });
});

describe('base path', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ 'server.base_path': '/graph', 'async_writes.enabled': false });
  });
  after(() => t.stop());

  it('serves every route under the prefix only', async () => {
    assert.equal((await request(`${t.url}/graph/health`)).status, 200);
    assert.equal((await request(`${t.url}/health`)).status, 404);
    const response = await commit(`${t.url}/graph`, ['RETURN 1']);
    assert.deepEqual(response.body.results[0].data[0].row, [1]);
    const discovery = await request(`${t.url}/graph/`);
    assert.equal(discovery.body.transaction, `${t.url}/graph/db/{databaseName}/tx`);
    const begin = await request(`${t.url}/graph/db/graphdb/tx`, { method: 'POST', json: { statements: [] } });
    assert.equal(begin.body.commit.startsWith(`${t.url}/graph/db/graphdb/tx/`), true);
    await request(begin.headers.get('location')!, { method: 'DELETE' });
    const openapi = await request(`${t.url}/graph/openapi.json`);
    assert.deepEqual(openapi.body.servers, [{ url: '/graph' }]);
    assert.ok(openapi.body.paths['/health']);
  });
});

describe('extra route groups', () => {
  it('share the base path, security hook, error shape and OpenAPI document', async () => {
    const t = await startTestServer(
      { 'auth.enabled': true, 'server.base_path': '/g' },
      { GRAPHDB_AUTH: 'neo:s3cret' },
      {
        httpRoutes: [
          async (app) => {
            app.get(
              '/extra/open',
              {
                config: { auth: 'public' },
                schema: { summary: 'open', response: { 200: { type: 'object', properties: { user: { type: 'string' } } } } },
              },
              async () => ({ user: 'anonymous' }),
            );
            app.get('/extra/me', { schema: { summary: 'me' } }, async (request) => ({
              user: request.security.username,
              nodes: app.graphdb.engine.databaseFigures().length,
            }));
          },
        ],
      },
    );
    try {
      assert.deepEqual((await request(`${t.url}/g/extra/open`)).body, { user: 'anonymous' });
      const denied = await request(`${t.url}/g/extra/me`);
      assert.equal(denied.status, 401);
      assert.equal(denied.body.errors[0].code, 'Neo.ClientError.Security.Unauthorized');
      assert.equal((await request(`${t.url}/g/extra/me`, { headers: basic('neo:s3cret') })).body.user, 'neo');
      const openapi = await request(`${t.url}/g/openapi.json`);
      assert.ok(openapi.body.paths['/extra/me'].get);
      assert.deepEqual(openapi.body.paths['/extra/open'].get.security, []);
    } finally {
      await t.stop();
    }
  });
});

describe('trusted proxies', () => {
  const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'graph.example.com', 'x-forwarded-prefix': '/api' };

  it('ignores forwarding headers from an untrusted peer', async () => {
    const logs: Record<string, unknown>[] = [];
    const t = await startTestServer(
      { 'server.trusted_proxies': ['10.9.9.9'], 'auth.enabled': true },
      { GRAPHDB_AUTH: 'neo:s3cret' },
      { logs },
    );
    try {
      const discovery = await request(`${t.url}/`, { headers: forwarded });
      assert.equal(discovery.body.transaction, `${t.url}/db/{databaseName}/tx`);
      await request(`${t.url}/status`, {
        headers: { ...basic('eve:guess'), 'x-real-ip': '203.0.113.9', 'x-forwarded-for': '203.0.113.9' },
      });
      const event = logs.find((line) => line.type === 'failed_login');
      assert.match(String(event?.ip), /127\.0\.0\.1|::1/, 'the peer address, not the spoofed header');
    } finally {
      await t.stop();
    }
  });

  it('honours them from a trusted peer', async () => {
    const t = await startTestServer({ 'server.trusted_proxies': ['127.0.0.0/8', '::1'] });
    try {
      const discovery = await request(`${t.url}/`, { headers: forwarded });
      assert.equal(discovery.body.transaction, 'https://graph.example.com/api/db/{databaseName}/tx');
    } finally {
      await t.stop();
    }
  });
});

describe('CORS', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ 'cors.enabled': true, 'cors.origins': ['https://app.example.com'] });
  });
  after(() => t.stop());

  it('allows listed origins only', async () => {
    const allowed = await request(`${t.url}/health`, { headers: { origin: 'https://app.example.com' } });
    assert.equal(allowed.headers.get('access-control-allow-origin'), 'https://app.example.com');
    const other = await request(`${t.url}/health`, { headers: { origin: 'https://evil.example.com' } });
    assert.equal(other.headers.get('access-control-allow-origin'), null);
    const preflight = await fetch(`${t.url}/db/graphdb/tx/commit`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' },
    });
    assert.equal(preflight.status, 204);
    assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /POST/);
  });
});

describe('native HTTPS', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({
      'server.https.enabled': true,
      'server.https.cert_file': path.join(fixtures, 'tls-cert.pem'),
      'server.https.key_file': path.join(fixtures, 'tls-key.pem'),
    });
  });
  after(() => t.stop());

  it('serves the API over TLS', async () => {
    assert.match(t.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    const body = await new Promise<string>((resolve, reject) => {
      https
        .get(`${t.url}/health`, { ca: fs.readFileSync(path.join(fixtures, 'tls-cert.pem')), servername: 'localhost' }, (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => resolve(text));
        })
        .on('error', reject);
    });
    assert.deepEqual(JSON.parse(body), { status: 'healthy' });
  });

  it('listens on the HTTPS port unless the HTTP port is given as a flag', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const busyPort = (blocker.address() as net.AddressInfo).port;
    try {
      const viaEnv = await startTestServer(
        {
          'server.http_port': undefined,
          'server.https.enabled': true,
          'server.https.cert_file': path.join(fixtures, 'tls-cert.pem'),
          'server.https.key_file': path.join(fixtures, 'tls-key.pem'),
        },
        { GRAPHDB_HTTP_PORT: String(busyPort), GRAPHDB_HTTPS_PORT: '0' },
      );
      assert.notEqual(viaEnv.server.http!.port, busyPort, 'the HTTP port from the environment is not used');
      await viaEnv.stop();
    } finally {
      blocker.close();
    }
  });
});

describe('startup refusals', () => {
  const refused = async (flags: Record<string, unknown>, prefix: string) => {
    await assert.rejects(startTestServer({ 'auth.enabled': true, ...flags }), (error: Error) => {
      assert.ok(error.message.startsWith(prefix), error.message);
      return true;
    });
  };

  it('refuses wildcard CORS on a public listener', () =>
    refused(
      { 'server.http_address': '0.0.0.0', 'server.trusted_proxies': ['10.0.0.1'], 'cors.enabled': true, 'cors.origins': ['*'] },
      'security configuration: wildcard CORS origin is not allowed',
    ));

  it('refuses public plaintext HTTP without trusted proxies', () =>
    refused({ 'server.http_address': '0.0.0.0' }, 'security configuration: public plaintext HTTP listener is not allowed'));

  it('refuses a public Bolt listener without required TLS', () =>
    refused(
      { 'server.bolt_enabled': true, 'server.bolt_address': '0.0.0.0', 'server.bolt_port': 0 },
      'security configuration: public Bolt listener must require TLS',
    ));
});
