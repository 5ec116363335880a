import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GraphDB, type SecurityContext } from '../../src/engine/index.js';
import { AuthService } from '../../src/engine/auth/index.js';
import { parseAuthCommand } from '../../src/engine/auth/commands/parse.js';
import { createAuthCommandRunner } from '../../src/engine/auth/commands/runner.js';

const FAST = { N: 1024, r: 8, p: 1 };

describe('parseAuthCommand', () => {
  it('parses the Neo4j user and role commands', () => {
    assert.deepEqual(parseAuthCommand("CREATE USER bob IF NOT EXISTS SET PLAINTEXT PASSWORD 'pw' CHANGE NOT REQUIRED SET STATUS SUSPENDED"), {
      command: 'CREATE USER',
      name: { literal: 'bob' },
      orReplace: false,
      ifNotExists: true,
      password: { literal: 'pw' },
      suspended: true,
    });
    assert.deepEqual(parseAuthCommand('ALTER USER $u SET PASSWORD $p'), { command: 'ALTER USER', name: { parameter: 'u' }, ifExists: false, password: { parameter: 'p' }, suspended: null });
    assert.deepEqual(parseAuthCommand('grant roles a, `b-c` to x, y;'), { command: 'GRANT ROLE', roles: [{ literal: 'a' }, { literal: 'b-c' }], users: [{ literal: 'x' }, { literal: 'y' }] });
    assert.deepEqual(parseAuthCommand('SHOW POPULATED ROLES WITH USERS'), { command: 'SHOW ROLES', populatedOnly: true, withUsers: true });
    assert.deepEqual(parseAuthCommand('DROP ROLE r IF EXISTS'), { command: 'DROP ROLE', name: { literal: 'r' }, ifExists: true });
  });

  it('leaves other statements alone and reports errors inside a recognised command', () => {
    assert.equal(parseAuthCommand('CREATE (n:User)'), null);
    assert.equal(parseAuthCommand('SHOW INDEXES'), null);
    assert.equal(parseAuthCommand('DROP DATABASE x'), null);
    assert.throws(() => parseAuthCommand('CREATE USER bob'), /CREATE USER needs SET PASSWORD/);
    assert.throws(() => parseAuthCommand('GRANT ROLE a bob'), /expected TO/);
  });
});

describe('user and role administration in Cypher', () => {
  let db: GraphDB;
  let auth: AuthService;
  let admin: SecurityContext;

  const rows = async (query: string, security: SecurityContext = admin, parameters: Record<string, string> = {}) => {
    const result = await db.session({ security }).run(query, parameters);
    return { keys: result.keys, records: (await result.pull(-1)).records, summary: await result.discard() };
  };

  before(async () => {
    db = await GraphDB.open();
    auth = await AuthService.open({ systemSession: () => db.session({ database: 'system' }), jwtSecret: null, initialCredentials: 'root:pw', scryptCost: FAST });
    db.setAuthCommandRunner(createAuthCommandRunner(auth));
    admin = (await auth.authenticatePassword('root', 'pw', null)).context;
  });
  after(() => db.close());

  it('CREATE USER, GRANT ROLE, SHOW USERS; the new user can log in with its roles', async () => {
    const created = await rows('CREATE USER bob SET PASSWORD $pw', admin, { pw: 'bob-pw' });
    assert.equal(created.summary.counters.systemUpdates, 1);
    await rows('GRANT ROLE editor TO bob');
    const shown = await rows('SHOW USERS');
    assert.deepEqual(shown.keys, ['user', 'roles', 'passwordChangeRequired', 'suspended', 'home']);
    assert.deepEqual(shown.records.map((r) => [r[0], r[1]]), [['bob', ['editor']], ['root', ['admin']]]);
    const bob = (await auth.authenticatePassword('bob', 'bob-pw', null)).context;
    assert.deepEqual(bob.roles, ['editor']);
    const current = await rows('SHOW CURRENT USER', bob);
    assert.deepEqual(current.records[0]?.slice(0, 2), ['bob', ['editor']]);
  });

  it('CREATE ROLE, SHOW ROLES WITH USERS, REVOKE ROLE, DROP ROLE', async () => {
    await rows('CREATE ROLE auditors');
    await rows('GRANT ROLE auditors TO bob');
    const shown = await rows('SHOW ROLES WITH USERS');
    assert.ok(shown.records.some((r) => r[0] === 'auditors' && r[1] === 'bob'));
    await rows('REVOKE ROLE auditors FROM bob');
    assert.deepEqual((await auth.user('bob'))?.roles, ['editor']);
    await rows('DROP ROLE auditors');
    assert.equal(auth.store.role('auditors'), null);
    await assert.rejects(rows('DROP ROLE auditors'), /Role does not exist/);
    await rows('DROP ROLE auditors IF EXISTS');
  });

  it('ALTER USER changes password and status; DROP USER removes the account', async () => {
    await rows("ALTER USER bob SET PASSWORD 'new-pw' SET STATUS SUSPENDED");
    await assert.rejects(auth.authenticatePassword('bob', 'new-pw', null), /unauthorized/i);
    await rows('ALTER USER bob SET STATUS ACTIVE');
    assert.equal((await auth.authenticatePassword('bob', 'new-pw', null)).context.username, 'bob');
    await rows('DROP USER bob');
    assert.equal(await auth.user('bob'), null);
    await assert.rejects(rows('CREATE USER root SET PASSWORD "x"'), /already exists/);
  });

  it('needs the admin permission, except SHOW CURRENT USER', async () => {
    await auth.createUser('vi', 'vi-pw', ['viewer'], null);
    const viewer = (await auth.authenticatePassword('vi', 'vi-pw', null)).context;
    await assert.rejects(rows("CREATE USER eve SET PASSWORD 'x'", viewer), (error: { code?: string }) => error.code === 'Neo.ClientError.Security.Forbidden');
    await assert.rejects(rows('SHOW USERS', viewer), (error: { code?: string }) => error.code === 'Neo.ClientError.Security.Forbidden');
    assert.equal((await rows('SHOW CURRENT USER', viewer)).records[0]?.[0], 'vi');
  });

  it('ordinary statements still go to the Cypher parser', async () => {
    const result = await rows('CREATE (n:User {name: "x"}) RETURN n.name AS name');
    assert.deepEqual(result.records, [['x']]);
  });
});
