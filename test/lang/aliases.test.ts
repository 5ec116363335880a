/**
 * Database aliases end to end on a real server (auth on, Bolt and HTTP): CREATE/ALTER/DROP
 * ALIAS, SHOW ALIASES, the aliases column of SHOW DATABASES, resolution through the
 * neo4j-driver's `database` (bolt:// and neo4j:// routing, auto-commit and explicit
 * transactions), `USE alias`, HTTP `/db/{alias}/tx/commit`, Neo4j's errors, and RBAC
 * allowlists (a grant on an alias applies to its target).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import neo4j, { type Driver } from 'neo4j-driver';
import { commit, request, startTestServer, type TestServer } from '../http/helpers.js';

const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });
const ROOT = basic('root', 'rootpw');

describe('database aliases over Bolt and HTTP', () => {
  let t: TestServer;
  let boltUrl: string;
  let root: Driver;

  /** Runs one statement as root on `database` and returns the records as objects. */
  async function run(statement: string, database = 'system', parameters: Record<string, unknown> = {}): Promise<Record<string, unknown>[]> {
    const session = root.session({ database });
    try {
      const result = await session.run(statement, parameters);
      return result.records.map((r) => r.toObject());
    } finally {
      await session.close();
    }
  }

  /** The status code a statement fails with as root on `database` ('ok' when it succeeds). */
  async function outcome(statement: string, database = 'system', driver: Driver = root): Promise<string> {
    const session = driver.session({ database });
    try {
      await session.run(statement);
      return 'ok';
    } catch (error) {
      return (error as { code?: string }).code ?? String(error);
    } finally {
      await session.close();
    }
  }

  const count = async (database: string): Promise<number> => Number((await run('MATCH (n) RETURN count(n) AS c', database))[0].c);

  before(async () => {
    t = await startTestServer(
      {
        'auth.enabled': true,
        'server.bolt_enabled': true,
        'server.bolt_port': 0,
        'server.bolt_address': '127.0.0.1',
        'async_writes.enabled': false,
        'database.home_alias': '',
      },
      { GRAPHDB_AUTH: 'root:rootpw' },
    );
    boltUrl = `bolt://127.0.0.1:${t.server.bolt!.port}`;
    root = neo4j.driver(boltUrl, neo4j.auth.basic('root', 'rootpw'));
    await run('CREATE DATABASE tenant1');
    await run('CREATE DATABASE tenant2');
    await run("CREATE ALIAS myalias FOR DATABASE tenant1 PROPERTIES {team: 'core', tier: 2}");
  });
  after(async () => {
    await root.close();
    await t.stop();
  });

  it('SHOW ALIASES lists Neo4j columns and SHOW DATABASES names the aliases of each database', async () => {
    const rows = await run('SHOW ALIASES FOR DATABASES YIELD *');
    assert.deepEqual(Object.keys(rows[0]), [
      'name',
      'composite',
      'database',
      'location',
      'url',
      'user',
      'driver',
      'defaultLanguage',
      'properties',
    ]);
    assert.deepEqual(
      rows.map((r) => [r.name, r.database, r.location, r.composite, r.url]),
      [['myalias', 'tenant1', 'local', null, null]],
    );
    const properties = rows[0].properties as Record<string, unknown>;
    assert.equal(properties.team, 'core');
    assert.ok(neo4j.int(2).equals(properties.tier as never));
    const byDefault = await run('SHOW ALIASES FOR DATABASE');
    assert.deepEqual(Object.keys(byDefault[0]), ['name', 'composite', 'database', 'location', 'url', 'user']);
    const databases = await run('SHOW DATABASES YIELD name, aliases WHERE name STARTS WITH "tenant"');
    assert.deepEqual(databases, [
      { name: 'tenant1', aliases: ['myalias'] },
      { name: 'tenant2', aliases: [] },
    ]);
  });

  it('the driver database "myalias" reads and writes the target (auto-commit, executeWrite, neo4j:// routing)', async () => {
    const before = await count('tenant1');
    const session = root.session({ database: 'myalias' });
    try {
      const created = await session.run('CREATE (n:ViaAlias {k: 1}) RETURN n.k AS k');
      assert.equal(created.summary.counters.updates().nodesCreated, 1);
      await session.executeWrite((tx) => tx.run('CREATE (:ViaAlias {k: 2})'));
    } finally {
      await session.close();
    }
    assert.equal(await count('tenant1'), before + 2);
    const routed = neo4j.driver(`neo4j://127.0.0.1:${t.server.bolt!.port}`, neo4j.auth.basic('root', 'rootpw'));
    try {
      const routedSession = routed.session({ database: 'myalias' });
      const k = await routedSession.executeRead(async (tx) =>
        (await tx.run('MATCH (n:ViaAlias) RETURN sum(n.k) AS k')).records[0].get('k'),
      );
      assert.ok(neo4j.int(3).equals(k));
      await routedSession.close();
    } finally {
      await routed.close();
    }
  });

  it('USE alias and HTTP /db/{alias}/tx/commit resolve to the target', async () => {
    const used = await run('USE myalias MATCH (n:ViaAlias) RETURN count(n) AS c', 'graphdb');
    assert.equal(Number(used[0].c), 2);
    const response = await commit(t.url, ['CREATE (:ViaHttp) RETURN 1 AS one', 'MATCH (n:ViaHttp) RETURN count(n) AS c'], 'myalias', ROOT);
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body.errors, []);
    assert.equal(response.body.results[1].data[0].row[0], 1);
    assert.equal(Number((await run('MATCH (n:ViaHttp) RETURN count(n) AS c', 'tenant1'))[0].c), 1);
    const missing = await commit(t.url, ['RETURN 1'], 'noalias', ROOT);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.errors[0].code, 'Neo.ClientError.Database.DatabaseNotFound');
  });

  it('errors follow Neo4j: clashing names, unknown targets, alias chains, dropping a database with aliases', async () => {
    assert.equal(await outcome('CREATE ALIAS graphdb FOR DATABASE tenant1'), 'Neo.ClientError.Database.ExistingDatabaseFound');
    assert.equal(await outcome('CREATE ALIAS myalias FOR DATABASE tenant2'), 'Neo.ClientError.Database.ExistingDatabaseFound');
    assert.equal(await outcome('CREATE ALIAS myalias IF NOT EXISTS FOR DATABASE tenant2'), 'ok');
    assert.equal(await outcome('CREATE DATABASE myalias'), 'Neo.ClientError.Database.ExistingDatabaseFound');
    assert.equal(await outcome('CREATE ALIAS other FOR DATABASE nosuchdb'), 'Neo.ClientError.Database.DatabaseNotFound');
    assert.equal(await outcome('CREATE ALIAS chained FOR DATABASE myalias'), 'Neo.ClientError.Database.IllegalAliasChain');
    assert.equal(await outcome('DROP ALIAS nosuch FOR DATABASE'), 'Neo.ClientError.Database.DatabaseNotFound');
    assert.equal(await outcome('DROP ALIAS nosuch IF EXISTS FOR DATABASE'), 'ok');
    assert.equal(await outcome('DROP DATABASE tenant1'), 'Neo.ClientError.Database.ExistingAliasFound');
    assert.equal(await outcome('ALTER ALIAS nosuch SET DATABASE TARGET tenant2'), 'Neo.ClientError.Database.DatabaseNotFound');
    assert.equal(await outcome('ALTER ALIAS nosuch IF EXISTS SET DATABASE TARGET tenant2'), 'ok');
    assert.equal((await run('SHOW ALIASES FOR DATABASES')).length, 1, 'no failed command left an alias behind');
  });

  it('RBAC: a grant on the alias applies to its target; alias administration needs admin', async () => {
    const post = (path: string, json: unknown) => request(`${t.url}${path}`, { method: 'POST', headers: ROOT, json });
    assert.equal((await post('/admin/roles', { name: 'aliasreader', permissions: ['read'], databases: ['myalias'] })).status, 201);
    assert.equal((await post('/admin/users', { username: 'ar', password: 'ar-pw', roles: ['aliasreader'] })).status, 201);
    assert.equal((await post('/admin/roles', { name: 'targetreader', permissions: ['read'], databases: ['tenant1'] })).status, 201);
    assert.equal((await post('/admin/users', { username: 'tr', password: 'tr-pw', roles: ['targetreader'] })).status, 201);
    const forbidden = 'Neo.ClientError.Security.Forbidden';
    for (const user of ['ar', 'tr']) {
      const driver = neo4j.driver(boltUrl, neo4j.auth.basic(user, `${user}-pw`));
      try {
        assert.equal(await outcome('MATCH (n) RETURN count(n)', 'myalias', driver), 'ok', `${user} reads through the alias`);
        assert.equal(await outcome('MATCH (n) RETURN count(n)', 'tenant1', driver), 'ok', `${user} reads the target`);
        assert.equal(await outcome('MATCH (n) RETURN count(n)', 'tenant2', driver), forbidden, `${user} on another database`);
        assert.equal(await outcome('CREATE (:X)', 'myalias', driver), forbidden, `${user} cannot write`);
        assert.equal(
          await outcome('CREATE ALIAS mine FOR DATABASE tenant1', 'myalias', driver),
          forbidden,
          `${user} cannot create aliases`,
        );
        assert.equal(await outcome('SHOW ALIASES FOR DATABASES', 'myalias', driver), forbidden, `${user} cannot list aliases`);
      } finally {
        await driver.close();
      }
      const http = await commit(t.url, ['MATCH (n) RETURN count(n) AS c'], 'myalias', basic(user, `${user}-pw`));
      assert.deepEqual(http.body.errors, [], `${user} over HTTP through the alias`);
    }
  });

  it('ALTER ALIAS retargets, CREATE OR REPLACE replaces, DROP ALIAS removes the name', async () => {
    await run('ALTER ALIAS myalias SET DATABASE TARGET tenant2');
    await run('CREATE (:InTenant2)', 'myalias');
    assert.equal(Number((await run('MATCH (n:InTenant2) RETURN count(n) AS c', 'tenant2'))[0].c), 1);
    assert.equal(Number((await run('MATCH (n:InTenant2) RETURN count(n) AS c', 'tenant1'))[0].c), 0);
    await run('ALTER ALIAS myalias SET DATABASE PROPERTIES {moved: true}');
    const altered = await run('SHOW ALIASES myalias FOR DATABASES YIELD name, database, properties');
    assert.deepEqual(altered, [{ name: 'myalias', database: 'tenant2', properties: { moved: true } }]);
    await run('CREATE OR REPLACE ALIAS myalias FOR DATABASE tenant1');
    assert.deepEqual(await run('SHOW ALIASES FOR DATABASES YIELD name, database'), [{ name: 'myalias', database: 'tenant1' }]);
    await run('DROP ALIAS myalias FOR DATABASE');
    assert.equal(await outcome('RETURN 1', 'myalias'), 'Neo.ClientError.Database.DatabaseNotFound');
    assert.deepEqual(await run('SHOW ALIASES FOR DATABASES'), []);
    await run('CREATE ALIAS second FOR DATABASE tenant2');
    await run('DROP DATABASE tenant2 CASCADE ALIASES');
    assert.deepEqual(await run('SHOW ALIASES FOR DATABASES'), [], 'CASCADE ALIASES dropped the alias with its database');
  });
});
