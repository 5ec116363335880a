/**
 * Auth hardening, written as the attacks:
 * - a third party sends wrong passwords for `root` from its own address: `root` still logs in
 *   from another address (over HTTP, the addresses coming from a trusted proxy), while the
 *   attacker's pair is locked with a lock time that doubles per lock (backoff);
 * - a token minted without `exp` (signed with the server's own secret) is refused once older than
 *   the maximum token lifetime; cluster tokens never expire only with the explicit opt-in;
 * - an unknown username costs the same password hashing as a known one;
 * - the verified-password cache is keyed by an HMAC under a per-process key and bounded in bytes;
 * - secret settings are removed from the environment once read.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { GraphDB } from '../../src/engine/index.js';
import { AuthService } from '../../src/engine/auth/index.js';
import { VerifiedPasswords } from '../../src/engine/auth/verified-passwords.js';
import { removeSecretsFromEnvironment } from '../../src/engine/config/index.js';
import { StatusCodes } from '../../src/engine/errors/index.js';
import { request, startTestServer, type TestServer } from '../http/helpers.js';

const SECRET = 'test-jwt-secret-of-at-least-32-bytes!!';
const FAST = { N: 1024, r: 8, p: 1 };

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

describe('login lockout per (user, source address)', () => {
  let db: GraphDB;
  let auth: AuthService;
  let now = Date.now();
  before(async () => {
    db = await GraphDB.open();
    auth = await AuthService.open({
      systemSession: () => db.session({ database: 'system' }),
      jwtSecret: SECRET,
      initialCredentials: 'root:rootpw',
      guard: { maxFailuresPerUser: 3, maxFailuresPerIp: 1000, lockoutMs: 10_000, maxLockoutMs: 60_000 },
      scryptCost: FAST,
      now: () => now,
    });
  });
  after(() => db.close());

  it('a third party cannot lock root out from elsewhere; its own pair backs off', async () => {
    for (let i = 0; i < 3; i++)
      assert.equal(await codeOf(auth.authenticatePassword('root', 'guess', '203.0.113.9')), StatusCodes.Unauthorized);
    assert.equal(await codeOf(auth.authenticatePassword('root', 'rootpw', '203.0.113.9')), StatusCodes.AuthenticationRateLimit);
    assert.equal(await codeOf(auth.authenticatePassword('root', 'rootpw', '10.0.0.1')), 'ok');
    now += 10_001;
    for (let i = 0; i < 3; i++) await codeOf(auth.authenticatePassword('root', 'guess', '203.0.113.9'));
    now += 10_001;
    assert.equal(
      await codeOf(auth.authenticatePassword('root', 'rootpw', '203.0.113.9')),
      StatusCodes.AuthenticationRateLimit,
      'the second lock lasts twice as long',
    );
    now += 10_000;
    assert.equal(await codeOf(auth.authenticatePassword('root', 'rootpw', '203.0.113.9')), 'ok');
  });

  it('an unknown username costs a password hashing like a known one', async () => {
    const time = async (username: string) => {
      const start = performance.now();
      for (let i = 0; i < 5; i++) await codeOf(auth.authenticatePassword(username, `wrong-${i}`, `198.51.100.${i}`));
      return performance.now() - start;
    };
    await time('nobody');
    const known = await time('root');
    const unknown = await time('nobody-at-all');
    // Generous bounds for a loaded machine: the same order of magnitude, not a 20x gap.
    assert.ok(unknown > known / 4 && unknown < known * 4, `known ${known.toFixed(1)} ms, unknown ${unknown.toFixed(1)} ms`);
  });

  it('refuses a token without exp past the maximum lifetime', async () => {
    const key = new TextEncoder().encode(SECRET);
    const iat = Math.floor(now / 1000);
    const forever = await new SignJWT({ typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('root')
      .setJti('j-1')
      .setIssuer('graphdb')
      .setIssuedAt(iat)
      .sign(key);
    assert.equal(await codeOf(auth.authenticateToken(forever, null)), 'ok');
    now += 91 * 24 * 3600_000;
    assert.equal(await codeOf(auth.authenticateToken(forever, null)), StatusCodes.TokenExpired);
    const cluster = await auth.issueClusterToken('node-9', 'viewer', null, 'root');
    assert.equal(typeof cluster.claims.exp, 'number', 'without the opt-in a cluster token gets the maximum lifetime');
  });
});

describe('verified-password cache', () => {
  it('is keyed by a per-process HMAC and bounded in bytes', () => {
    const a = new VerifiedPasswords(10_000);
    const b = new VerifiedPasswords(10_000);
    a.add('root', 'pw', 'scrypt$hash');
    assert.equal(a.has('root', 'pw', 'scrypt$hash'), true);
    assert.equal(a.has('root', 'pw', 'scrypt$other'), false, 'a password change invalidates the entry');
    assert.equal(b.has('root', 'pw', 'scrypt$hash'), false);
    for (let i = 0; i < 1000; i++) a.add(`user${i}`, 'pw', 'scrypt$hash');
    assert.ok(a.size <= 10_000, String(a.size));
    assert.equal(a.has('user999', 'pw', 'scrypt$hash'), true);
    assert.equal(a.has('root', 'pw', 'scrypt$hash'), false);
  });
});

describe('secrets leave the environment once read', () => {
  it('removes every secret setting variable and nothing else', () => {
    const env: Record<string, string | undefined> = {
      GRAPHDB_AUTH: 'root:pw',
      GRAPHDB_JWT_SECRET: SECRET,
      GRAPHDB_EMBEDDING_API_KEY: 'k',
      GRAPHDB_DATA_DIR: '/d',
    };
    assert.deepEqual(removeSecretsFromEnvironment(env).sort(), ['GRAPHDB_AUTH', 'GRAPHDB_EMBEDDING_API_KEY', 'GRAPHDB_JWT_SECRET']);
    assert.deepEqual(env, { GRAPHDB_DATA_DIR: '/d' });
  });
});

describe('lockout over HTTP behind a trusted proxy', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer(
      { 'auth.enabled': true, 'server.trusted_proxies': ['127.0.0.1'], 'auth.max_failed_attempts': 5, 'auth.lock_time': '10m' },
      { GRAPHDB_AUTH: 'root:rootpw' },
    );
  });
  after(() => t.stop());

  const me = (password: string, from: string) =>
    request(`${t.url}/auth/me`, {
      headers: { authorization: `Basic ${Buffer.from(`root:${password}`).toString('base64')}`, 'x-forwarded-for': from },
    });

  it('five wrong passwords from one address do not lock root out from another', async () => {
    for (let i = 0; i < 5; i++) assert.equal((await me('wrong', '203.0.113.7')).status, 401);
    const attacker = await me('rootpw', '203.0.113.7');
    assert.equal(attacker.body.errors?.[0]?.code, StatusCodes.AuthenticationRateLimit, attacker.text);
    const admin = await me('rootpw', '192.0.2.10');
    assert.equal(admin.status, 200, admin.text);
  });
});
