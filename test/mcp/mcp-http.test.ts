/**
 * The MCP server over Streamable HTTP at `/mcp` of a spawned `graphdb serve` (auth on), with the
 * SDK's own client: the memory scenario as admin, a viewer refused writes (RBAC) but allowed
 * reads, no credentials refused; and `graphdb mcp --connect bolt://...` against the same server
 * with the viewer's and the admin's credentials. Needs `npm run build`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { callTool, memoryScenario, startServe, stdioClient, tempDir, type ServedProcess } from './fixtures/scenario.js';

const home = tempDir('graphdb-mcp-http-');
let served: ServedProcess;
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const ADMIN = basic('admin', 'admin-secret');
const VIEWER = basic('vi', 'viewer-secret');

before(async () => {
  served = await startServe(`${home.dir}/data`, home.dir, {
    GRAPHDB_AUTH: 'admin:admin-secret',
    GRAPHDB_JWT_SECRET: 'a-test-jwt-secret-that-is-long-enough-0123456789',
  });
  const response = await fetch(`${served.httpUrl}/admin/users`, {
    method: 'POST',
    headers: { authorization: ADMIN, 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'vi', password: 'viewer-secret', roles: ['viewer'] }),
  });
  assert.equal(response.status, 201, await response.text());
});
after(async () => {
  await served?.stop();
  home.cleanup();
});

async function httpClient(authorization: string | null): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${served.httpUrl}/mcp`), {
    requestInit: { headers: authorization === null ? {} : { authorization } },
  });
  const client = new Client({ name: 'graphdb-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

function boltClient(user: string, password: string): Promise<Client> {
  return stdioClient(['--connect', served.boltUrl, '-u', user, '-p', password], home.dir);
}

describe('MCP over Streamable HTTP at /mcp', () => {
  it('serves the memory scenario to an admin', async () => {
    const client = await httpClient(ADMIN);
    try {
      await memoryScenario(client);
    } finally {
      await client.close();
    }
  });

  it('lets a viewer read but refuses its writes (RBAC), and writes nothing', async () => {
    const client = await httpClient(VIEWER);
    try {
      const refused = await callTool(client, 'store', { content: 'viewer was here' }, true);
      assert.match(refused.error, /not allowed|Forbidden|denied/i);
      const link = await callTool(client, 'tasks', { action: 'create', title: 'viewer task' }, true);
      assert.match(link.error, /not allowed|Forbidden|denied/i);
      const found = await callTool(client, 'discover', { query: 'write-ahead log' });
      assert.ok(found.count >= 1);
      const recalled = await callTool(client, 'recall', { tags: ['storage'] });
      assert.ok(recalled.count >= 1);
      assert.equal(recalled.access_recorded, false);
      const none = await callTool(client, 'cypher', {
        query: "MATCH (m:Memory) WHERE m.content = 'viewer was here' OR m.title = 'viewer task' RETURN count(m)",
      });
      assert.deepEqual(none.rows, [[0]]);
    } finally {
      await client.close();
    }
  });

  it('refuses a browser origin that CORS does not allow (DNS rebinding), even with credentials', async () => {
    const response = await fetch(`${served.httpUrl}/mcp`, {
      method: 'POST',
      headers: {
        authorization: ADMIN,
        origin: 'http://attacker.example',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(response.status, 403);
    assert.match(((await response.json()) as any).error.message, /origin http:\/\/attacker\.example is not allowed/);
  });

  it('refuses a client without credentials (401) and answers GET with 405', async () => {
    await assert.rejects(httpClient(null), /401|Unauthorized|authentication/i);
    const response = await fetch(`${served.httpUrl}/mcp`, { headers: { authorization: ADMIN, accept: 'text/event-stream' } });
    assert.equal(response.status, 405);
  });
});

describe('GET /graphdb/decay', () => {
  it('answers memory decay statistics to a reader and 401 without credentials', async () => {
    const response = await fetch(`${served.httpUrl}/graphdb/decay`, { headers: { authorization: VIEWER } });
    assert.equal(response.status, 200);
    const stats = (await response.json()) as any;
    assert.equal(stats.database, 'graphdb');
    assert.ok(stats.memories.total >= 6, JSON.stringify(stats));
    assert.ok(stats.profiles.some((p: any) => p.profile === 'semantic' && p.memories >= 1));
    assert.equal(stats.settings.archive_threshold, 0.05);
    assert.equal((await fetch(`${served.httpUrl}/graphdb/decay`)).status, 401);
  });
});

describe('graphdb mcp --connect bolt://', () => {
  it('runs the tools over Bolt with the given user: the viewer is refused writes, the admin stores and discovers', async () => {
    const viewer = await boltClient('vi', 'viewer-secret');
    try {
      const refused = await callTool(viewer, 'store', { content: 'viewer over bolt' }, true);
      assert.match(refused.error, /not allowed|Forbidden|denied/i);
    } finally {
      await viewer.close();
    }
    const admin = await boltClient('admin', 'admin-secret');
    try {
      const stored = await callTool(admin, 'store', { content: 'Remote memories travel over Bolt', tags: ['remote'] });
      const found = await callTool(admin, 'discover', { query: 'remote bolt memories' });
      assert.equal(found.method, 'text-match (no search services reachable)');
      assert.equal(found.results[0].id, stored.id);
      const recalled = await callTool(admin, 'recall', { id: stored.id });
      assert.equal(recalled.memories[0].access_count, 0);
      assert.equal((await callTool(admin, 'recall', { id: stored.id })).memories[0].access_count, 1);
    } finally {
      await admin.close();
    }
  });
});
