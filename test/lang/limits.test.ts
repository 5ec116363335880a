/**
 * Per-database limits (ALTER DATABASE ... SET LIMIT, SHOW LIMITS): validation, storage in the
 * system database across a restart, and enforcement — node/relationship limits roll the whole
 * transaction back (auto-commit and explicit, over the neo4j-driver), max_query_time ends a
 * query with TransactionTimedOut, max_concurrent_queries refuses with a transient error.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import neo4j, { type Driver } from 'neo4j-driver';
import { GraphDB } from '../../src/engine/index.js';
import { securityContext } from '../../src/engine/auth/access-control.js';
import type { RoleDefinition } from '../../src/engine/auth/roles.js';
import type { CypherValue } from '../../src/engine/values/types.js';
import { startBoltServer, type BoltServer } from '../../src/server/bolt/index.js';

const LIMIT_REACHED = 'Neo.ClientError.Database.DatabaseLimitReached';

/** Runs a statement on the engine and returns its rows. */
async function rows(db: GraphDB, statement: string, database = 'system'): Promise<(readonly CypherValue[])[]> {
  const session = db.session({ database });
  try {
    const result = await session.run(statement);
    return [...(await result.pull(-1)).records];
  } finally {
    await session.close();
  }
}

/** The status code a statement fails with ('ok' when it succeeds). */
async function outcome(db: GraphDB, statement: string, database = 'system'): Promise<string> {
  try {
    await rows(db, statement, database);
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

const nodeCount = async (db: GraphDB, database: string): Promise<bigint> =>
  (await rows(db, 'MATCH (n) RETURN count(n)', database))[0][0] as bigint;

describe('ALTER DATABASE SET LIMIT and SHOW LIMITS', () => {
  let dataDir: string;
  let db: GraphDB;
  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-limits-'));
    db = await GraphDB.open({ dataDir, homeAlias: null });
    await rows(db, 'CREATE DATABASE tenant');
    await rows(db, 'CREATE ALIAS tenantalias FOR DATABASE tenant');
  });
  after(async () => {
    await db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('validates names and values and needs an existing database', async () => {
    assert.equal(await outcome(db, 'ALTER DATABASE tenant SET LIMIT max_widgets = 3'), 'Neo.ClientError.Statement.ArgumentError');
    assert.equal(await outcome(db, 'ALTER DATABASE tenant SET LIMIT max_nodes = -1'), 'Neo.ClientError.Statement.ArgumentError');
    assert.equal(await outcome(db, "ALTER DATABASE tenant SET LIMIT max_nodes = 'many'"), 'Neo.ClientError.Statement.ArgumentError');
    assert.equal(await outcome(db, "ALTER DATABASE tenant SET LIMIT max_query_time = 'soon'"), 'Neo.ClientError.Statement.ArgumentError');
    assert.equal(await outcome(db, 'ALTER DATABASE nosuch SET LIMIT max_nodes = 3'), 'Neo.ClientError.Database.DatabaseNotFound');
    assert.equal(await outcome(db, 'ALTER DATABASE nosuch IF EXISTS SET LIMIT max_nodes = 3'), 'ok');
    assert.equal(await outcome(db, 'ALTER DATABASE system SET LIMIT max_nodes = 3'), 'Neo.ClientError.Statement.UnsupportedOperationError');
    assert.equal(await outcome(db, 'SHOW LIMITS FOR DATABASE nosuch'), 'Neo.ClientError.Database.DatabaseNotFound');
    assert.equal(await outcome(db, 'MATCH (n) RETURN count(n)', 'tenant'), 'ok');
    const tenant = await rows(db, 'SHOW LIMITS FOR DATABASE tenant YIELD * WHERE value IS NOT NULL');
    assert.deepEqual(tenant, [], 'a failed ALTER sets nothing (one bad value rejects the whole command)');
  });

  it('SHOW LIMITS lists every limit of each database; an alias sets its target; 0 removes a limit', async () => {
    await rows(
      db,
      "ALTER DATABASE tenantalias SET LIMIT max_nodes = 5, max_edges = 9, max_query_time = '1m30s', max_concurrent_queries = 4",
    );
    const shown = await rows(db, 'SHOW LIMITS FOR DATABASE tenant');
    assert.deepEqual(
      shown.map((r) => [r[0], r[1], r[2]]),
      [
        ['tenant', 'max_nodes', 5n],
        ['tenant', 'max_relationships', 9n],
        ['tenant', 'max_storage_bytes', null],
        ['tenant', 'max_query_time', '1m30s'],
        ['tenant', 'max_concurrent_queries', 4n],
      ],
    );
    assert.ok(
      shown.every((r) => typeof r[3] === 'string' && r[3].length > 0),
      'every row has a description',
    );
    await rows(db, 'ALTER DATABASE tenant SET LIMIT max_concurrent_queries = 0, max_query_time = null');
    const all = await rows(db, 'SHOW LIMITS YIELD database, limit, value WHERE value IS NOT NULL RETURN database, limit, value');
    assert.deepEqual(all, [
      ['tenant', 'max_nodes', 5n],
      ['tenant', 'max_relationships', 9n],
    ]);
    const keys = (await db.session({ database: 'system' }).run('SHOW LIMITS')).keys;
    assert.deepEqual(keys, ['database', 'limit', 'value', 'description']);
  });

  it('limits and aliases survive a restart (stored in the system database)', async () => {
    await db.close();
    db = await GraphDB.open({ dataDir, homeAlias: null });
    const kept = await rows(db, 'SHOW LIMITS FOR DATABASE tenantalias YIELD limit, value WHERE value IS NOT NULL');
    assert.deepEqual(kept, [
      ['max_nodes', 5n],
      ['max_relationships', 9n],
    ]);
    assert.deepEqual(await rows(db, 'SHOW ALIASES FOR DATABASES YIELD name, database'), [['tenantalias', 'tenant']]);
    await rows(db, 'ALTER DATABASE tenant SET LIMIT max_nodes = 0, max_relationships = 0');
  });

  it('only admins may set or show limits and aliases', async () => {
    const roles = new Map<string, RoleDefinition>([
      ['editor', { name: 'editor', permissions: ['read', 'write', 'delete', 'schema'], databases: [], builtin: true }],
      ['admin', { name: 'admin', permissions: ['admin'], databases: [], builtin: true }],
    ]);
    const as = (role: string) => securityContext(role, [role], (name) => roles.get(name) ?? null);
    const attempt = async (role: string, text: string, database: string): Promise<string> => {
      try {
        const result = await db.session({ security: as(role), database }).run(text);
        await result.pull(-1);
        return 'ok';
      } catch (error) {
        return (error as { code?: string }).code ?? String(error);
      }
    };
    const forbidden = 'Neo.ClientError.Security.Forbidden';
    for (const database of ['tenant', 'system']) {
      assert.equal(await attempt('editor', 'ALTER DATABASE tenant SET LIMIT max_nodes = 0', database), forbidden);
      assert.equal(await attempt('editor', 'SHOW LIMITS', database), forbidden);
      assert.equal(await attempt('editor', 'SHOW ALIASES FOR DATABASES', database), forbidden);
      assert.equal(await attempt('editor', 'CREATE ALIAS x FOR DATABASE tenant', database), forbidden);
    }
    assert.equal(await attempt('admin', 'ALTER DATABASE tenant SET LIMIT max_nodes = 0', 'system'), 'ok');
    assert.equal(await attempt('admin', 'SHOW LIMITS', 'system'), 'ok');
  });
});

describe('limit enforcement', () => {
  let db: GraphDB;
  let server: BoltServer;
  let driver: Driver;
  before(async () => {
    db = await GraphDB.open();
    server = await startBoltServer({ port: 0, host: '127.0.0.1', engine: db });
    driver = neo4j.driver(`bolt://127.0.0.1:${server.port}`, neo4j.auth.basic('neo4j', 'any'));
    await rows(db, 'CREATE DATABASE capped');
    await rows(db, 'CREATE DATABASE other');
  });
  after(async () => {
    await driver.close();
    await server.close();
    await db.close();
  });

  const driverOutcome = async (work: (session: ReturnType<Driver['session']>) => Promise<unknown>): Promise<string> => {
    const session = driver.session({ database: 'capped' });
    try {
      await work(session);
      return 'ok';
    } catch (error) {
      return (error as { code?: string }).code ?? String(error);
    } finally {
      await session.close();
    }
  };

  it('max_nodes: a write past the limit fails and loses nothing (auto-commit and explicit transactions)', async () => {
    await rows(db, 'ALTER DATABASE capped SET LIMIT max_nodes = 3');
    assert.equal(await driverOutcome((s) => s.run('UNWIND range(1, 2) AS i CREATE (:Capped {i: i})')), 'ok');
    assert.equal(await driverOutcome((s) => s.run('UNWIND range(1, 5) AS i CREATE (:Capped {i: i})')), LIMIT_REACHED);
    assert.equal(await nodeCount(db, 'capped'), 2n, 'the failed statement created nothing');
    const explicit = await driverOutcome(async (s) => {
      const tx = s.beginTransaction();
      await tx.run('CREATE (:Capped {i: 10})');
      await tx.run('CREATE (:Capped {i: 11})');
      await tx.commit();
    });
    assert.equal(explicit, LIMIT_REACHED);
    assert.equal(await nodeCount(db, 'capped'), 2n, 'the explicit transaction was rolled back whole');
    assert.equal(await driverOutcome((s) => s.executeWrite((tx) => tx.run('CREATE (:Capped {i: 3})'))), 'ok', 'up to the limit is fine');
    assert.equal(await nodeCount(db, 'capped'), 3n);
    await rows(db, 'ALTER DATABASE capped SET LIMIT max_nodes = 1');
    assert.equal(
      await driverOutcome((s) => s.run('MATCH (n:Capped) WHERE n.i = 1 DELETE n')),
      'ok',
      'shrinking writes pass while over the limit',
    );
    assert.equal(await nodeCount(db, 'other'), 0n);
    assert.equal(await outcome(db, 'UNWIND range(1, 5) AS i CREATE ()', 'other'), 'ok', 'other databases are not limited');
    await rows(db, 'ALTER DATABASE capped SET LIMIT max_nodes = 0');
  });

  it('max_relationships counts relationships only', async () => {
    await rows(db, 'ALTER DATABASE capped SET LIMIT max_relationships = 2');
    assert.equal(await driverOutcome((s) => s.run('CREATE (:R)-[:T]->(:R)-[:T]->(:R)')), 'ok');
    assert.equal(await driverOutcome((s) => s.run('MATCH (a:R), (b:R) WHERE a <> b CREATE (a)-[:T]->(b)')), LIMIT_REACHED);
    assert.equal((await rows(db, 'MATCH ()-[r]->() RETURN count(r)', 'capped'))[0][0], 2n);
    assert.equal(
      await driverOutcome((s) => s.run('UNWIND range(1, 10) AS i CREATE (:R)')),
      'ok',
      'nodes are not limited by max_relationships',
    );
    await rows(db, 'ALTER DATABASE capped SET LIMIT max_relationships = 0');
  });

  it('max_query_time ends a long query with TransactionTimedOut', async () => {
    await rows(db, "ALTER DATABASE capped SET LIMIT max_query_time = '150ms'");
    const started = Date.now();
    const code = await driverOutcome((s) =>
      s.run('UNWIND range(1, 1000) AS a UNWIND range(1, 1000) AS b UNWIND range(1, 1000) AS c WITH c WHERE c < 0 RETURN count(c)'),
    );
    const elapsed = Date.now() - started;
    assert.equal(code, 'Neo.ClientError.Transaction.TransactionTimedOut');
    assert.ok(elapsed < 5000, `stopped after ${elapsed} ms`);
    assert.equal(await driverOutcome((s) => s.run('RETURN 1')), 'ok', 'short queries still run');
    assert.equal(
      await outcome(db, 'UNWIND range(1, 300000) AS x WITH x WHERE x < 0 RETURN count(x)', 'other'),
      'ok',
      'other databases have no time limit',
    );
    await rows(db, 'ALTER DATABASE capped SET LIMIT max_query_time = 0');
  });

  it('max_concurrent_queries refuses a statement beyond the limit with a transient error, and admits it once one ends', async () => {
    await rows(db, 'ALTER DATABASE capped SET LIMIT max_concurrent_queries = 1');
    const holder = db.session({ database: 'capped' });
    const open = await holder.run('UNWIND range(1, 10000) AS x RETURN x');
    await open.pull(10);
    const refused = await driverOutcome((s) => s.run('RETURN 1'));
    assert.equal(refused, 'Neo.TransientError.Request.ResourceExhaustion');
    assert.equal(await outcome(db, 'RETURN 1', 'other'), 'ok', 'other databases are not counted');
    await open.discard();
    assert.equal(await driverOutcome((s) => s.run('RETURN 1')), 'ok', 'admitted once the running statement ended');
    const failing = await outcome(db, 'UNWIND [1, 0] AS x RETURN 1 / x', 'capped');
    assert.equal(failing, 'Neo.ClientError.Statement.ArithmeticError');
    assert.equal(await outcome(db, 'RETURN 1', 'capped'), 'ok', 'a failed statement released its place');
    await holder.close();
    await rows(db, 'ALTER DATABASE capped SET LIMIT max_concurrent_queries = 0');
  });
});
