/**
 * Tokens over HTTP and Bolt: issue, use (bearer, cookie, Bolt basic-with-JWT and bearer), expire,
 * revoke, tamper; service accounts and cluster tokens; the audit log's client IP behind an
 * untrusted peer; login lockout and its metric.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import neo4j from 'neo4j-driver';
import { commit, request, startTestServer, type TestServer } from '../http/helpers.js';

const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const ROOT = basic('root', 'rootpw');

async function boltRead(url: string, token: ReturnType<typeof neo4j.auth.basic>): Promise<string> {
  const driver = neo4j.driver(url, token, { maxConnectionPoolSize: 1 });
  const session = driver.session();
  try {
    await session.run('RETURN 1');
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  } finally {
    await session.close();
    await driver.close();
  }
}

function tamper(token: string): string {
  const [header, payload, signature] = token.split('.');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
  return `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: 'root', role: 'admin' })).toString('base64url')}.${signature}`;
}

describe('tokens', () => {
  let t: TestServer;
  let boltUrl: string;
  /** The server's authentication clock runs this many milliseconds ahead of wall-clock time. */
  let clockAhead = 0;
  before(async () => {
    t = await startTestServer(
      {
        'auth.enabled': true,
        'server.bolt_enabled': true,
        'server.bolt_port': 0,
        'server.bolt_address': '127.0.0.1',
        'auth.cluster_tokens_never_expire': true,
      },
      { GRAPHDB_AUTH: 'root:rootpw' },
      { authClock: () => Date.now() + clockAhead },
    );
    boltUrl = `bolt://127.0.0.1:${t.server.bolt!.port}`;
    await request(`${t.url}/admin/users`, {
      method: 'POST',
      headers: ROOT,
      json: { username: 'vi', password: 'vi-pw', roles: ['viewer'] },
    });
  });
  after(() => t.stop());

  const token = async (username: string, password: string) => {
    const response = await request(`${t.url}/auth/token`, { method: 'POST', json: { username, password } });
    assert.equal(response.status, 200, response.text);
    return response;
  };

  it('POST /auth/token returns a JWT and sets a Secure HttpOnly cookie; bearer and cookie authenticate', async () => {
    const response = await token('vi', 'vi-pw');
    const jwt = response.body.access_token as string;
    assert.equal(response.body.token_type, 'Bearer');
    assert.equal(response.body.expires_in, 3600);
    const cookie = response.headers.get('set-cookie') ?? '';
    assert.match(cookie, /^graphdb_token=[^;]+;/);
    assert.match(cookie, /; Secure/);
    assert.match(cookie, /; HttpOnly/);
    const me = await request(`${t.url}/auth/me`, { headers: bearer(jwt) });
    assert.deepEqual([me.body.username, me.body.roles, me.body.admin], ['vi', ['viewer'], false]);
    const viaCookie = await request(`${t.url}/auth/me`, { headers: { cookie: `graphdb_token=${jwt}` } });
    assert.equal(viaCookie.body.username, 'vi');
    assert.equal((await request(`${t.url}/auth/token`, { method: 'POST', json: { username: 'vi', password: 'nope' } })).status, 401);
  });

  it('the same JWT works on Bolt as basic with an empty principal and as bearer', async () => {
    const jwt = (await token('vi', 'vi-pw')).body.access_token as string;
    assert.equal(await boltRead(boltUrl, neo4j.auth.basic('', jwt)), 'ok');
    assert.equal(await boltRead(boltUrl, neo4j.auth.bearer(jwt)), 'ok');
    assert.equal(await boltRead(boltUrl, neo4j.auth.bearer(tamper(jwt))), 'Neo.ClientError.Security.Unauthorized');
  });

  it('a tampered JWT is refused', async () => {
    const jwt = (await token('vi', 'vi-pw')).body.access_token as string;
    const response = await request(`${t.url}/admin/stats`, { headers: bearer(tamper(jwt)) });
    assert.equal(response.status, 401);
    assert.equal(response.body.errors[0].code, 'Neo.ClientError.Security.Unauthorized');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${jwt.split('.')[1]}.`;
    assert.equal((await request(`${t.url}/auth/me`, { headers: bearer(none) })).status, 401, 'alg none');
  });

  it('logout revokes the token (bearer and cookie) and clears the cookie', async () => {
    const jwt = (await token('vi', 'vi-pw')).body.access_token as string;
    const logout = await request(`${t.url}/auth/logout`, { method: 'POST', headers: bearer(jwt) });
    assert.deepEqual(logout.body, { revoked: true });
    assert.match(logout.headers.get('set-cookie') ?? '', /graphdb_token=; .*Max-Age=0/);
    assert.equal((await request(`${t.url}/auth/me`, { headers: bearer(jwt) })).status, 401);
    assert.equal((await request(`${t.url}/auth/me`, { headers: { cookie: `graphdb_token=${jwt}` } })).status, 401);
    assert.equal(await boltRead(boltUrl, neo4j.auth.bearer(jwt)), 'Neo.ClientError.Security.Unauthorized');
  });

  it('tokens expire', async () => {
    const issued = await request(`${t.url}/auth/api-token`, { method: 'POST', headers: ROOT, json: { username: 'vi', expires_in: 2 } });
    const jwt = issued.body.access_token as string;
    assert.equal((await request(`${t.url}/auth/me`, { headers: bearer(jwt) })).status, 200);
    clockAhead = 3100;
    try {
      const expired = await request(`${t.url}/auth/me`, { headers: bearer(jwt) });
      assert.equal(expired.status, 401);
      assert.equal(expired.body.errors[0].code, 'Neo.ClientError.Security.TokenExpired');
      assert.equal(await boltRead(boltUrl, neo4j.auth.bearer(jwt)), 'Neo.ClientError.Security.TokenExpired');
    } finally {
      clockAhead = 0;
    }
  });

  it('cluster tokens carry the requested role and, with the opt-in, do not expire unless asked', async () => {
    const minted = await request(`${t.url}/api/v1/auth/cluster-token`, {
      method: 'POST',
      headers: ROOT,
      json: { node_id: 'node-2', role: 'viewer' },
    });
    assert.equal(minted.status, 200);
    assert.equal(minted.body.expires_at, null);
    const claims = JSON.parse(Buffer.from((minted.body.token as string).split('.')[1], 'base64url').toString()) as Record<string, unknown>;
    assert.equal(claims.exp, undefined);
    const me = await request(`${t.url}/auth/me`, { headers: bearer(minted.body.token) });
    assert.deepEqual([me.body.username, me.body.roles], ['cluster:node-2', ['viewer']]);
    const write = await commit(t.url, ['CREATE ()'], 'graphdb', bearer(minted.body.token));
    assert.equal(write.body.errors[0].code, 'Neo.ClientError.Security.Forbidden');
    const expiring = await request(`${t.url}/api/v1/auth/cluster-token`, {
      method: 'POST',
      headers: ROOT,
      json: { node_id: 'n', role: 'viewer', expires_in: 60 },
    });
    assert.equal(typeof expiring.body.expires_at, 'string');
  });

  it('service accounts: create, get, patch; they authenticate with id and secret', async () => {
    const created = await request(`${t.url}/api/v1/service-accounts`, {
      method: 'POST',
      headers: ROOT,
      json: { id: 'etl', secret: 'etl-secret', role: 'editor' },
    });
    assert.equal(created.status, 201);
    assert.deepEqual(created.body, { id: 'etl', role: 'editor', roles: ['editor'], disabled: false });
    assert.equal((await commit(t.url, ['CREATE (:Etl)'], 'graphdb', basic('etl', 'etl-secret'))).body.errors.length, 0);
    const got = await request(`${t.url}/api/v1/service-accounts/etl`, { headers: ROOT });
    assert.equal(got.body.role, 'editor');
    const patched = await request(`${t.url}/api/v1/service-accounts/etl`, { method: 'PATCH', headers: ROOT, json: { role: 'viewer' } });
    assert.equal(patched.body.role, 'viewer');
    assert.equal(
      (await commit(t.url, ['CREATE (:Etl)'], 'graphdb', basic('etl', 'etl-secret'))).body.errors[0].code,
      'Neo.ClientError.Security.Forbidden',
    );
    await request(`${t.url}/api/v1/service-accounts/etl`, { method: 'PATCH', headers: ROOT, json: { disabled: true } });
    assert.equal((await request(`${t.url}/auth/me`, { headers: basic('etl', 'etl-secret') })).status, 401);
    assert.equal(
      (await request(`${t.url}/api/v1/service-accounts/vi`, { headers: ROOT })).status,
      404,
      'a person is not a service account',
    );
  });
});

describe('security events', () => {
  it('forwarded headers from an untrusted peer do not change the client IP in the audit log', async () => {
    const logs: Record<string, unknown>[] = [];
    const t = await startTestServer(
      { 'auth.enabled': true, 'server.trusted_proxies': ['10.9.9.9'] },
      { GRAPHDB_AUTH: 'root:rootpw' },
      { logs },
    );
    try {
      await request(`${t.url}/status`, {
        headers: { ...basic('mallory', 'guess'), 'x-forwarded-for': '203.0.113.7', 'x-real-ip': '203.0.113.7' },
      });
      const event = logs.find((line) => line.type === 'failed_login' && line.username === 'mallory');
      assert.ok(event, JSON.stringify(logs));
      assert.match(String(event.ip), /^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/);
      assert.equal(event.reason, 'wrong username or password');
    } finally {
      await t.stop();
    }
  });

  it('a trusted proxy supplies the client IP', async () => {
    const logs: Record<string, unknown>[] = [];
    const t = await startTestServer(
      { 'auth.enabled': true, 'server.trusted_proxies': ['127.0.0.0/8', '::1'] },
      { GRAPHDB_AUTH: 'root:rootpw' },
      { logs },
    );
    try {
      await request(`${t.url}/status`, { headers: { ...basic('mallory', 'guess'), 'x-real-ip': '203.0.113.7' } });
      assert.equal(logs.find((line) => line.type === 'failed_login')?.ip, '203.0.113.7');
    } finally {
      await t.stop();
    }
  });

  it('locks an account after repeated failures, refuses with 429 and counts graphdb_rate_limit_hits_total', async () => {
    const logs: Record<string, unknown>[] = [];
    const t = await startTestServer({ 'auth.enabled': true }, { GRAPHDB_AUTH: 'root:rootpw' }, { logs });
    try {
      await request(`${t.url}/admin/users`, {
        method: 'POST',
        headers: ROOT,
        json: { username: 'vi', password: 'vi-pw', roles: ['viewer'] },
      });
      for (let i = 0; i < 5; i++) assert.equal((await request(`${t.url}/status`, { headers: basic('vi', `bad${i}`) })).status, 401);
      const locked = await request(`${t.url}/status`, { headers: basic('vi', 'vi-pw') });
      assert.equal(locked.status, 429);
      assert.equal(locked.body.errors[0].code, 'Neo.ClientError.Security.AuthenticationRateLimit');
      assert.ok(logs.some((line) => line.type === 'login_locked' && line.username === 'vi'));
      const metrics = await request(`${t.url}/metrics`, { headers: ROOT });
      assert.match(metrics.text, /graphdb_rate_limit_hits_total 1\b/);
      assert.ok(
        logs.some((line) => line.type === 'user_created' && line.actor === 'root'),
        'administrative audit record',
      );
    } finally {
      await t.stop();
    }
  });

  it('refuses to start with auth enabled and no JWT secret', async () => {
    await assert.rejects(startTestServer({ 'auth.enabled': true, 'auth.jwt_secret': '' }), /GRAPHDB_JWT_SECRET is not set/);
  });
});
