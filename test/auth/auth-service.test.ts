import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GraphDB } from '../../src/engine/index.js';
import { AuthService, hashPassword, verifyPasswordHash, type AuditEvent } from '../../src/engine/auth/index.js';
import { StatusCodes } from '../../src/engine/errors/index.js';

const SECRET = 'x'.repeat(40);
const FAST = { N: 1024, r: 8, p: 1 };

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
  return 'ok';
}

describe('password hashing', () => {
  it('stores scrypt hashes with a random salt and verifies them', async () => {
    const a = await hashPassword('s3cret', FAST);
    const b = await hashPassword('s3cret', FAST);
    assert.match(a, /^scrypt\$1024\$8\$1\$/);
    assert.notEqual(a, b);
    assert.equal(a.includes('s3cret'), false);
    assert.equal(await verifyPasswordHash('s3cret', a), true);
    assert.equal(await verifyPasswordHash('S3cret', a), false);
    assert.equal(await verifyPasswordHash('s3cret', 'plain'), false);
  });
});

describe('AuthService', () => {
  let db: GraphDB;
  let auth: AuthService;
  let now = Date.now();
  const events: AuditEvent[] = [];

  before(async () => {
    db = await GraphDB.open();
    auth = await AuthService.open({
      systemSession: () => db.session({ database: 'system' }),
      jwtSecret: SECRET,
      initialCredentials: 'root:rootpw',
      audit: (event) => events.push(event),
      guard: { maxFailuresPerUser: 3, maxFailuresPerIp: 100, lockoutMs: 60_000 },
      scryptCost: FAST,
      now: () => now,
    });
  });
  after(async () => db.close());

  it('seeds the initial admin into the system database, hashed', async () => {
    const principal = await auth.authenticatePassword('root', 'rootpw', '10.0.0.1');
    assert.deepEqual(principal.context.roles, ['admin']);
    const session = db.session({ database: 'system' });
    const result = await session.run('MATCH (u:_User {name: "root"}) RETURN u.passwordHash AS h');
    const { records } = await result.pull(-1);
    assert.match(records[0][0] as string, /^scrypt\$/);
  });

  it('refuses a wrong password with Unauthorized and audits username, ip and reason', async () => {
    assert.equal(await codeOf(auth.authenticatePassword('root', 'nope', '10.0.0.2')), StatusCodes.Unauthorized);
    const event = events.find((e) => e.type === 'failed_login' && e.ip === '10.0.0.2');
    assert.deepEqual({ username: event?.username, reason: event?.reason }, { username: 'root', reason: 'wrong username or password' });
  });

  it('locks an account after repeated failures, even for the right password, until the lockout passes', async () => {
    await auth.createUser('carol', 'pw-carol', ['viewer'], 'root');
    for (let i = 0; i < 3; i++) await codeOf(auth.authenticatePassword('carol', 'bad', '10.0.0.3'));
    assert.equal(await codeOf(auth.authenticatePassword('carol', 'pw-carol', '10.0.0.3')), StatusCodes.AuthenticationRateLimit);
    assert.ok(events.some((e) => e.type === 'login_locked' && e.username === 'carol'));
    now += 61_000;
    assert.equal(await codeOf(auth.authenticatePassword('carol', 'pw-carol', '10.0.0.3')), 'ok');
  });

  it('authorizes statements by kind through the engine session', async () => {
    await auth.createUser('vic', 'pw', ['viewer'], 'root');
    const viewer = (await auth.authenticatePassword('vic', 'pw', null)).context;
    const session = db.session({ security: viewer });
    assert.equal(await codeOf(session.run('MATCH (n) RETURN n')), 'ok');
    assert.equal(await codeOf(session.run('CREATE (n)')), StatusCodes.Forbidden);
    assert.equal(await codeOf(session.run('MATCH (n) DELETE n')), StatusCodes.Forbidden);
    assert.equal(await codeOf(session.run('CREATE INDEX FOR (n:L) ON (n.p)')), StatusCodes.Forbidden);
    assert.equal(await codeOf(db.session({ security: viewer, database: 'system' }).run('MATCH (n) RETURN n')), StatusCodes.Forbidden);
  });

  it('issues, verifies and revokes tokens; a tampered token is refused', async () => {
    const issued = await auth.issueUserToken('root', 'access', 60);
    const principal = await auth.authenticateToken(issued.token, null);
    assert.equal(principal.context.username, 'root');
    const [header, payload, signature] = issued.token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'carol' })).toString('base64url');
    assert.equal(await codeOf(auth.authenticateToken(`${header}.${forged}.${signature}`, null)), StatusCodes.Unauthorized);
    await auth.revokeToken(principal.token!, 'root');
    assert.equal(await codeOf(auth.authenticateToken(issued.token, null)), StatusCodes.Unauthorized);
  });

  it('expires tokens', async () => {
    const issued = await auth.issueUserToken('root', 'access', 5);
    now += 10_000;
    assert.equal(await codeOf(auth.authenticateToken(issued.token, null)), StatusCodes.TokenExpired);
  });

  it('keeps state across a reopen of the store (users, roles, allowlists, revocations)', async () => {
    await auth.createRole('analyst', ['read'], 'root');
    await auth.setRoleDatabases('analyst', ['graphdb'], 'root');
    const reopened = await AuthService.open({
      systemSession: () => db.session({ database: 'system' }),
      jwtSecret: SECRET,
      scryptCost: FAST,
    });
    assert.deepEqual(
      reopened.listRoles().find((r) => r.name === 'analyst'),
      { name: 'analyst', permissions: ['read'], databases: ['graphdb'], builtin: false },
    );
    assert.deepEqual(
      reopened.listUsers().map((u) => u.username),
      ['carol', 'root', 'vic'],
    );
  });
});

