/**
 * User, role and privilege commands end to end in the engine: password change required, own
 * password change, renames, privileges that survive a restart, LOAD, aliases and home databases.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { GraphDB, type SecurityContext } from '../../src/engine/index.js';
import { AuthService, securityAdmin } from '../../src/engine/auth/index.js';

const FAST = { N: 1024, r: 8, p: 1 };
const FORBIDDEN = 'Neo.ClientError.Security.Forbidden';

async function open(dataDir: string): Promise<{ db: GraphDB; auth: AuthService }> {
  const db = await GraphDB.open({ dataDir });
  const auth = await AuthService.open({
    systemSession: () => db.session({ database: 'system' }),
    jwtSecret: null,
    initialCredentials: 'root:pw',
    scryptCost: FAST,
    defaultDatabase: db.defaultDatabase,
    resolveDatabase: (name) => db.databaseServices.resolve(name),
  });
  db.setSecurityAdministration((security) => securityAdmin(auth, security));
  return { db, auth };
}

describe('security commands', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'graphdb-privileges-'));
  let db: GraphDB;
  let auth: AuthService;
  let root: SecurityContext;

  const run = async (query: string, security: SecurityContext = root, parameters: Record<string, string> = {}, database?: string) => {
    const session = db.session({ security, ...(database ? { database } : {}) });
    try {
      const result = await session.run(query, parameters);
      const records = (await result.pull(-1)).records;
      return { records, summary: await result.discard() };
    } finally {
      await session.close();
    }
  };
  const code = async (query: string, security: SecurityContext, database?: string): Promise<string> => {
    try {
      await run(query, security, {}, database);
      return 'ok';
    } catch (error) {
      return (error as { code?: string }).code ?? String(error);
    }
  };
  const login = async (user: string, password: string) => (await auth.authenticatePassword(user, password, null)).context;

  before(async () => {
    ({ db, auth } = await open(dataDir));
    root = await login('root', 'pw');
    await db.createDatabase('tenant');
  });
  after(async () => {
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('CREATE USER defaults to CHANGE REQUIRED: only ALTER CURRENT USER works until the password is changed', async () => {
    await run("CREATE USER carol SET PASSWORD 'first-pw'");
    await run('GRANT ROLE reader TO carol');
    assert.deepEqual((await run("SHOW USERS YIELD user, passwordChangeRequired WHERE user = 'carol'")).records, [['carol', true]]);
    const carol = await login('carol', 'first-pw');
    assert.equal(await code('MATCH (n) RETURN count(n)', carol), 'Neo.ClientError.Security.CredentialsExpired');
    assert.equal((await run('SHOW CURRENT USER YIELD user', carol)).records[0]?.[0], 'carol');
    await assert.rejects(run("ALTER CURRENT USER SET PASSWORD FROM 'wrong' TO 'second-pw'", carol), /Invalid principal or credentials/);
    const changed = await run("ALTER CURRENT USER SET PASSWORD FROM 'first-pw' TO 'second-pw'", carol);
    assert.equal(changed.summary.counters.systemUpdates, 1);
    assert.equal(await code('MATCH (n) RETURN count(n)', carol), 'ok');
    await assert.rejects(login('carol', 'first-pw'));
    assert.equal((await login('carol', 'second-pw')).username, 'carol');
  });

  it('RENAME USER and RENAME ROLE keep memberships and privileges', async () => {
    await run('CREATE ROLE temp');
    await run('GRANT TRAVERSE ON GRAPH * NODES Person TO temp');
    await run("CREATE USER dave SET PASSWORD 'd' CHANGE NOT REQUIRED");
    await run('GRANT ROLE temp TO dave');
    await run('RENAME ROLE temp TO people');
    await run('RENAME USER dave TO david');
    assert.deepEqual((await run("SHOW USERS YIELD user, roles WHERE user = 'david'")).records, [['david', ['PUBLIC', 'people']]]);
    assert.deepEqual((await run('SHOW ROLE people PRIVILEGES AS COMMANDS')).records, [
      ['GRANT TRAVERSE ON GRAPH * NODE Person TO `people`'],
    ]);
    await assert.rejects(run('RENAME ROLE reader TO r2'), /built-in roles cannot be renamed/);
    await assert.rejects(run('DROP USER root', root), /Deleting yourself is not allowed/);
    await assert.rejects(run('GRANT ROLE PUBLIC TO david'), /reserved role/);
  });

  it('privileges are scoped per database, and an alias names its database', async () => {
    await run('CREATE ALIAS tenantalias FOR DATABASE tenant');
    await run('CREATE ROLE tenantreader');
    await run('GRANT ACCESS ON DATABASE tenantalias TO tenantreader');
    await run('GRANT MATCH {*} ON GRAPH tenantalias TO tenantreader');
    await run("CREATE USER tim SET PASSWORD 't' CHANGE NOT REQUIRED SET HOME DATABASE tenant");
    await run('GRANT ROLE tenantreader TO tim');
    const tim = await login('tim', 't');
    await run("CREATE (:Doc {title: 'x'})", root, {}, 'tenant');
    assert.deepEqual((await run('MATCH (d:Doc) RETURN d.title', tim, {}, 'tenant')).records, [['x']]);
    assert.equal(await code('MATCH (d:Doc) RETURN d.title', tim), FORBIDDEN);
    assert.equal(await code('CREATE (:Doc)', tim, 'tenant'), FORBIDDEN);
    assert.deepEqual((await run('MATCH (d:Doc) RETURN count(d)', root, {}, 'tenant')).records, [[1n]]);
    const mine = await run('SHOW USER PRIVILEGES YIELD action, graph, role WHERE role = $r', tim, { r: 'tenantreader' });
    assert.deepEqual(mine.records.map((r) => `${r[0] as string} ${r[1] as string}`).sort(), [
      'access tenantalias',
      'match tenantalias',
      'match tenantalias',
    ]);
    assert.equal(await code('SHOW USER root PRIVILEGES', tim), FORBIDDEN);
  });

  it('LOAD: a DENY refuses LOAD CSV before anything is opened', async () => {
    await run('CREATE ROLE noload');
    await run('DENY LOAD ON ALL DATA TO noload');
    await run("CREATE USER lou SET PASSWORD 'l' CHANGE NOT REQUIRED");
    await run('GRANT ROLES reader, noload TO lou');
    const lou = await login('lou', 'l');
    await assert.rejects(
      run("LOAD CSV FROM 'file:///people.csv' AS r RETURN r", lou),
      /LOAD on URL 'file:\/\/\/people.csv' is denied for user 'lou'/,
    );
    await assert.rejects(
      run('LOAD CSV FROM $u AS r RETURN r', lou, { u: 'file:///people.csv' }),
      (e: { code?: string }) => e.code === FORBIDDEN,
    );
  });

  it('REVOKE removes a granted privilege; GRANT of the same privilege twice is one privilege', async () => {
    await run('CREATE ROLE twice');
    const first = await run('GRANT SET LABEL Tag ON GRAPH * TO twice');
    const second = await run('GRANT SET LABEL Tag ON GRAPH * TO twice');
    assert.deepEqual([first.summary.counters.systemUpdates, second.summary.counters.systemUpdates], [1, 0]);
    assert.equal((await run('SHOW ROLE twice PRIVILEGES')).records.length, 1);
    await run('REVOKE GRANT SET LABEL Tag ON GRAPH * FROM twice');
    assert.equal((await run('SHOW ROLE twice PRIVILEGES')).records.length, 0);
    await assert.rejects(run('GRANT WRITE ON GRAPH * TO nosuchrole'), /Role 'nosuchrole' does not exist/);
  });

  it('privileges, roles and users survive a restart', async () => {
    await db.close();
    ({ db, auth } = await open(dataDir));
    root = await login('root', 'pw');
    assert.deepEqual((await run('SHOW ROLE people PRIVILEGES AS COMMANDS')).records, [
      ['GRANT TRAVERSE ON GRAPH * NODE Person TO `people`'],
    ]);
    const tim = await login('tim', 't');
    assert.deepEqual((await run('MATCH (d:Doc) RETURN d.title', tim, {}, 'tenant')).records, [['x']]);
    assert.equal(await code('MATCH (d:Doc) RETURN d.title', tim), FORBIDDEN);
    assert.deepEqual((await run("SHOW USERS YIELD user, home WHERE user = 'tim'")).records, [['tim', 'tenant']]);
  });
});
