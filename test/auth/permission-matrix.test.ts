/**
 * The permission matrix: each role × each statement kind and endpoint × each listener (HTTP and
 * Bolt), on an allowlisted and a non-allowlisted database, against a real server.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import neo4j from 'neo4j-driver';
import { commit, request, startTestServer, type TestServer } from '../http/helpers.js';

const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });
const ROOT = basic('root', 'rootpw');

const UNAUTHORIZED = 'Neo.ClientError.Security.Unauthorized';
const FORBIDDEN = 'Neo.ClientError.Security.Forbidden';

/** Statement kinds of spec rule 6 plus administration. */
const STATEMENTS = {
  read: 'MATCH (n) RETURN count(n) AS c',
  write: 'CREATE (:MatrixProbe)',
  delete: 'MATCH (n:NoSuchLabel) DELETE n',
  schema: 'CREATE INDEX matrix_idx IF NOT EXISTS FOR (n:MatrixProbe) ON (n.p)',
  admin: 'CREATE DATABASE matrixextra IF NOT EXISTS',
} as const;
type Kind = keyof typeof STATEMENTS;

interface Principal {
  readonly name: string;
  readonly password: string;
  /** Statement kinds allowed on `graphdb` and on `other`. */
  readonly allowed: { readonly graphdb: readonly Kind[]; readonly other: readonly Kind[] };
  readonly admin: boolean;
}

const ALL: readonly Kind[] = ['read', 'write', 'delete', 'schema', 'admin'];
const PRINCIPALS: readonly Principal[] = [
  { name: 'root', password: 'rootpw', allowed: { graphdb: ALL, other: ALL }, admin: true },
  { name: 'ed', password: 'ed-pw', allowed: { graphdb: ['read', 'write', 'delete'], other: ['read', 'write', 'delete'] }, admin: false },
  { name: 'vi', password: 'vi-pw', allowed: { graphdb: ['read'], other: ['read'] }, admin: false },
  // analyst: a user-defined role with read+write, allowlisted to graphdb only.
  { name: 'an', password: 'an-pw', allowed: { graphdb: ['read', 'write'], other: [] }, admin: false },
  // otheronly: a user-defined read role allowlisted to `other` only.
  { name: 'ot', password: 'ot-pw', allowed: { graphdb: [], other: ['read'] }, admin: false },
];

async function httpOutcome(base: string, database: string, statement: string, headers: Record<string, string>): Promise<string> {
  const response = await commit(base, [statement], database, headers);
  if (response.status !== 200) return `${response.status} ${response.body?.errors?.[0]?.code ?? ''}`.trim();
  return response.body.errors.length > 0 ? response.body.errors[0].code : 'ok';
}

async function boltOutcome(url: string, token: ReturnType<typeof neo4j.auth.basic>, database: string, statement: string): Promise<string> {
  const driver = neo4j.driver(url, token, { maxConnectionPoolSize: 1 });
  const session = driver.session({ database });
  try {
    await session.run(statement);
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  } finally {
    await session.close();
    await driver.close();
  }
}

