/**
 * Composite databases as Neo4j 5 has them (docs/composite-databases.md), through neo4j-driver
 * over Bolt and fetch over HTTP: CREATE/DROP COMPOSITE DATABASE, constituent aliases
 * (CREATE/ALTER/DROP ALIAS composite.alias), SHOW DATABASES / SHOW ALIASES rows, queries with a
 * leading `USE composite.alias`, `CALL { USE graph.byName(g) ... }` over `graph.names()` and UNION
 * parts, the one-written-constituent rule, graph access on the composite itself refused,
 * privileges on the constituents' targets, and the catalog across a restart. Auto-commit
 * (executeQuery, session.run) and explicit transactions (executeRead/executeWrite, beginTransaction)
 * give the same results.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import neo4j, { type Driver, type Record as DriverRecord } from 'neo4j-driver';
import { GraphDB } from '../../src/engine/index.js';
import { commit, startTestServer, type TestServer } from '../http/helpers.js';

const ACCESS_MODE = 'Neo.ClientError.Statement.AccessMode';
const SEMANTIC = 'Neo.ClientError.Statement.SemanticError';
const FORBIDDEN = 'Neo.ClientError.Security.Forbidden';

/** Plain JSON of driver values (integers to numbers). */
function plain(value: unknown): unknown {
  if (neo4j.isInt(value)) return (value as { toNumber(): number }).toNumber();
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}

const rowsOf = (records: DriverRecord[]): unknown[][] => records.map((r) => r.keys.map((k) => plain(r.get(k))));

