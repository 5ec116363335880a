/**
 * Caches bounded by settings and reported in `/status`:
 * - the cache of verified passwords keeps at most `dbms.memory.auth_cache.max_size`
 *   (GRAPHDB_AUTH_CACHE_MAX_SIZE) estimated bytes, whatever the number of users logging in, and
 *   a password it dropped is verified again (not refused);
 * - `/status` reports entries, estimated bytes and the bound of the query and plan cache, the
 *   compiled regular expressions, the GraphQL documents and the verified passwords, with the
 *   bounds the settings gave (`dbms.memory.regex_cache.max_size` included).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GraphDB } from '../../src/engine/index.js';
import { AuthService } from '../../src/engine/auth/index.js';
import { request, startTestServer, type TestServer } from '../http/helpers.js';

const FAST = { N: 1024, r: 8, p: 1 };

describe('the verified-password cache keeps to its byte bound', () => {
  let db: GraphDB;
  let auth: AuthService;
  before(async () => {
    db = await GraphDB.open({ search: false });
    auth = await AuthService.open({
      systemSession: () => db.session({ database: 'system' }),
      jwtSecret: 'test-jwt-secret-of-at-least-32-bytes!!',
      scryptCost: FAST,
      verifiedCacheMaxBytes: 2048,
    });
  });
  after(() => db.close());

  it('holds a few of 40 users, within 2 KiB, and still verifies the users it dropped', async () => {
    for (let i = 0; i < 40; i++) await auth.createUser(`user${i}`, `password-${i}`, ['reader'], null);
    for (let i = 0; i < 40; i++) await auth.authenticatePassword(`user${i}`, `password-${i}`, '127.0.0.1');
    const stats = auth.verifiedCacheStats;
    assert.equal(stats.maxBytes, 2048);
    assert.ok(stats.bytes <= 2048, `${stats.bytes} bytes`);
    assert.ok(stats.entries > 0 && stats.entries < 40, `${stats.entries} entries`);
    const principal = await auth.authenticatePassword('user0', 'password-0', '127.0.0.1');
    assert.equal(principal.context.username, 'user0');
    await assert.rejects(auth.authenticatePassword('user0', 'password-1', '127.0.0.1'));
  });
});

describe('/status reports every cache against the bound its setting gives', () => {
  let t: TestServer;
  const basic = `Basic ${Buffer.from('root:rootpw-long-enough').toString('base64')}`;
  before(async () => {
    t = await startTestServer(
      {
        'auth.enabled': true,
        'dbms.memory.auth_cache.max_size': '4KiB',
        'dbms.memory.regex_cache.max_size': '1MiB',
        'dbms.memory.query_cache.max_size': '8MiB',
        'dbms.memory.graphql_cache.max_size': '2MiB',
      },
      { GRAPHDB_AUTH: 'root:rootpw-long-enough' },
    );
  });
  after(() => t.stop());

  it('query, regex, graphql and auth caches with entries, bytes and max_bytes', async () => {
    const cypher = await request(`${t.url}/db/graphdb/tx/commit`, {
      method: 'POST',
      headers: { authorization: basic },
      json: { statements: [{ statement: "RETURN 'abc' =~ 'a.c' AS hit" }] },
    });
    assert.equal(cypher.status, 200, cypher.text);
    assert.deepEqual(cypher.body.results[0].data[0].row, [true]);
    const graphql = await request(`${t.url}/graphql`, {
      method: 'POST',
      headers: { authorization: basic },
      json: { query: '{ __typename }' },
    });
    assert.equal(graphql.status, 200, graphql.text);
    const status = await request(`${t.url}/status`, { headers: { authorization: basic } });
    assert.equal(status.status, 200, status.text);
    const caches = status.body.caches as Record<string, { entries: number; bytes: number; max_bytes: number }>;
    assert.deepEqual(
      Object.fromEntries(Object.entries(caches).map(([name, c]) => [name, c.max_bytes])),
      { query: 8 * 1024 ** 2, regex: 1024 ** 2, graphql: 2 * 1024 ** 2, auth: 4096 },
      status.text,
    );
    for (const [name, cache] of Object.entries(caches)) {
      assert.ok(cache.entries >= 1, `${name} holds what was just used: ${status.text}`);
      assert.ok(cache.bytes > 0 && cache.bytes <= cache.max_bytes, `${name}: ${status.text}`);
    }
  });
});