describe('permission matrix (HTTP and Bolt)', () => {
  let t: TestServer;
  let boltUrl: string;

  before(async () => {
    t = await startTestServer(
      {
        'auth.enabled': true,
        'server.bolt_enabled': true,
        'server.bolt_port': 0,
        'server.bolt_address': '127.0.0.1',
        'async_writes.enabled': false,
      },
      { GRAPHDB_AUTH: 'root:rootpw' },
    );
    boltUrl = `bolt://127.0.0.1:${t.server.bolt!.port}`;
    const post = (path: string, json: unknown) => request(`${t.url}${path}`, { method: 'POST', headers: ROOT, json });
    assert.equal((await post('/admin/users', { username: 'ed', password: 'ed-pw', roles: ['editor'] })).status, 201);
    assert.equal((await post('/admin/users', { username: 'vi', password: 'vi-pw', roles: ['viewer'] })).status, 201);
    assert.equal((await post('/admin/roles', { name: 'analyst', permissions: ['read', 'write'] })).status, 201);
    const put = await request(`${t.url}/admin/roles/analyst/databases`, { method: 'PUT', headers: ROOT, json: ['graphdb'] });
    assert.deepEqual(put.body.databases, ['graphdb']);
    assert.equal((await post('/admin/users', { username: 'an', password: 'an-pw', roles: ['analyst'] })).status, 201);
    assert.equal((await post('/admin/roles', { name: 'otheronly', permissions: ['read'], databases: ['other'] })).status, 201);
    assert.equal((await post('/admin/users', { username: 'ot', password: 'ot-pw', roles: ['otheronly'] })).status, 201);
    assert.equal(await httpOutcome(t.url, 'graphdb', 'CREATE DATABASE other IF NOT EXISTS', ROOT), 'ok');
  });
  after(() => t.stop());

  for (const principal of PRINCIPALS) {
    for (const database of ['graphdb', 'other'] as const) {
      it(`${principal.name} on ${database}: HTTP and Bolt agree with the matrix`, async () => {
        const bolt = neo4j.auth.basic(principal.name, principal.password);
        for (const kind of Object.keys(STATEMENTS) as Kind[]) {
          const expected = principal.allowed[database].includes(kind) ? 'ok' : FORBIDDEN;
          const statement = STATEMENTS[kind];
          assert.equal(await httpOutcome(t.url, database, statement, basic(principal.name, principal.password)), expected, `HTTP ${kind}`);
          assert.equal(await boltOutcome(boltUrl, bolt, database, statement), expected, `Bolt ${kind}`);
        }
      });
    }
  }

  for (const principal of PRINCIPALS) {
    it(`${principal.name} over GraphQL (default database graphdb) agrees with the matrix`, async () => {
      const graphql = (query: string, variables: Record<string, unknown> = {}) =>
        request(`${t.url}/graphql`, { method: 'POST', headers: basic(principal.name, principal.password), json: { query, variables } });
      const outcome = async (query: string, variables: Record<string, unknown> = {}) => {
        const response = await graphql(query, variables);
        assert.equal(response.status, 200, response.text);
        return response.body.errors?.[0]?.extensions?.code ?? 'ok';
      };
      for (const kind of Object.keys(STATEMENTS) as Kind[]) {
        const expected = principal.allowed.graphdb.includes(kind) ? 'ok' : FORBIDDEN;
        const query = 'query ($s: String!) { cypher(input: {statement: $s}) { rowCount } }';
        assert.equal(await outcome(query, { s: STATEMENTS[kind] }), expected, `GraphQL cypher ${kind}`);
      }
      const write = principal.allowed.graphdb.includes('write') ? 'ok' : FORBIDDEN;
      assert.equal(await outcome('mutation { createNode(input: {labels: ["GqlProbe"]}) { id } }'), write, 'GraphQL createNode');
    });
  }

  it('GraphQL without credentials is Unauthorized', async () => {
    const response = await request(`${t.url}/graphql`, { method: 'POST', json: { query: '{ stats { nodeCount } }' } });
    assert.equal(response.status, 401);
    assert.equal(response.body.errors[0].extensions.code, UNAUTHORIZED);
  });

  it('without or with wrong credentials: 401 on HTTP, Unauthorized on Bolt', async () => {
    assert.equal(await httpOutcome(t.url, 'graphdb', STATEMENTS.read, {}), `401 ${UNAUTHORIZED}`);
    assert.equal(await httpOutcome(t.url, 'graphdb', STATEMENTS.read, basic('vi', 'wrong')), `401 ${UNAUTHORIZED}`);
    assert.equal(await boltOutcome(boltUrl, neo4j.auth.basic('vi', 'wrong'), 'graphdb', STATEMENTS.read), UNAUTHORIZED);
    assert.equal(await boltOutcome(boltUrl, { scheme: 'none', principal: '', credentials: '' }, 'graphdb', STATEMENTS.read), UNAUTHORIZED);
  });

  it('endpoints: public, authenticated and admin routes per role', async () => {
    const endpoints: { method: string; path: string; level: 'public' | 'authenticated' | 'admin'; json?: unknown }[] = [
      { method: 'GET', path: '/health', level: 'public' },
      { method: 'GET', path: '/status', level: 'authenticated' },
      { method: 'GET', path: '/metrics', level: 'authenticated' },
      { method: 'GET', path: '/auth/me', level: 'authenticated' },
      { method: 'GET', path: '/admin/stats', level: 'admin' },
      { method: 'GET', path: '/admin/roles', level: 'admin' },
      { method: 'GET', path: '/admin/users', level: 'admin' },
      { method: 'POST', path: '/auth/api-token', level: 'admin', json: {} },
      { method: 'POST', path: '/api/v1/auth/cluster-token', level: 'admin', json: { node_id: 'n1', role: 'viewer' } },
      { method: 'GET', path: '/api/v1/service-accounts/none', level: 'admin' },
      { method: 'PUT', path: '/admin/roles/viewer/databases', level: 'admin', json: [] },
      { method: 'DELETE', path: '/admin/roles/viewer/databases', level: 'admin' },
    ];
    for (const endpoint of endpoints) {
      const call = (headers: Record<string, string>) =>
        request(`${t.url}${endpoint.path}`, {
          method: endpoint.method,
          headers,
          ...(endpoint.json !== undefined ? { json: endpoint.json } : {}),
        });
      const anonymous = await call({});
      assert.equal(anonymous.status, endpoint.level === 'public' ? 200 : 401, `${endpoint.path} anonymous`);
      for (const principal of PRINCIPALS) {
        const response = await call(basic(principal.name, principal.password));
        const denied = endpoint.level === 'admin' && !principal.admin;
        const label = `${endpoint.method} ${endpoint.path} as ${principal.name}`;
        if (denied) {
          assert.equal(response.status, 403, label);
          assert.equal(response.body.errors[0].code, FORBIDDEN, label);
        } else {
          // The service account does not exist: admins get past authorization to a 404.
          assert.equal(response.status, endpoint.path.endsWith('/none') ? 404 : 200, label);
        }
      }
    }
  });

  it('an empty allowlist covers databases created later; a non-empty one does not', async () => {
    assert.equal(await httpOutcome(t.url, 'graphdb', 'CREATE DATABASE later IF NOT EXISTS', ROOT), 'ok');
    assert.equal(await httpOutcome(t.url, 'later', STATEMENTS.read, basic('vi', 'vi-pw')), 'ok');
    assert.equal(await httpOutcome(t.url, 'later', STATEMENTS.read, basic('an', 'an-pw')), FORBIDDEN);
    const removed = await request(`${t.url}/admin/roles/analyst/databases`, { method: 'DELETE', headers: ROOT });
    assert.deepEqual(removed.body.databases, []);
    assert.equal(await httpOutcome(t.url, 'later', STATEMENTS.read, basic('an', 'an-pw')), 'ok');
    assert.equal(await boltOutcome(boltUrl, neo4j.auth.basic('an', 'an-pw'), 'other', STATEMENTS.read), 'ok');
    await request(`${t.url}/admin/roles/analyst/databases`, { method: 'PUT', headers: ROOT, json: ['graphdb'] });
  });

  it('the system database is for admins only', async () => {
    assert.equal(await boltOutcome(boltUrl, neo4j.auth.basic('ed', 'ed-pw'), 'system', 'MATCH (u:_User) RETURN u.passwordHash'), FORBIDDEN);
    assert.equal(await httpOutcome(t.url, 'system', 'MATCH (u:_User) RETURN u.passwordHash', basic('vi', 'vi-pw')), FORBIDDEN);
  });
});