describe('permissions asked of the security context', () => {
  it('are derived from the analysed statement, not the text', async () => {
    const db = await GraphDB.open();
    try {
      const asked = async (text: string) => {
        const actions = new Set<string>();
        const recorder = {
          username: 'probe',
          roles: [],
          authorizeAccess: (
            _database: string,
            access: { readonly requirements: readonly { readonly action: string; readonly privilege?: string }[] },
          ) => {
            for (const r of access.requirements) actions.add(r.privilege ?? r.action);
          },
        };
        const result = await db.session({ security: recorder }).run(text);
        await result.pull(-1);
        return [...actions].sort();
      };
      assert.deepEqual(await asked('MATCH (n) RETURN n'), ['read', 'traverse']);
      assert.deepEqual(await asked("RETURN 'CREATE (n)' AS text"), []);
      assert.deepEqual(await asked('CREATE (n)'), ['create_element']);
      assert.deepEqual(await asked('MERGE (n:A) SET n.x = 1'), ['create_element', 'set_property', 'traverse']);
      assert.deepEqual(await asked('MATCH (n:Nothing) DETACH DELETE n'), ['delete_element', 'traverse']);
      assert.deepEqual(await asked('MATCH (n:Nothing) FOREACH (x IN [1] | CREATE ())'), ['create_element', 'traverse']);
      assert.deepEqual(await asked('MATCH (n:Nothing) SET n:L REMOVE n:M'), ['remove_label', 'set_label', 'traverse']);
      assert.deepEqual(await asked('CREATE INDEX FOR (n:A) ON (n.p)'), ['index']);
      assert.deepEqual(await asked('CREATE DATABASE xyz'), ['create_database']);
      assert.deepEqual(await asked('SHOW DATABASES'), []);
      assert.deepEqual(await asked('SHOW INDEXES'), ['show_index']);
      assert.deepEqual(await asked('CALL db.labels()'), ['execute', 'read', 'traverse']);
    } finally {
      await db.close();
    }
  });
});
