/**
 * Change data capture as Neo4j's db.cdc.*: enrichment modes per database (ALTER DATABASE ... SET
 * OPTION txLogEnrichment, CREATE DATABASE ... OPTIONS), the change event format (nodes and
 * relationships, create/update/delete, FULL and DIFF states), selectors, identifiers (stale,
 * foreign, malformed), pruning within the retention window, and a consumer reading from a
 * cursor across a server restart over Bolt.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import neo4j from 'neo4j-driver';
import { GraphDB } from '../../src/engine/index.js';
import type { CypherDateTime } from '../../src/engine/values/index.js';
import { loadConfig } from '../../src/engine/config/index.js';
import { startServer } from '../../src/server/index.js';
import { createLogger } from '../../src/server/logger.js';
import { storeOf } from '../../src/engine/engine-internals.js';

type Row = Record<string, unknown>;

/** Selector objects as Cypher maps (the embedded API takes Cypher values). */
function cypherValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cypherValue);
  if (value !== null && typeof value === 'object' && !(value instanceof Map))
    return new Map(Object.entries(value).map(([k, v]) => [k, cypherValue(v)]));
  return value;
}

describe('change data capture (db.cdc.*)', () => {
  let db: GraphDB;

  async function run(query: string, parameters: Record<string, unknown> = {}, database?: string): Promise<Row[]> {
    const session = db.session(database === undefined ? {} : { database });
    const result = await session.run(query, parameters as never);
    const { records } = await result.pull(-1);
    const keys = result.keys;
    return records.map((r) => Object.fromEntries(keys.map((k, i) => [k, r[i]])));
  }
  const current = async (database?: string) => String((await run('CALL db.cdc.current()', {}, database))[0].id);
  const changes = async (from: string, selectors: unknown[] = [], database?: string) =>
    run(
      'CALL db.cdc.query($from, $selectors) YIELD id, txId, seq, metadata, event RETURN id, txId, seq, metadata, event',
      { from, selectors: cypherValue(selectors) },
      database,
    );
  const get = (value: unknown, ...keys: string[]): unknown => keys.reduce((v, k) => (v instanceof Map ? v.get(k) : undefined), value);

  before(async () => {
    db = await GraphDB.open({ search: false });
  });
  after(() => db.close());

  it('is off by default; ALTER DATABASE ... SET OPTION txLogEnrichment turns it on', async () => {
    const start = await current();
    await assert.rejects(changes(start), /Change data capture is not enabled/);
    await run("ALTER DATABASE graphdb SET OPTION txLogEnrichment 'FULL'", {}, 'system');
    await assert.rejects(run("ALTER DATABASE graphdb SET OPTION txLogEnrichment 'SOME'", {}, 'system'), /Expected one of OFF, DIFF, FULL/);
    await assert.rejects(run("ALTER DATABASE graphdb SET OPTION unknownOption 'x'", {}, 'system'), /Unknown database option/);
    assert.deepEqual(await changes(start), []);
  });

  it('records node and relationship creates, updates and deletes in FULL mode, in commit order', async () => {
    const start = await current();
    await run("CREATE (a:Person {name: 'Ann', age: 30})-[:KNOWS {since: 2020}]->(b:Person {name: 'Bob'})");
    await run("MATCH (a:Person {name: 'Ann'}) SET a.age = 31, a:Admin");
    await run("MATCH (:Person {name: 'Ann'})-[k:KNOWS]->() SET k.since = 2021");
    await run("MATCH (b:Person {name: 'Bob'}) DETACH DELETE b");
    const rows = await changes(start);
    const summary = rows.map((r) => [get(r.event, 'eventType'), get(r.event, 'operation')]);
    assert.deepEqual(summary, [
      ['n', 'c'],
      ['n', 'c'],
      ['r', 'c'],
      ['n', 'u'],
      ['r', 'u'],
      ['n', 'd'],
      ['r', 'd'],
    ]);
    const txIds = rows.map((r) => r.txId as bigint);
    assert.deepEqual(
      [...txIds].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)),
      txIds,
      'commit order',
    );
    assert.deepEqual(
      rows.slice(0, 3).map((r) => r.seq),
      [0n, 1n, 2n],
    );
    assert.equal(new Set(rows.map((r) => r.id)).size, rows.length);

    const created = rows[0].event;
    assert.deepEqual(get(created, 'state', 'before'), null);
    assert.deepEqual(
      get(created, 'state', 'after', 'properties'),
      new Map<string, unknown>([
        ['name', 'Ann'],
        ['age', 30n],
      ]),
    );
    assert.match(String(get(created, 'elementId')), /^4:/);
    const update = rows[3].event;
    assert.deepEqual(
      get(update, 'state', 'before', 'properties'),
      new Map<string, unknown>([
        ['name', 'Ann'],
        ['age', 30n],
      ]),
    );
    assert.deepEqual(
      get(update, 'state', 'after', 'properties'),
      new Map<string, unknown>([
        ['name', 'Ann'],
        ['age', 31n],
      ]),
    );
    assert.deepEqual(get(update, 'state', 'after', 'labels'), ['Person', 'Admin']);
    const relationship = rows[2].event;
    assert.equal(get(relationship, 'type'), 'KNOWS');
    assert.deepEqual(get(relationship, 'start', 'labels'), ['Person']);
    const deleted = rows[5].event;
    assert.deepEqual(get(deleted, 'state', 'before', 'properties'), new Map([['name', 'Bob']]));
    assert.equal(get(deleted, 'state', 'after'), null);
    assert.equal(get(rows[0].metadata, 'captureMode'), 'FULL');
    assert.ok(get(rows[0].metadata, 'txCommitTime') !== undefined);

    const after = await changes(String(rows[2].id));
    assert.deepEqual(
      after.map((r) => r.id),
      rows.slice(3).map((r) => r.id),
      'a cursor resumes after its change',
    );
  });

  it('selectors: entity kind, operation, labels, type, changesTo, elementId, key', async () => {
    const start = await current();
    await run('CREATE CONSTRAINT person_key FOR (p:Person) REQUIRE p.name IS NODE KEY');
    await run("CREATE (c:Person {name: 'Cy', age: 5}), (d:Dog {name: 'Rex'}), (c)-[:OWNS]->(d)");
    await run("MATCH (c:Person {name: 'Cy'}) SET c.age = 6");
    const ops = async (selectors: unknown[]) =>
      (await changes(start, selectors)).map((r) => `${get(r.event, 'eventType') as string}${get(r.event, 'operation') as string}`);
    assert.deepEqual(await ops([{ select: 'r' }]), ['rc']);
    assert.deepEqual(await ops([{ select: 'n', labels: ['Dog'] }]), ['nc']);
    assert.deepEqual(await ops([{ select: 'n', operation: 'u' }]), ['nu']);
    assert.deepEqual(await ops([{ select: 'e', changesTo: ['age'] }]), ['nc', 'nu']);
    assert.deepEqual(await ops([{ select: 'n', key: { name: 'Cy' } }]), ['nc', 'nu']);
    assert.deepEqual(await ops([{ select: 'r', type: 'OWNS', end: { labels: ['Dog'] } }]), ['rc']);
    assert.deepEqual(await ops([{ select: 'r', type: 'OWNS', end: { labels: ['Cat'] } }]), []);
    assert.deepEqual(await ops([{ select: 'r' }, { select: 'n', labels: ['Dog'] }]), ['nc', 'rc']);
    const [first] = await changes(start, [{ select: 'n', labels: ['Dog'] }]);
    assert.deepEqual(await ops([{ select: 'n', elementId: get(first.event, 'elementId') }]), ['nc']);
    await assert.rejects(changes(start, [{ select: 'x' }]), /'select' must be one of/);
    await assert.rejects(changes(start, [{ select: 'n', colour: 'red' }]), /unknown field 'colour'/);
  });

  it('metadata: txMetadata from the transaction, txStartTime its start, selectable by txMetadata', async () => {
    const start = await current();
    const session = db.session({});
    const tx = await session.beginTransaction({ metadata: new Map([['app', 'billing']]) });
    const beganAt = Date.now();
    await (await tx.run("CREATE (:Invoice {no: 'i-1'})")).pull(-1);
    await tx.commit();
    const rows = await changes(start);
    assert.equal(rows.length, 1);
    const metadata = rows[0].metadata;
    assert.deepEqual(get(metadata, 'txMetadata'), new Map([['app', 'billing']]));
    assert.equal(get(metadata, 'executingUser'), '');
    assert.equal(get(metadata, 'connectionType'), 'embedded');
    assert.equal(get(metadata, 'connectionClient'), '');
    assert.equal(get(metadata, 'connectionServer'), '');
    assert.match(get(metadata, 'serverId') as string, /^[0-9a-f]{8}$/);
    const started = get(metadata, 'txStartTime') as CypherDateTime;
    const committed = get(metadata, 'txCommitTime') as CypherDateTime;
    assert.ok(Number(started.epochSecond) * 1000 + started.nano / 1e6 <= beganAt, 'txStartTime is when the transaction began');
    assert.ok(
      started.epochSecond < committed.epochSecond || (started.epochSecond === committed.epochSecond && started.nano <= committed.nano),
    );
    assert.equal((await changes(start, [{ select: 'e', txMetadata: { app: 'billing' } }])).length, 1);
    assert.equal((await changes(start, [{ select: 'e', txMetadata: { app: 'other' } }])).length, 0);
  });

  it('DIFF mode keeps only what changed; CREATE DATABASE ... OPTIONS enables capture', async () => {
    await run("CREATE DATABASE diffdb OPTIONS {txLogEnrichment: 'DIFF'}", {}, 'system');
    const start = await current('diffdb');
    await run("CREATE (:Item {sku: 'a', price: 1, colour: 'red'})", {}, 'diffdb');
    await run('MATCH (i:Item) SET i.price = 2', {}, 'diffdb');
    const rows = await changes(start, [], 'diffdb');
    assert.equal(get(rows[1].metadata, 'captureMode'), 'DIFF');
    assert.deepEqual(get(rows[1].event, 'state', 'before', 'properties'), new Map([['price', 1n]]));
    assert.deepEqual(get(rows[1].event, 'state', 'after', 'properties'), new Map([['price', 2n]]));
    await assert.rejects(run("CREATE DATABASE baddb OPTIONS {txLogEnrichment: 'MAYBE'}", {}, 'system'), /Expected one of/);
    assert.ok(!(await run('SHOW DATABASES YIELD name', {}, 'system')).some((r) => r.name === 'baddb'), 'a bad option creates nothing');
  });

  it('identifiers: foreign, malformed, stale after pruning beyond the retention window, from the future', async () => {
    const mine = await current();
    const other = await current('diffdb');
    await assert.rejects(changes(other), { code: 'Neo.ClientError.ChangeDataCapture.InvalidIdentifier' });
    await assert.rejects(changes('not-an-id'), { code: 'Neo.ClientError.ChangeDataCapture.InvalidIdentifier' });
    const earliest = String((await run('CALL db.cdc.earliest()'))[0].id);
    assert.ok((await changes(earliest)).length > 0, 'earliest reaches every captured change');
    await storeOf(db, 'graphdb').prune({ ttlMs: 3_600_000 });
    assert.ok((await changes(earliest)).length > 0, 'changes younger than the retention window survive a prune');
    await run('CREATE (:Late {n: 1})');
    await storeOf(db, 'graphdb').prune({ ttlMs: -1 });
    await assert.rejects(changes(earliest), { code: 'Neo.ClientError.ChangeDataCapture.InvalidIdentifier' });
    await assert.rejects(changes(mine), { code: 'Neo.ClientError.ChangeDataCapture.InvalidIdentifier' });
    const fresh = String((await run('CALL db.cdc.earliest()'))[0].id);
    assert.deepEqual(await changes(fresh), []);
  });
});

