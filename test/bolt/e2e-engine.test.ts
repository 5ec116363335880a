/**
 * The official neo4j-driver against the Bolt server over the real engine (GraphDB on a
 * temporary directory): sessions, transactions, retries, every value type, streaming, errors.
 * The 1M-row streaming check is `test/bolt/helpers/stream-1m.ts` (run by hand; too slow for CI).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import neo4j, { type Driver } from 'neo4j-driver';
import { GraphDB } from '../../src/engine/index.js';
import { startBoltServer, type BoltServer } from '../../src/server/bolt/index.js';
import { eventually } from '../helpers/eventually.js';

const auth = neo4j.auth.basic('neo4j', 'any');

describe('neo4j-driver end to end with the real engine', () => {
  let db: GraphDB;
  let server: BoltServer;
  let driver: Driver;
  const lines: string[] = [];
  before(async () => {
    db = await GraphDB.open({ writeLockTimeoutMs: 100 });
    const logger = {
      debug: (line: string) => lines.push(line),
      info: () => undefined,
      warn: () => undefined,
      error: (line: string) => lines.push(line),
    };
    server = await startBoltServer({ port: 0, host: '127.0.0.1', engine: db, logger });
    driver = neo4j.driver(`bolt://127.0.0.1:${server.port}`, auth);
  });
  after(async () => {
    await driver.close();
    await server.close();
    await db.close();
  });

  it('auto-commit statements, counters and bookmarks on bolt://', async () => {
    const session = driver.session();
    try {
      const created = await session.run(
        "CREATE (a:E2E {name: 'a'})-[:R {w: 1}]->(b:E2E {name: 'b'}) RETURN id(a) AS id, elementId(a) AS eid, a",
      );
      const counters = created.summary.counters.updates();
      assert.equal(counters.nodesCreated, 2);
      assert.equal(counters.relationshipsCreated, 1);
      assert.equal(counters.propertiesSet, 3);
      assert.equal(created.summary.queryType, 'rw');
      const record = created.records[0];
      const node = record.get('a');
      assert.ok(record.get('id').equals(node.identity), 'id() equals the Bolt node id');
      assert.equal(record.get('eid'), node.elementId, 'elementId() equals the Bolt element id');
      assert.ok(session.lastBookmarks().length > 0);
    } finally {
      await session.close();
    }
  });

  it('neo4j:// routing, executeRead and executeWrite', async () => {
    const routed = neo4j.driver(`neo4j://127.0.0.1:${server.port}`, auth);
    try {
      const session = routed.session();
      await session.executeWrite((tx) => tx.run('CREATE (:Routed {v: 1})'));
      const count = await session.executeRead(async (tx) => (await tx.run('MATCH (n:Routed) RETURN count(n) AS c')).records[0].get('c'));
      assert.ok(neo4j.int(1).equals(count));
      await session.close();
    } finally {
      await routed.close();
    }
  });

  it('explicit transaction with rollback leaves nothing behind', async () => {
    const session = driver.session();
    try {
      const tx = await session.beginTransaction();
      await tx.run('CREATE (:Rolled {v: 1})');
      const inside = await tx.run('MATCH (n:Rolled) RETURN count(n) AS c');
      assert.ok(neo4j.int(1).equals(inside.records[0].get('c')));
      await tx.rollback();
      const outside = await session.run('MATCH (n:Rolled) RETURN count(n) AS c');
      assert.ok(neo4j.int(0).equals(outside.records[0].get('c')));
    } finally {
      await session.close();
    }
  });

  it('every value type round-trips as parameter and result', async () => {
    const values: Record<string, unknown> = {
      maxInt: neo4j.int('9223372036854775807'),
      minInt: neo4j.int('-9223372036854775808'),
      float: 0.1,
      string: 'graph ✓ 🚀',
      boolean: false,
      null: null,
      bytes: new Int8Array([1, -2, 3]),
      list: [neo4j.int(1), 2.5, 'x', null, [true]],
      map: { k: neo4j.int(7), inner: { s: 's' } },
      date: new neo4j.types.Date(1999, 12, 31),
      localTime: new neo4j.types.LocalTime(23, 59, 59, 999999999),
      time: new neo4j.types.Time(8, 0, 0, 0, -18000),
      localDateTime: new neo4j.types.LocalDateTime(2000, 1, 1, 0, 0, 0, 0),
      dateTimeOffset: new neo4j.types.DateTime(2021, 6, 1, 12, 0, 0, 5, 19800),
      dateTimeZone: new neo4j.types.DateTime(2021, 6, 1, 12, 0, 0, 0, undefined, 'America/New_York'),
      duration: new neo4j.types.Duration(1, 2, 3, 4),
      point: new neo4j.types.Point(4326, 18.07, 59.33),
      point3d: new neo4j.types.Point(9157, 1, 2, 3),
    };
    for (const [name, value] of Object.entries(values)) {
      const result = await driver.executeQuery('RETURN $x AS x', { x: value });
      const back = result.records[0].get('x');
      const expected = name === 'dateTimeZone' ? 'DateTime:2021-06-01T12:00:00-04:00[America/New_York]' : normalize(value);
      assert.deepEqual(normalize(back), expected, name);
    }
    const literal = await driver.executeQuery('RETURN 9223372036854775807 AS big, 1 AS one, 1.0 AS float');
    assert.ok(neo4j.int('9223372036854775807').equals(literal.records[0].get('big')));
    assert.ok(neo4j.isInt(literal.records[0].get('one')), 'integers stay integers');
    assert.equal(typeof literal.records[0].get('float'), 'number');
  });

  it('graph values: nodes, relationships and paths in both directions', async () => {
    await driver.executeQuery("CREATE (:P {n: 1})-[:T {k: 'x'}]->(:P {n: 2})");
    const result = await driver.executeQuery('MATCH p = (a:P {n: 2})<-[r:T]-(b:P {n: 1}) RETURN p, r, a');
    const path = result.records[0].get('p');
    const rel = result.records[0].get('r');
    assert.equal(path.length, 1);
    assert.equal(path.start.properties.n.toNumber(), 2);
    assert.equal(path.end.properties.n.toNumber(), 1);
    assert.equal(path.segments[0].relationship.type, 'T');
    assert.equal(rel.properties.k, 'x');
    assert.equal(rel.startNodeElementId, path.end.elementId);
  });

  it('errors carry the right codes and the session recovers (RESET)', async () => {
    const session = driver.session();
    try {
      const cases: [string, Record<string, unknown>, string][] = [
        ['RETURN 1 +', {}, 'Neo.ClientError.Statement.SyntaxError'],
        ['RETURN 1 / 0', {}, 'Neo.ClientError.Statement.ArithmeticError'],
        ['RETURN $missing', {}, 'Neo.ClientError.Statement.ParameterMissing'],
        ['RETURN $s - 1', { s: 'a' }, 'Neo.ClientError.Statement.TypeError'],
      ];
      for (const [query, params, code] of cases) {
        await assert.rejects(
          async () => void (await session.run(query, params)),
          (error: Error & { code?: string }) => {
            assert.equal(error.code, code, query);
            return true;
          },
        );
      }
      const tx = await session.beginTransaction();
      await assert.rejects(async () => void (await tx.run('RETURN 1 / 0')));
      await tx.close();
      const ok = await session.run('RETURN 2 AS n');
      assert.ok(neo4j.int(2).equals(ok.records[0].get('n')));
    } finally {
      await session.close();
    }
  });

  it('executeWrite retries a transient write conflict', async () => {
    await driver.executeQuery('CREATE (:Counter {v: 0})');
    const holder = driver.session();
    const tx = await holder.beginTransaction();
    await tx.run('MATCH (c:Counter) SET c.v = c.v + 1');
    const transient = () => lines.filter((line) => line.includes('S: FAILURE') && line.includes('TransientError')).length;
    const failuresBefore = transient();
    const contender = driver.session();
    const pending = contender.executeWrite((work) => work.run('MATCH (c:Counter) SET c.v = c.v + 10'));
    await eventually(() => (transient() > failuresBefore ? true : undefined), 'a transient failure of the contender');
    await tx.commit();
    await pending;
    await holder.close();
    await contender.close();
    const transientFailures =
      lines.filter((line) => line.includes('S: FAILURE') && line.includes('TransientError')).length - failuresBefore;
    assert.ok(transientFailures >= 1, 'the first attempt met a transient write conflict');
    const result = await driver.executeQuery('MATCH (c:Counter) RETURN c.v AS v');
    assert.ok(neo4j.int(11).equals(result.records[0].get('v')));
  });

  it('streams a large result in batches', async () => {
    const session = driver.session({ fetchSize: 2000 });
    try {
      let count = 0;
      let sum = 0;
      for await (const record of session.run('UNWIND range(1, 30000) AS i RETURN i')) {
        count++;
        sum += record.get('i').toNumber();
      }
      assert.equal(count, 30000);
      assert.equal(sum, (30000 * 30001) / 2);
    } finally {
      await session.close();
    }
  });

  it('EXPLAIN and PROFILE plans reach the summary', async () => {
    const explained = await driver.executeQuery('EXPLAIN MATCH (n:E2E) RETURN n');
    assert.equal(explained.records.length, 0);
    assert.equal(explained.summary.hasPlan(), true);
    assert.equal(typeof (explained.summary.plan && explained.summary.plan.operatorType), 'string');
    const profiled = await driver.executeQuery('PROFILE MATCH (n:E2E) RETURN n');
    assert.equal(profiled.records.length, 2);
    assert.equal(profiled.summary.hasProfile(), true);
  });

  it('database selection: the default by name, an unknown one fails', async () => {
    const named = driver.session({ database: 'graphdb' });
    try {
      const result = await named.run('RETURN 1 AS n');
      assert.equal(result.summary.database.name, 'graphdb');
    } finally {
      await named.close();
    }
    const missing = driver.session({ database: 'nope' });
    try {
      await assert.rejects(
        async () => void (await missing.run('RETURN 1')),
        (error: Error & { code?: string }) => {
          assert.equal(error.code, 'Neo.ClientError.Database.DatabaseNotFound');
          return true;
        },
      );
    } finally {
      await missing.close();
    }
  });

  it('concurrent sessions read and write', async () => {
    const workers = Array.from({ length: 8 }, async (_, worker) => {
      const session = driver.session();
      try {
        for (let i = 0; i < 10; i++) {
          await session.executeWrite((tx) => tx.run('CREATE (:Concurrent {worker: $w, i: $i})', { w: neo4j.int(worker), i: neo4j.int(i) }));
        }
        const mine = await session.run('MATCH (n:Concurrent {worker: $w}) RETURN count(n) AS c', { w: neo4j.int(worker) });
        return mine.records[0].get('c').toNumber();
      } finally {
        await session.close();
      }
    });
    assert.deepEqual(await Promise.all(workers), Array(8).fill(10));
  });
});

/** Driver values to comparable plain data. */
function normalize(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (neo4j.isInt(value)) return `int:${value.toString()}`;
  if (value instanceof Int8Array || value instanceof Uint8Array) return `bytes:${Buffer.from(value).toString('hex')}`;
  if (Array.isArray(value)) return value.map(normalize);
  if (value instanceof neo4j.types.Point) return `point:${Number(value.srid)}:${value.x}:${value.y}:${value.z}`;
  if (typeof value === 'object' && value.constructor !== Object)
    return `${value.constructor.name}:${(value as { toString(): string }).toString()}`;
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalize(v)]));
  return value;
}
