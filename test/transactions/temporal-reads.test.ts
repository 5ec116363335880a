/**
 * Temporal reads on every surface (docs/temporal-reads.md), against a model recorded while
 * writing: neo4j-driver over Bolt (transaction metadata `graphdb.asOfVersion` / `graphdb.asOfTime`
 * on executeRead and auto-commit runs, and `USE graphdb AT VERSION / AT TIME`), and fetch over
 * HTTP (the `X-Graphdb-As-Of-*` headers on the transaction API and the Query API). Also: writes in
 * a temporal transaction are refused, the version-listing procedures, and reads below the prune
 * floor (not-found per key).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import neo4j, { type Driver, type Record as DriverRecord } from 'neo4j-driver';
import { request, startTestServer, type TestServer } from '../http/helpers.js';

/** The graph as the model keeps it: canonical lines, sorted. */
type State = readonly string[];

interface Model {
  nodes: Map<string, { labels: string[]; props: Record<string, unknown> }>;
  rels: Map<string, { from: string; to: string; type: string; props: Record<string, unknown> }>;
}

function canonical(model: Model): State {
  const lines = [...model.nodes].map(([name, n]) => `N ${name} ${[...n.labels].sort().join(':')} ${propsText(n.props)}`);
  for (const r of model.rels.values()) lines.push(`R ${r.from}-${r.type}->${r.to} ${propsText(r.props)}`);
  return lines.sort();
}

function propsText(props: Record<string, unknown>): string {
  return JSON.stringify(Object.fromEntries(Object.entries(props).sort(([a], [b]) => a.localeCompare(b))));
}

const NODES_QUERY = 'MATCH (n) RETURN n.name AS name, labels(n) AS labels, properties(n) AS props';
const RELS_QUERY = 'MATCH (a)-[r]->(b) RETURN a.name AS from, type(r) AS type, b.name AS to, properties(r) AS props';

/** Plain JSON of driver values (integers to numbers). */
function plain(value: unknown): unknown {
  if (neo4j.isInt(value)) return (value as { toNumber(): number }).toNumber();
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}

function stateOf(nodes: unknown[][], rels: unknown[][]): State {
  const lines = nodes.map(
    ([name, labels, props]) =>
      `N ${String(name)} ${[...(labels as string[])].sort().join(':')} ${propsText(props as Record<string, unknown>)}`,
  );
  for (const [from, type, to, props] of rels)
    lines.push(`R ${String(from)}-${String(type)}->${String(to)} ${propsText(props as Record<string, unknown>)}`);
  return lines.sort();
}

const rowsOf = (records: DriverRecord[]): unknown[][] => records.map((r) => r.keys.map((k) => plain(r.get(k))));

/** Waits (yielding to the event loop) until the wall clock has passed `ms`. */
async function clockPast(ms: number): Promise<void> {
  while (Date.now() <= ms) await new Promise((resolve) => setImmediate(resolve));
}