describe('a CDC consumer across a server restart', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-cdc-'));
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  async function start() {
    const flags = {
      'database.path': dataDir,
      'server.http_port': 0,
      'server.http_address': '127.0.0.1',
      'server.bolt_port': 0,
      'server.bolt_address': '127.0.0.1',
      'auth.enabled': true,
      'auth.jwt_secret': 'test-jwt-secret-of-at-least-32-bytes!!',
      'logging.level': 'silent',
      'async_writes.enabled': false,
    };
    const env = { GRAPHDB_AUTH: 'root:rootpw' };
    const discovery = {
      env,
      homeDir: dataDir,
      binDir: null,
      cwd: dataDir,
      platform: 'linux' as const,
      systemConfigDir: path.join(dataDir, 'none'),
      exists: () => false,
    };
    const server = await startServer(loadConfig({ env, configFile: undefined, discovery, flags }), {
      logger: createLogger('silent'),
      version: '9.9.9-test',
    });
    const driver = neo4j.driver(`bolt://127.0.0.1:${server.bolt!.port}`, neo4j.auth.basic('root', 'rootpw'));
    return { server, driver };
  }

  it('sees every change exactly once, in commit order', async () => {
    let { server, driver } = await start();
    await driver.executeQuery("ALTER DATABASE neo4j SET OPTION txLogEnrichment 'FULL'", {}, { database: 'system' });
    let cursor = String((await driver.executeQuery('CALL db.cdc.current()')).records[0].get('id'));
    const seen: number[] = [];
    const poll = async (): Promise<void> => {
      const { records } = await driver.executeQuery('CALL db.cdc.query($cursor, [{select: "n"}]) YIELD id, event RETURN id, event', {
        cursor,
      });
      for (const record of records) {
        seen.push(Number(record.get('event').state.after.properties.n));
        cursor = record.get('id');
      }
    };
    for (let i = 0; i < 5; i++) await driver.executeQuery('CREATE (:Tick {n: $n})', { n: neo4j.int(i) });
    await poll();
    for (let i = 5; i < 8; i++) await driver.executeQuery('CREATE (:Tick {n: $n})', { n: neo4j.int(i) });
    await driver.close();
    await server.close();

    ({ server, driver } = await start());
    try {
      for (let i = 8; i < 10; i++) await driver.executeQuery('CREATE (:Tick {n: $n})', { n: neo4j.int(i) });
      await poll();
      await poll();
      assert.deepEqual(seen, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      await driver.executeQuery('CREATE (:Tagged)', {}, { transactionConfig: { metadata: { source: 'bolt' } } });
      const { records } = await driver.executeQuery('CALL db.cdc.query($cursor) YIELD metadata RETURN metadata', { cursor });
      const metadata = records[0].get('metadata') as Record<string, unknown>;
      assert.equal(metadata.executingUser, 'root');
      assert.equal(metadata.authenticatedUser, 'root');
      assert.deepEqual(metadata.txMetadata, { source: 'bolt' });
      assert.equal(metadata.connectionType, 'bolt');
      assert.equal(metadata.connectionServer, `127.0.0.1:${server.bolt!.port}`);
      assert.match(String(metadata.connectionClient), /^127\.0\.0\.1:\d+$/);
      assert.notEqual(metadata.connectionClient, metadata.connectionServer);
      assert.match(String(metadata.serverId), /^[0-9a-f]{8}$/);
      const next = String((await driver.executeQuery('CALL db.cdc.current()')).records[0].get('id'));
      const response = await fetch(`http://127.0.0.1:${server.http!.port}/db/neo4j/query/v2`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from('root:rootpw').toString('base64')}` },
        body: JSON.stringify({ statement: 'CREATE (:ViaHttp)' }),
      });
      assert.equal(response.status, 202);
      const overHttp = await driver.executeQuery('CALL db.cdc.query($next) YIELD metadata RETURN metadata', { next });
      const httpMetadata = overHttp.records[0].get('metadata') as Record<string, unknown>;
      assert.equal(httpMetadata.connectionType, 'http');
      assert.equal(httpMetadata.connectionServer, `127.0.0.1:${server.http!.port}`);
      assert.match(String(httpMetadata.connectionClient), /^127\.0\.0\.1:\d+$/);
      assert.equal(httpMetadata.serverId, metadata.serverId);
    } finally {
      await driver.close();
      await server.close();
    }
  });
});
