import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GraphDB, type SecurityContext } from '../../src/engine/index.js';
import { AuthService, securityAdmin } from '../../src/engine/auth/index.js';
import { print } from '../../src/engine/cypher/ast/index.js';
import { parse } from '../../src/engine/cypher/parser/index.js';

const FAST = { N: 1024, r: 8, p: 1 };

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
    auth = await AuthService.open({
      systemSession: () => db.session({ database: 'system' }),
      jwtSecret: null,
      initialCredentials: 'root:pw',
      scryptCost: FAST,
    });
    db.setSecurityAdministration((security) => securityAdmin(auth, security));
    admin = (await auth.authenticatePassword('root', 'pw', null)).context;
  });
  after(() => db.close());

  it('CREATE USER, GRANT ROLE, SHOW USERS; the new user can log in with its roles', async () => {
    const created = await rows('CREATE USER bob SET PASSWORD $pw', admin, { pw: 'bob-pw' });
    assert.equal(created.summary.counters.systemUpdates, 1);
    await rows('GRANT ROLE editor TO bob');
    const shown = await rows('SHOW USERS');
    assert.deepEqual(shown.keys, ['user', 'roles', 'passwordChangeRequired', 'suspended', 'home']);
    assert.deepEqual(
      shown.records.map((r) => [r[0], r[1]]),
      [
        ['bob', ['PUBLIC', 'editor']],
        ['root', ['PUBLIC', 'admin']],
      ],
    );
    const bob = (await auth.authenticatePassword('bob', 'bob-pw', null)).context;
    assert.deepEqual(bob.roles, ['editor']);
    const current = await rows('SHOW CURRENT USER', bob);
    assert.deepEqual(current.records[0]?.slice(0, 2), ['bob', ['PUBLIC', 'editor']]);
    const yielded = await rows("SHOW USERS YIELD user, roles WHERE user = 'bob' RETURN user, size(roles) AS n");
    assert.deepEqual(yielded.records, [['bob', 2n]]);
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
    await assert.rejects(rows('DROP ROLE auditors'), /Failed to delete the specified role 'auditors': Role does not exist/);
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
    await assert.rejects(
      rows("CREATE USER eve SET PASSWORD 'x'", viewer),
      (error: { code?: string }) => error.code === 'Neo.ClientError.Security.Forbidden',
    );
    await assert.rejects(rows('SHOW USERS', viewer), (error: { code?: string }) => error.code === 'Neo.ClientError.Security.Forbidden');
    assert.equal((await rows('SHOW CURRENT USER', viewer)).records[0]?.[0], 'vi');
  });

  it('the commands are Cypher statements: parsed, printed and parsed again to the same text', () => {
    for (const text of [
      "CREATE USER bob IF NOT EXISTS SET PASSWORD 'pw' CHANGE NOT REQUIRED SET STATUS SUSPENDED SET HOME DATABASE db1",
      'ALTER USER $u SET PASSWORD $p',
      "ALTER CURRENT USER SET PASSWORD FROM 'a' TO 'b'",
      'RENAME USER a TO b',
      'CREATE ROLE r IF NOT EXISTS AS COPY OF reader',
      'GRANT ROLES a, `b-c` TO x, y',
      'GRANT MATCH {name, age} ON GRAPH neo4j NODES Person TO r',
      'DENY READ {secret} ON GRAPH * RELATIONSHIPS T TO r',
      'REVOKE GRANT WRITE ON GRAPH * FROM r',
      'GRANT ACCESS ON HOME DATABASE TO r',
      'GRANT CREATE USER ON DBMS TO r',
      'GRANT EXECUTE PROCEDURE db.* ON DBMS TO r',
      'GRANT LOAD ON ALL DATA TO r',
      'SHOW ROLE r PRIVILEGES AS COMMANDS',
      'SHOW USER bob PRIVILEGES',
      'SHOW POPULATED ROLES WITH USERS',
    ]) {
      const once = print(parse(text));
      assert.equal(print(parse(once)), once, text);
    }
  });

  it('ordinary statements still go to the Cypher parser', async () => {
    const result = await rows('CREATE (n:User {name: "x"}) RETURN n.name AS name');
    assert.deepEqual(result.records, [['x']]);
  });
});