describe('temporal reads over Bolt and HTTP', () => {
  let t: TestServer;
  let driver: Driver;
  /** After each write: its commit version, a time at which it was the latest commit, and the model then. */
  const history: { version: number; time: string; state: State }[] = [];
  let firstVersion = 0;

  before(async () => {
    t = await startTestServer({
      'server.bolt_enabled': true,
      'server.bolt_port': 0,
      'server.bolt_address': '127.0.0.1',
      'database.mvcc_retention_max_versions': 1,
    });
    await request(`${t.url}/admin/databases/graphdb/mvcc/pause`, { method: 'POST' });
    driver = neo4j.driver(`bolt://127.0.0.1:${t.server.bolt!.port}`, neo4j.auth.basic('neo4j', 'unused'), { maxTransactionRetryTime: 0 });
    const model: Model = { nodes: new Map(), rels: new Map() };
    const session = driver.session();
    const write = async (query: string, change: (m: Model) => void): Promise<void> => {
      await session.executeWrite((tx) => tx.run(query));
      change(model);
      const bookmark = session.lastBookmarks()[0];
      const version = Number(bookmark.split(':').pop());
      const committedBy = Date.now();
      history.push({ version, time: new Date(committedBy).toISOString(), state: canonical(model) });
      await clockPast(committedBy);
    };
    await write(
      "CREATE (:Person {name: 'Zed', age: 90})",
      (m) => void m.nodes.set('Zed', { labels: ['Person'], props: { name: 'Zed', age: 90 } }),
    );
    firstVersion = history[0].version;
    await write(
      "CREATE (:Person {name: 'Ann', age: 30})",
      (m) => void m.nodes.set('Ann', { labels: ['Person'], props: { name: 'Ann', age: 30 } }),
    );
    await write(
      "CREATE (:Person {name: 'Bob', age: 40})",
      (m) => void m.nodes.set('Bob', { labels: ['Person'], props: { name: 'Bob', age: 40 } }),
    );
    await write("MATCH (a {name: 'Ann'}) SET a.age = 31", (m) => void (m.nodes.get('Ann')!.props.age = 31));
    await write("MATCH (a {name: 'Ann'}), (b {name: 'Bob'}) CREATE (a)-[:KNOWS {since: 2020}]->(b)", (m) =>
      m.rels.set('k', { from: 'Ann', to: 'Bob', type: 'KNOWS', props: { since: 2020 } }),
    );
    await write("MATCH (b {name: 'Bob'}) SET b:Manager, b.age = 41", (m) => {
      const bob = m.nodes.get('Bob')!;
      bob.labels.push('Manager');
      bob.props.age = 41;
    });
    await write('MATCH ()-[r:KNOWS]->() SET r.since = 2021', (m) => void (m.rels.get('k')!.props.since = 2021));
    for (let i = 1; i <= 5; i++) {
      await write(`MATCH (b {name: 'Bob'}) SET b.visits = ${i}`, (m) => void (m.nodes.get('Bob')!.props.visits = i));
    }
    await write("CREATE (:Person {name: 'Cid'})", (m) => void m.nodes.set('Cid', { labels: ['Person'], props: { name: 'Cid' } }));
    await write("MATCH (a {name: 'Ann'}) DETACH DELETE a", (m) => {
      m.nodes.delete('Ann');
      m.rels.delete('k');
    });
    await session.close();
  });

  after(async () => {
    await driver?.close();
    await t?.stop();
  });

  it('versions are consecutive commits (the model has one entry per commit)', () => {
    history.forEach((h, i) => assert.equal(h.version, firstVersion + i));
  });

  it('neo4j-driver: executeRead with graphdb.asOfVersion / graphdb.asOfTime metadata reads the recorded state', async () => {
    const session = driver.session();
    try {
      for (const h of history) {
        for (const metadata of [{ 'graphdb.asOfVersion': h.version }, { 'graphdb.asOfTime': h.time }]) {
          const [nodes, rels] = await session.executeRead(
            async (tx) => [rowsOf((await tx.run(NODES_QUERY)).records), rowsOf((await tx.run(RELS_QUERY)).records)],
            { metadata },
          );
          assert.deepEqual(stateOf(nodes, rels), h.state, JSON.stringify(metadata));
        }
      }
      const before = await session.run(NODES_QUERY, {}, { metadata: { 'graphdb.asOfVersion': neo4j.int(firstVersion - 1) } });
      assert.deepEqual(before.records, [], 'auto-commit run before the first write: empty');
      const latest = await session.run(NODES_QUERY);
      assert.deepEqual(
        stateOf(rowsOf(latest.records), []),
        history.at(-1)!.state.filter((l) => l.startsWith('N')),
      );
    } finally {
      await session.close();
    }
  });

  it('Cypher: USE graphdb AT VERSION n / AT TIME datetime(...) through the driver', async () => {
    for (const h of history) {
      const nodes = await driver.executeQuery(`USE graphdb AT VERSION $v ${NODES_QUERY}`, { v: neo4j.int(h.version) });
      const rels = await driver.executeQuery(`USE graphdb AT TIME datetime($t) ${RELS_QUERY}`, { t: h.time });
      assert.deepEqual(stateOf(rowsOf(nodes.records), rowsOf(rels.records)), h.state, `version ${h.version}`);
    }
  });

  it('HTTP: the transaction API and the Query API with X-Graphdb-As-Of-Version / -Time', async () => {
    for (const h of history) {
      const tx = await request(`${t.url}/db/graphdb/tx/commit`, {
        method: 'POST',
        headers: { 'X-Graphdb-As-Of-Version': String(h.version) },
        json: { statements: [{ statement: NODES_QUERY }, { statement: RELS_QUERY }] },
      });
      assert.equal(tx.status, 200);
      assert.deepEqual(tx.body.errors, []);
      const rowsOfTx = (i: number): unknown[][] => tx.body.results[i].data.map((d: { row: unknown[] }) => d.row);
      assert.deepEqual(stateOf(rowsOfTx(0), rowsOfTx(1)), h.state, `tx API at version ${h.version}`);

      const query = async (statement: string): Promise<unknown[][]> => {
        const response = await fetch(`${t.url}/db/graphdb/query/v2`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'X-Graphdb-As-Of-Time': h.time },
          body: JSON.stringify({ statement }),
        });
        assert.equal(response.status, 202);
        return ((await response.json()) as { data: { values: unknown[][] } }).data.values;
      };
      assert.deepEqual(stateOf(await query(NODES_QUERY), await query(RELS_QUERY)), h.state, `Query API at ${h.time}`);
    }
    const open = await request(`${t.url}/db/graphdb/tx`, {
      method: 'POST',
      headers: { 'X-Graphdb-As-Of-Version': String(history[1].version) },
      json: { statements: [{ statement: NODES_QUERY }] },
    });
    assert.equal(open.status, 201);
    assert.equal(open.body.results[0].data.length, 2, 'Zed and Ann at the second commit');
    const refused = await request(`${open.body.commit as string}`, {
      method: 'POST',
      json: { statements: [{ statement: 'CREATE (:Late)' }] },
    });
    assert.equal(refused.body.errors[0].code, 'Neo.ClientError.Transaction.ForbiddenDueToTransactionType');
    const bad = await request(`${t.url}/db/graphdb/tx/commit`, {
      method: 'POST',
      headers: { 'X-Graphdb-As-Of-Version': 'yesterday' },
      json: { statements: [{ statement: 'RETURN 1' }] },
    });
    assert.equal(bad.status, 400);
  });

  it('writes in a temporal transaction are refused; nothing is written', async () => {
    const session = driver.session();
    try {
      await assert.rejects(
        session.executeWrite((tx) => tx.run('CREATE (:Refused)'), { metadata: { 'graphdb.asOfVersion': history[0].version } }),
        (error: { code?: string; message?: string }) => {
          assert.equal(error.code, 'Neo.ClientError.Transaction.ForbiddenDueToTransactionType');
          assert.match(error.message ?? '', /temporal read \(as of version/);
          return true;
        },
      );
      await assert.rejects(session.run('USE graphdb AT VERSION 1 CREATE (:Refused)'), {
        code: 'Neo.ClientError.Transaction.ForbiddenDueToTransactionType',
      });
      const tx = await session.beginTransaction();
      await tx.run('CREATE (:InTx)');
      const earlier = await tx.run('USE graphdb AT VERSION $v MATCH (n) RETURN n.name AS name', { v: neo4j.int(firstVersion) });
      assert.deepEqual(
        earlier.records.map((r) => r.get('name')),
        ['Zed'],
        'a USE ... AT statement inside an explicit transaction reads the old version',
      );
      await assert.rejects(tx.run('USE graphdb AT VERSION 1 CREATE (:Refused)'), {
        code: 'Neo.ClientError.Transaction.ForbiddenDueToTransactionType',
      });
      await tx.close().catch(() => undefined);
      const count = await driver.executeQuery('MATCH (n:Refused) RETURN count(n) AS c');
      assert.equal(plain(count.records[0].get('c')), 0);
      const inTx = await driver.executeQuery('MATCH (n:InTx) RETURN count(n) AS c');
      assert.equal(plain(inTx.records[0].get('c')), 0, 'the failed statement rolled the transaction back');
      await assert.rejects(driver.executeQuery('USE graphdb AT VERSION 999999 RETURN 1'), {
        code: 'Neo.ClientError.Statement.ArgumentError',
      });
    } finally {
      await session.close();
    }
  });

  it('db.temporal.nodeVersions / relationshipVersions list versions with commit times, also of deleted entities', async () => {
    const annVersion = history[1].version;
    const { records } = await driver.executeQuery(
      'MATCH (n {name: $name}) CALL db.temporal.nodeVersions(n) YIELD version, validFrom, validTo, endVersion, deleted, labels, properties RETURN *',
      { name: 'Bob' },
      { transactionConfig: { metadata: { 'graphdb.asOfVersion': history.at(-1)!.version } } },
    );
    const bob = records.map((r) => ({
      version: plain(r.get('version')),
      age: (plain(r.get('properties')) as { age: number }).age,
      end: plain(r.get('endVersion')),
    }));
    assert.equal(bob[0].version, history[2].version, 'Bob was created by the third commit');
    assert.equal(bob.at(-1)!.end, null, 'the head is current');
    assert.equal(records.at(-1)!.get('deleted'), false);
    assert.deepEqual(records.at(-1)!.get('labels').sort(), ['Manager', 'Person']);
    const validFrom = records[0].get('validFrom').toString() as string;
    assert.ok(Date.parse(validFrom) <= Date.parse(history[2].time), `${validFrom} is the commit time of Bob's creation`);

    const annId = (
      await driver.executeQuery(
        'MATCH (n {name: "Ann"}) RETURN elementId(n) AS id',
        {},
        { transactionConfig: { metadata: { 'graphdb.asOfVersion': annVersion } } },
      )
    ).records[0].get('id') as string;
    const ann = await driver.executeQuery('CALL db.temporal.nodeVersions($id) YIELD version, endVersion, deleted, properties RETURN *', {
      id: annId,
    });
    const rows = ann.records.map((r) => [
      plain(r.get('version')),
      plain(r.get('endVersion')),
      r.get('deleted'),
      (plain(r.get('properties')) as { age: number }).age,
    ]);
    assert.deepEqual(rows, [
      [annVersion, history[3].version, false, 30],
      [history[3].version, history.at(-1)!.version, true, 31],
    ]);
    const rel = await driver.executeQuery(
      'USE graphdb AT VERSION $v MATCH ()-[r:KNOWS]->() CALL db.temporal.relationshipVersions(r) YIELD version, type, properties, validTo RETURN *',
      { v: neo4j.int(history[6].version) },
    );
    assert.deepEqual(
      rel.records.map((r) => [
        plain(r.get('version')),
        r.get('type'),
        (plain(r.get('properties')) as { since: number }).since,
        r.get('validTo') === null,
      ]),
      [
        [history[4].version, 'KNOWS', 2020, false],
        [history[6].version, 'KNOWS', 2021, true],
      ],
      'as of version 7 the second version is still current',
    );
  });

  it('below the prune floor a pruned version is not found, a never-changed key still reads', async () => {
    const pruned = await request(`${t.url}/admin/databases/graphdb/mvcc/prune`, { method: 'POST' });
    assert.equal(pruned.status, 200);
    const atAnnCreation = await driver.executeQuery(
      NODES_QUERY,
      {},
      { transactionConfig: { metadata: { 'graphdb.asOfVersion': history[1].version } } },
    );
    const names = atAnnCreation.records.map((r) => r.get('name') as string).sort();
    assert.deepEqual(names, ['Zed'], 'Ann (changed later, old versions pruned) is not found; Zed (never changed) still reads');
  });
});