describe('anonymous Bolt access', () => {
  for (const [label, flags, allowed] of [
    ['GRAPHDB_BOLT_ALLOW_ANONYMOUS=true', { 'server.bolt_allow_anonymous': true }, true],
    ['GRAPHDB_BOLT_REQUIRE_AUTH=false', { 'server.bolt_require_auth': false }, true],
    ['the defaults', {}, false],
  ] as const) {
    it(`with ${label}: scheme none is ${allowed ? 'a viewer' : 'refused'}`, async () => {
      const t = await startTestServer(
        { 'auth.enabled': true, 'server.bolt_enabled': true, 'server.bolt_port': 0, 'server.bolt_address': '127.0.0.1', ...flags },
        { GRAPHDB_AUTH: 'root:rootpw' },
      );
      try {
        const url = `bolt://127.0.0.1:${t.server.bolt!.port}`;
        const none = { scheme: 'none', principal: '', credentials: '' } as never;
        assert.equal(await boltOutcome(url, none, 'graphdb', STATEMENTS.read), allowed ? 'ok' : UNAUTHORIZED);
        assert.equal(await boltOutcome(url, none, 'graphdb', STATEMENTS.write), allowed ? FORBIDDEN : UNAUTHORIZED);
      } finally {
        await t.stop();
      }
    });
  }
});