async function codeOf(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

const ACROSS = 'UNWIND graph.names() AS g CALL { USE graph.byName(g) MATCH (p:Person) RETURN p } RETURN g, p.name AS name ORDER BY g, name';

describe('composite databases over Bolt and HTTP', () => {
  let t: TestServer;
  let root: Driver;
  let reader: Driver;
  const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });

  before(async () => {
    t = await startTestServer(
      {
        'auth.enabled': true,
        'server.bolt_enabled': true,
        'server.bolt_port': 0,
        'server.bolt_address': '127.0.0.1',
      },
      { GRAPHDB_AUTH: 'root:rootpw' },
    );
    const url = `bolt://127.0.0.1:${t.server.bolt!.port}`;
    root = neo4j.driver(url, neo4j.auth.basic('root', 'rootpw'), { maxTransactionRetryTime: 0 });
    const system = { database: 'system' };
    for (const command of [
      'CREATE DATABASE `sales-eu`',
      'CREATE DATABASE `sales-us`',
      'CREATE COMPOSITE DATABASE shop',
      'CREATE ALIAS shop.eu FOR DATABASE `sales-eu` PROPERTIES {region: "EU", rank: 1}',
      'CREATE ALIAS `shop`.`us` FOR DATABASE `sales-us` PROPERTIES {region: "US", rank: 2}',
      'CREATE ROLE eureader',
      'GRANT ACCESS ON DATABASE * TO eureader',
      'GRANT MATCH {*} ON GRAPH `sales-eu` TO eureader',
      "CREATE USER eu SET PASSWORD 'eu-password' CHANGE NOT REQUIRED",
      'GRANT ROLE eureader TO eu',
    ]) {
      await root.executeQuery(command, {}, system);
    }
    await root.executeQuery("CREATE (:Person {name: 'Ada'}), (:Person {name: 'Bea'})", {}, { database: 'sales-eu' });
    await root.executeQuery("CREATE (:Person {name: 'Cy'})", {}, { database: 'sales-us' });
    reader = neo4j.driver(url, neo4j.auth.basic('eu', 'eu-password'), { maxTransactionRetryTime: 0 });
  });

  after(async () => {
    await reader?.close();
    await root?.close();
    await t?.stop();
  });

  it('lists the composite with its constituents (SHOW DATABASES, SHOW ALIASES)', async () => {
    const databases = await root.executeQuery(
      "SHOW DATABASES YIELD name, type, constituents, access WHERE name IN ['shop', 'sales-eu'] RETURN name, type, constituents, access",
      {},
      { database: 'system' },
    );
    assert.deepEqual(rowsOf(databases.records), [
      ['sales-eu', 'standard', [], 'read-write'],
      ['shop', 'composite', ['shop.eu', 'shop.us'], 'read-only'],
    ]);
    const aliases = await root.executeQuery(
      'SHOW ALIASES FOR DATABASE YIELD name, composite, database, properties WHERE composite IS NOT NULL RETURN name, composite, database, properties',
      {},
      { database: 'system' },
    );
    assert.deepEqual(rowsOf(aliases.records), [
      ['shop.eu', 'shop', 'sales-eu', { region: 'EU', rank: 1 }],
      ['shop.us', 'shop', 'sales-us', { region: 'US', rank: 2 }],
    ]);
  });

  it('reads across constituents: the same rows auto-commit, in executeRead and in an explicit transaction', async () => {
    const expected = [
      ['shop.eu', 'Ada'],
      ['shop.eu', 'Bea'],
      ['shop.us', 'Cy'],
    ];
    assert.deepEqual(rowsOf((await root.executeQuery(ACROSS, {}, { database: 'shop' })).records), expected);
    const session = root.session({ database: 'shop' });
    try {
      assert.deepEqual(rowsOf((await session.run(ACROSS)).records), expected);
      assert.deepEqual(rowsOf(await session.executeRead(async (tx) => (await tx.run(ACROSS)).records)), expected);
      const tx = session.beginTransaction();
      assert.deepEqual(rowsOf((await tx.run(ACROSS)).records), expected);
      assert.deepEqual(rowsOf((await tx.run('USE shop.us MATCH (p:Person) RETURN p.name AS name')).records), [['Cy']]);
      await tx.commit();
    } finally {
      await session.close();
    }
  });

  it('graph.names(), graph.propertiesByName(), graph.byElementId(), a leading USE and UNION parts', async () => {
    const q = async (cypher: string): Promise<unknown[][]> => rowsOf((await root.executeQuery(cypher, {}, { database: 'shop' })).records);
    assert.deepEqual(await q('RETURN graph.names() AS names'), [[['shop.eu', 'shop.us']]]);
    assert.deepEqual(
      await q(
        'UNWIND graph.names() AS g WITH g, graph.propertiesByName(g) AS props WHERE props.region = "US" RETURN g, props.rank AS rank',
      ),
      [['shop.us', 2]],
    );
    assert.deepEqual(await q('USE shop.eu MATCH (p:Person) RETURN p.name AS name ORDER BY name'), [['Ada'], ['Bea']]);
    assert.deepEqual(
      await q('USE shop.eu MATCH (p:Person) RETURN p.name AS name UNION USE shop.us MATCH (p:Person) RETURN p.name AS name'),
      [['Ada'], ['Bea'], ['Cy']],
    );
    assert.deepEqual(
      await q(
        'UNWIND graph.names() AS g CALL { USE graph.byName(g) MATCH (p:Person) RETURN count(p) AS c } RETURN sum(c) AS total, collect(c) AS each',
      ),
      [[3, [2, 1]]],
    );
    const cy = await root.executeQuery("MATCH (p:Person {name: 'Cy'}) RETURN elementId(p) AS id", {}, { database: 'sales-us' });
    const id = cy.records[0].get('id') as string;
    assert.deepEqual(await q(`CALL { USE graph.byElementId('${id}') MATCH (p:Person) RETURN p.name AS name } RETURN name`), [['Cy']]);
    const nodes = await root.executeQuery('CALL { USE shop.us MATCH (p:Person) RETURN p } RETURN p', {}, { database: 'shop' });
    const node = nodes.records[0].get('p') as { labels: string[]; properties: { name: string }; elementId: string };
    assert.deepEqual([node.labels, node.properties.name, node.elementId], [['Person'], 'Cy', id]);
  });

  it('refuses graph access on the composite itself and graphs outside it, as Neo4j does', async () => {
    const on = (cypher: string, database = 'shop') => codeOf(() => root.executeQuery(cypher, {}, { database }));
    assert.equal(await on('MATCH (n) RETURN count(n) AS c'), SEMANTIC);
    assert.equal(await on("CREATE (:Person {name: 'nowhere'})"), SEMANTIC);
    assert.equal(await on('USE `sales-eu` MATCH (n) RETURN n'), SEMANTIC);
    assert.equal(await on("CALL { USE graph.byName('shop.nope') RETURN 1 AS one } RETURN one"), SEMANTIC);
    assert.equal(await on('USE shop.eu MATCH (n) RETURN n', 'sales-us'), SEMANTIC);
    assert.equal(await on('PROFILE USE shop.eu MATCH (n) RETURN n'), SEMANTIC);
    assert.equal(await on('RETURN graph.names() AS n', 'sales-eu'), SEMANTIC);
    const error = await root.executeQuery('USE `sales-eu` RETURN 1', {}, { database: 'shop' }).catch((e: Error) => e);
    assert.match(
      (error as Error).message,
      /When connected to a composite database, access is allowed only to its constituents\. Attempted to access 'sales-eu' while connected to 'shop'/,
    );
  });

  it('writes one constituent per transaction; a second one fails with Statement.AccessMode', async () => {
    const summary = await root.executeQuery('USE shop.eu CREATE (:Order {id: 1})', {}, { database: 'shop' });
    assert.equal(summary.summary.counters.updates().nodesCreated, 1);
    const inSubquery = await root.executeQuery('CALL { USE shop.us CREATE (:Order {id: 2}) } RETURN 1 AS done', {}, { database: 'shop' });
    assert.equal(inSubquery.summary.counters.updates().nodesCreated, 1);
    const both = 'CALL { USE shop.eu CREATE (:Order {id: 3}) } CALL { USE shop.us CREATE (:Order {id: 3}) }';
    assert.equal(await codeOf(() => root.executeQuery(both, {}, { database: 'shop' })), ACCESS_MODE);

    const session = root.session({ database: 'shop' });
    try {
      const tx = session.beginTransaction();
      await tx.run('USE shop.eu CREATE (:Order {id: 4})');
      const read = await tx.run('USE shop.eu MATCH (o:Order) RETURN o.id AS id ORDER BY id');
      assert.deepEqual(rowsOf(read.records), [[1], [4]], 'the transaction reads its own write');
      const second = await codeOf(() => tx.run('USE shop.us CREATE (:Order {id: 4})'));
      assert.equal(second, ACCESS_MODE);
      assert.equal(tx.isOpen(), false, 'the failed transaction is rolled back');
      const error = await session
        .executeWrite(async (w) => {
          await w.run('USE shop.us CREATE (:Order {id: 5})');
          await w.run('USE shop.eu CREATE (:Order {id: 5})');
        })
        .catch((e: Error) => e);
      assert.match(
        (error as Error).message,
        /^Writing to more than one database per transaction is not allowed\. Attempted write to shop\.eu, currently writing to shop\.us$/,
      );
      await session.executeWrite((w) => w.run('USE shop.us CREATE (:Order {id: 6})'));
      assert.equal(await codeOf(() => session.executeRead((r) => r.run('USE shop.us CREATE (:Order {id: 7})'))), ACCESS_MODE);
    } finally {
      await session.close();
    }
    const orders = async (database: string) =>
      rowsOf((await root.executeQuery('MATCH (o:Order) RETURN o.id AS id ORDER BY id', {}, { database })).records);
    assert.deepEqual(await orders('sales-eu'), [[1]]);
    assert.deepEqual(await orders('sales-us'), [[2], [6]]);
  });

  it('reading a constituent needs the privilege on its target database', async () => {
    const names = await reader.executeQuery('RETURN graph.names() AS names', {}, { database: 'shop' });
    assert.deepEqual(rowsOf(names.records), [[['shop.eu', 'shop.us']]]);
    const eu = await reader.executeQuery('USE shop.eu MATCH (p:Person) RETURN count(p) AS c', {}, { database: 'shop' });
    assert.deepEqual(rowsOf(eu.records), [[2]]);
    assert.equal(
      await codeOf(() => reader.executeQuery('USE shop.us MATCH (p:Person) RETURN count(p) AS c', {}, { database: 'shop' })),
      FORBIDDEN,
    );
    assert.equal(await codeOf(() => reader.executeQuery(ACROSS, {}, { database: 'shop' })), FORBIDDEN);
    assert.equal(await codeOf(() => reader.executeQuery('USE shop.eu CREATE (:Person)', {}, { database: 'shop' })), FORBIDDEN);
  });

  it('answers over HTTP: the transaction API and the Query API', async () => {
    const auth = basic('root', 'rootpw');
    const response = await commit(t.url, [ACROSS], 'shop', auth);
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.errors, []);
    assert.deepEqual(
      response.body.results[0].data.map((d: { row: unknown[] }) => d.row),
      [
        ['shop.eu', 'Ada'],
        ['shop.eu', 'Bea'],
        ['shop.us', 'Cy'],
      ],
    );
    const refused = await commit(t.url, ['MATCH (n) RETURN n'], 'shop', auth);
    assert.equal(refused.body.errors[0].code, SEMANTIC);
    const create = await commit(t.url, ["CREATE (:Invoice {id: 'nowhere'})"], 'shop', auth);
    assert.equal(create.status, 200);
    assert.equal(create.body.errors[0]?.code, SEMANTIC, 'a CREATE on the composite itself is refused, never acknowledged');
    const write = await commit(t.url, ["USE shop.eu CREATE (:Invoice {id: 'eu-1'})"], 'shop', auth);
    assert.deepEqual(write.body.errors, []);
    const invoices = await root.executeQuery('MATCH (i:Invoice) RETURN i.id AS id', {}, { database: 'sales-eu' });
    assert.deepEqual(rowsOf(invoices.records), [['eu-1']]);
    const query = await fetch(`${t.url}/db/shop/query/v2`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ statement: 'USE shop.us MATCH (p:Person) RETURN p.name AS name' }),
    });
    assert.equal(query.status, 202);
    const body = (await query.json()) as { data: { values: unknown[][] } };
    assert.deepEqual(body.data.values, [['Cy']]);
  });

  it('manages constituents: ALTER ALIAS retargets, DROP ALIAS removes, DROP COMPOSITE DATABASE drops it all', async () => {
    const system = { database: 'system' };
    await root.executeQuery('CREATE DATABASE spare', {}, system);
    await root.executeQuery("CREATE (:Person {name: 'Spare'})", {}, { database: 'spare' });
    await root.executeQuery('CREATE COMPOSITE DATABASE tmp IF NOT EXISTS WAIT', {}, system);
    await root.executeQuery('CREATE COMPOSITE DATABASE tmp IF NOT EXISTS', {}, system);
    assert.equal(
      await codeOf(() => root.executeQuery('CREATE COMPOSITE DATABASE tmp', {}, system)),
      'Neo.ClientError.Database.ExistingDatabaseFound',
    );
    await root.executeQuery('CREATE ALIAS tmp.x FOR DATABASE `sales-eu`', {}, system);
    await root.executeQuery('CREATE ALIAS tmp.x IF NOT EXISTS FOR DATABASE `sales-us`', {}, system);
    const count = async () =>
      rowsOf((await root.executeQuery('USE tmp.x MATCH (p:Person) RETURN count(p) AS c', {}, { database: 'tmp' })).records);
    assert.deepEqual(await count(), [[2]]);
    await root.executeQuery('ALTER ALIAS tmp.x SET DATABASE TARGET spare', {}, system);
    assert.deepEqual(await count(), [[1]]);
    await root.executeQuery('CREATE OR REPLACE ALIAS tmp.x FOR DATABASE `sales-us`', {}, system);
    assert.deepEqual(await count(), [[1]]);
    await root.executeQuery('ALTER ALIAS tmp.x SET DATABASE TARGET spare', {}, system);
    assert.equal(
      await codeOf(() => root.executeQuery('DROP DATABASE spare', {}, system)),
      'Neo.ClientError.Database.ExistingAliasFound',
      'a database a constituent targets is kept unless CASCADE ALIASES',
    );
    await root.executeQuery('DROP DATABASE spare CASCADE ALIASES', {}, system);
    assert.deepEqual(rowsOf((await root.executeQuery('RETURN graph.names() AS n', {}, { database: 'tmp' })).records), [[[]]]);
    await root.executeQuery('CREATE ALIAS tmp.y FOR DATABASE `sales-us`', {}, system);
    await root.executeQuery('DROP ALIAS tmp.y FOR DATABASE', {}, system);
    assert.equal(
      await codeOf(() => root.executeQuery('DROP COMPOSITE DATABASE `sales-eu`', {}, system)),
      'Neo.ClientError.Statement.UnsupportedOperationError',
    );
    await root.executeQuery('CREATE ALIAS tmp.z FOR DATABASE `sales-us`', {}, system);
    await root.executeQuery('DROP COMPOSITE DATABASE tmp', {}, system);
    await root.executeQuery('DROP COMPOSITE DATABASE tmp IF EXISTS', {}, system);
    const left = await root.executeQuery("SHOW ALIASES FOR DATABASE YIELD name WHERE name STARTS WITH 'tmp' RETURN name", {}, system);
    assert.deepEqual(rowsOf(left.records), []);
    assert.equal(await codeOf(() => root.executeQuery('RETURN 1', {}, { database: 'tmp' })), 'Neo.ClientError.Database.DatabaseNotFound');
  });
});

