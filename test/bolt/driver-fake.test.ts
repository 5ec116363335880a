/**
 * The official neo4j-driver against the Bolt server over the scripted fake engine: protocol
 * behaviour independent of the Cypher engine (value mapping via ECHO, retries, routing, streaming).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import neo4j, { type Driver } from 'neo4j-driver';
import type { BoltServer } from '../../src/server/bolt/index.js';
import {
  CypherDate,
  CypherDateTime,
  CypherDuration,
  CypherPoint,
  CypherTime,
  LocalDateTime,
  LocalTime,
  CypherVector,
} from '../../src/engine/values/types.js';
import { eventually } from '../helpers/eventually.js';
import { RawBoltClient } from './helpers/bolt-client.js';
import type { FakeEngineLog } from './helpers/fake-engine.js';
import { startFakeServer } from './helpers/server.js';

describe('neo4j-driver over the fake engine', () => {
  let server: BoltServer;
  let log: FakeEngineLog;
  let driver: Driver;
  before(async () => {
    ({ server, log } = await startFakeServer());
    driver = neo4j.driver(`bolt://127.0.0.1:${server.port}`, neo4j.auth.basic('neo4j', 'pw'), { disableLosslessIntegers: false });
  });
  after(async () => {
    await driver.close();
    await server.close();
  });

  it('connects with bolt:// and neo4j:// (ROUTE)', async () => {
    const result = await driver.executeQuery('ONE');
    assert.ok(neo4j.int(1).equals(result.records[0].get('n')));
    assert.equal(result.summary.server.protocolVersion?.toString(), '6.0');
    const routed = neo4j.driver(`neo4j://127.0.0.1:${server.port}`, neo4j.auth.basic('neo4j', 'pw'));
    try {
      const again = await routed.executeQuery('ONE', {}, { routing: neo4j.routing.READ });
      assert.ok(neo4j.int(1).equals(again.records[0].get('n')));
      const info = await routed.getServerInfo();
      assert.equal(info.address, `127.0.0.1:${server.port}`);
    } finally {
      await routed.close();
    }
  });

  it('round-trips every value type as parameter and result', async () => {
    const values: Record<string, unknown> = {
      int: neo4j.int('9223372036854775807'),
      negative: neo4j.int(-17),
      float: 1.5,
      string: 'héllo ✓',
      bool: true,
      null: null,
      bytes: new Int8Array([0, 1, -1]),
      list: [neo4j.int(1), 'two', [3.5]],
      map: { a: neo4j.int(1), nested: { b: 'c' } },
      date: new neo4j.types.Date(2024, 2, 29),
      localTime: new neo4j.types.LocalTime(12, 30, 15, 123456789),
      time: new neo4j.types.Time(12, 30, 15, 0, 3600),
      localDateTime: new neo4j.types.LocalDateTime(2024, 3, 31, 2, 30, 0, 1),
      dateTimeOffset: new neo4j.types.DateTime(2024, 3, 31, 4, 30, 0, 0, 7200),
      dateTimeZone: new neo4j.types.DateTime(2024, 3, 31, 4, 30, 0, 0, undefined, 'Europe/Stockholm'),
      duration: new neo4j.types.Duration(14, 3, 3600, 5),
      point2d: new neo4j.types.Point(7203, 1.5, 2.5),
      point3d: new neo4j.types.Point(4979, 12.5, 56.25, 100),
    };
    for (const [name, value] of Object.entries(values)) {
      const result = await driver.executeQuery('ECHO', { x: value });
      const back = result.records[0].get('x');
      // The server answers a zoned DateTime with the offset in effect, which the driver shows.
      const expected = name === 'dateTimeZone' ? 'DateTime:2024-03-31T04:30:00+02:00[Europe/Stockholm]' : normalize(value);
      assert.deepEqual(normalize(back), expected, name);
    }
  });

  it('decodes temporal parameters into engine values', async () => {
    const session = driver.session();
    try {
      await session.run('ECHO', {
        x: [
          new neo4j.types.Date(1970, 1, 2),
          new neo4j.types.LocalTime(0, 0, 1, 5),
          new neo4j.types.Time(0, 0, 1, 0, -3600),
          new neo4j.types.LocalDateTime(1970, 1, 1, 0, 1, 0, 0),
          new neo4j.types.DateTime(2024, 3, 31, 4, 30, 0, 0, undefined, 'Europe/Stockholm'),
          new neo4j.types.Duration(1, 2, 3, 4),
          new neo4j.types.Point(7203, 1, 2),
        ],
      });
      const list = log.runs.at(-1)!.parameters.get('x') as unknown[];
      assert.deepEqual(list, [
        new CypherDate(1),
        new LocalTime(1_000_000_005),
        new CypherTime(1_000_000_000, -3600),
        new LocalDateTime(60n, 0),
        new CypherDateTime(1711852200n, 0, 7200, 'Europe/Stockholm'),
        new CypherDuration(1, 2, 3n, 4),
        new CypherPoint(7203, 1, 2, null),
      ]);
    } finally {
      await session.close();
    }
  });

  it('decodes Bolt 6 vectors into VECTOR values and sends them back as Vector structures', async () => {
    const cases = [
      [neo4j.vector(Float32Array.from([0.5, -1.25])), 'FLOAT32', [0.5, -1.25]],
      [neo4j.vector(BigInt64Array.from([1n, -(2n ** 40n)])), 'INTEGER', [1n, -(2n ** 40n)]],
      [neo4j.vector(Int8Array.from([-3, 4])), 'INTEGER8', [-3n, 4n]],
    ] as const;
    for (const [sent, type, coordinates] of cases) {
      const result = await driver.executeQuery('ECHO', { x: sent });
      const received = log.runs.at(-1)!.parameters.get('x');
      assert.ok(received instanceof CypherVector);
      assert.equal(received.coordinateType, type);
      assert.deepEqual(received.toList(), coordinates);
      const echoed = result.records[0].get('x') as typeof sent;
      assert.ok(neo4j.isVector(echoed));
      assert.deepEqual([...echoed.asTypedArray()], [...sent.asTypedArray()]);
    }
  });

  it('reports errors with their codes, and the session recovers (RESET)', async () => {
    const session = driver.session();
    try {
      await assert.rejects(session.run('FAIL Neo.ClientError.Statement.ArithmeticError'), (error: Error & { code?: string }) => {
        assert.equal(error.code, 'Neo.ClientError.Statement.ArithmeticError');
        return true;
      });
      const ok = await session.run('ONE');
      assert.equal(ok.records.length, 1);
    } finally {
      await session.close();
    }
  });

  it('executeWrite retries transient errors', async () => {
    await driver.executeQuery('CONFLICT_TIMES 1');
    const session = driver.session();
    const before = log.runs.filter((r) => r.query === 'CONFLICT').length;
    try {
      const value = await session.executeWrite(async (tx) => (await tx.run('CONFLICT')).records[0].get('ok'));
      assert.equal(value, true);
      assert.equal(log.runs.filter((r) => r.query === 'CONFLICT').length - before, 2);
    } finally {
      await session.close();
    }
  });

  it('explicit transaction rollback, counters and bookmarks', async () => {
    const session = driver.session();
    try {
      const tx = await session.beginTransaction();
      const created = await tx.run('CREATE');
      assert.equal(created.summary.counters.updates().nodesCreated, 2);
      assert.equal(created.summary.counters.updates().propertiesSet, 3);
      assert.equal(created.summary.counters.containsUpdates(), true);
      await tx.rollback();
      const auto = await session.run('CREATE');
      assert.equal(auto.summary.queryType, 'w');
      assert.equal(auto.summary.database.name, 'neo4j');
      assert.match(session.lastBookmarks()[0] ?? '', /^bm:/);
    } finally {
      await session.close();
    }
  });

  it('notifications and plans reach the summary', async () => {
    const result = await driver.executeQuery('NOTIFY');
    assert.equal(result.summary.notifications[0]?.code, 'Neo.ClientNotification.Statement.CartesianProduct');
    assert.equal(result.summary.notifications[0]?.severityLevel, 'WARNING');
    assert.equal(result.summary.gqlStatusObjects[0]?.gqlStatus, '00000');
    assert.equal(
      result.summary.notifications[0]?.position && 'line' in result.summary.notifications[0].position
        ? result.summary.notifications[0].position.line
        : 0,
      1,
    );
    assert.equal(result.summary.hasPlan(), true);
    assert.equal(result.summary.plan && result.summary.plan.operatorType, 'ProduceResults');
  });

  it('streams a large result in batches to concurrent sessions', async () => {
    const runs = Array.from({ length: 4 }, async () => {
      const session = driver.session({ fetchSize: 500 });
      try {
        let count = 0;
        const result = session.run('RANGE', { n: neo4j.int(5_000) });
        for await (const record of result) {
          assert.ok(neo4j.int(count).equals(record.get('i')));
          count++;
        }
        return count;
      } finally {
        await session.close();
      }
    });
    assert.deepEqual(await Promise.all(runs), Array(4).fill(5_000));
  });

  it('does not buffer a whole result for a client that stops reading', async () => {
    const baseline = server.connectionCount;
    const client = await RawBoltClient.connect(server.port);
    await client.handshake([(8 << 8) | 5]);
    client.startMessages();
    client.send(0x01, [new Map([['user_agent', 'slow/1']])]);
    client.send(0x6a, [new Map([['scheme', 'none']])]);
    await client.next();
    await client.next();
    const before = log.produced;
    const total = 2_000_000;
    client.socket.pause();
    client.send(0x10, ['RANGE', new Map([['n', BigInt(total)]]), new Map()]);
    client.send(0x3f, [new Map([['n', -1n]])]);
    // Production stops once the socket buffers are full: wait until the count stays put for five checks.
    let last = -1;
    let unchanged = 0;
    await eventually(() => {
      unchanged = log.produced > before && log.produced === last ? unchanged + 1 : 0;
      last = log.produced;
      return unchanged >= 5 ? true : undefined;
    }, 'production to stall');
    const stalled = log.produced - before;
    assert.ok(stalled < total / 8, `produced ${stalled} of ${total} while the client was not reading`);
    // A client that goes away mid-stream stops the production too.
    client.close();
    await eventually(() => (server.connectionCount === baseline ? true : undefined), 'the server to drop the connection', 2_000);
    assert.ok(log.produced - before < total / 4, `produced ${log.produced - before} after the client left`);
  });
});

/** Driver values to comparable plain data (Integer -> string, temporal -> string). */
function normalize(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (neo4j.isInt(value)) return `int:${value.toString()}`;
  if (value instanceof Uint8Array || value instanceof Int8Array) return `bytes:${Buffer.from(value).toString('hex')}`;
  if (Array.isArray(value)) return value.map(normalize);
  if (value instanceof neo4j.types.Point) return `point:${Number(value.srid)}:${value.x}:${value.y}:${value.z}`;
  if (typeof value === 'object' && value.constructor !== Object)
    return `${value.constructor.name}:${(value as { toString(): string }).toString()}`;
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalize(v)]));
  return value;
}