describe('composite databases persist in the system database', () => {
  it('keeps composites and constituents across a restart', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const join = path.join.bind(path);
    const dataDir = mkdtempSync(join(tmpdir(), 'graphdb-composite-'));
    const run = async (db: GraphDB, database: string, cypher: string) => {
      const session = db.session({ database });
      try {
        return [...(await (await session.run(cypher)).pull(-1)).records];
      } finally {
        await session.close();
      }
    };
    try {
      let db = await GraphDB.open({ dataDir, homeAlias: null });
      await run(db, 'system', 'CREATE DATABASE alpha');
      await run(db, 'system', 'CREATE COMPOSITE DATABASE every');
      await run(db, 'system', 'CREATE ALIAS every.a FOR DATABASE alpha PROPERTIES {k: 7}');
      await run(db, 'every', 'USE every.a CREATE (:T {v: 1})');
      await db.close();
      db = await GraphDB.open({ dataDir, homeAlias: null });
      assert.deepEqual(await run(db, 'every', 'UNWIND graph.names() AS g RETURN g, graph.propertiesByName(g).k AS k'), [['every.a', 7n]]);
      assert.deepEqual(await run(db, 'every', 'CALL { USE every.a MATCH (t:T) RETURN t.v AS v } RETURN v'), [[1n]]);
      await db.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
