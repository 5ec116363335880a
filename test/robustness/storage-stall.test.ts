/**
 * A blocked storage call stalls only its own statement, written as the attack: another process
 * (here another SQLite connection, as `sqlite3` or a backup tool would) holds the database file's
 * write lock. A write then waits for the lock; before, it waited inside SQLite's busy handler on
 * the event loop, and every other session's reads waited with it (the issue measured 14.8 s).
 * Now the write waits on timers and reads of other sessions, run by the read workers on
 * connections of their own, are answered meanwhile; the write completes once the lock is free.
 * Read workers: `server.read_workers` (GRAPHDB_READ_WORKERS), `readWorkers` embedded.
 * Also: reads on the workers give the same answers as on the engine's thread, values of every
 * kind included, and a worker's failure is the statement's Neo4j error.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { GraphDB, toGraphError } from '../../src/engine/index.js';

async function rows(db: GraphDB, query: string, parameters: Record<string, unknown> = {}): Promise<unknown[][]> {
  const session = db.session();
  try {
    const result = await session.run(query, parameters as never);
    return (await result.pull(-1)).records.map((record) => [...record]);
  } finally {
    await session.close();
  }
}

describe('a storage call blocked by a lock held by another process', () => {
  let dir: string;
  let db: GraphDB;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-stall-'));
    db = await GraphDB.open({ dataDir: dir, search: false, readWorkers: 2, writeLockTimeoutMs: 120_000 });
    await rows(db, 'UNWIND range(1, 100) AS i CREATE (:Item {i: i})');
    // Both workers started (their start-up is not what is measured).
    await Promise.all([rows(db, 'RETURN 1 AS one'), rows(db, 'RETURN 2 AS two')]);
  });
  after(async () => {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers reads of other sessions while a write waits for the lock, then completes the write', async () => {
    const holder = new Database(path.join(dir, 'graphdb.db'));
    holder.exec('BEGIN IMMEDIATE');
    let writeSettled = false;
    const write = rows(db, 'CREATE (:Written {at: 1}) RETURN 1 AS ok').finally(() => (writeSettled = true));
    write.catch(() => undefined);
    try {
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        assert.deepEqual(await rows(db, 'MATCH (n:Item) RETURN count(n) AS c'), [[100n]]);
        assert.equal(writeSettled, false, 'the write is still waiting for the lock');
        assert.ok(performance.now() - started < 4000, 'the read did not wait for the busy timeout');
      }
    } finally {
      holder.exec('COMMIT');
      holder.close();
    }
    assert.deepEqual(await write, [[1n]]);
    assert.deepEqual(await rows(db, 'MATCH (n:Written) RETURN n.at AS at'), [[1n]]);
  });

  it('fails a write whose lock stays held past the lock timeout with a transient error, and keeps serving', async () => {
    const impatient = await GraphDB.open({ dataDir: path.join(dir, 'impatient'), search: false, readWorkers: 1, writeLockTimeoutMs: 300 });
    const holder = new Database(path.join(dir, 'impatient', 'graphdb.db'));
    holder.exec('BEGIN IMMEDIATE');
    try {
      await assert.rejects(
        rows(impatient, 'CREATE (:Never)'),
        (error) => toGraphError(error).code === 'Neo.TransientError.General.DatabaseUnavailable',
      );
      assert.deepEqual(await rows(impatient, 'MATCH (n) RETURN count(n) AS c'), [[0n]]);
    } finally {
      holder.exec('COMMIT');
      holder.close();
      await impatient.close();
    }
  });
});

describe('reads on the read workers', () => {
  let plain: GraphDB;
  let pooled: GraphDB;
  let dir: string;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-workers-'));
    plain = await GraphDB.open({ dataDir: dir, search: false });
    await rows(
      plain,
      `CREATE (a:P {name: 'a', born: date('1990-05-17'), at: datetime('2020-01-02T03:04:05.123456789+01:00[Europe/Paris]'),
                    t: localtime('12:00'), d: duration('P1Y2M3DT4H'), loc: point({x: 1.5, y: 2, z: 3}), tags: ['x', 'y'], n: 12})
              -[:KNOWS {since: 2001}]->(b:P:Q {name: 'b'})`,
    );
    await plain.close();
    plain = await GraphDB.open({ dataDir: dir, search: false });
    pooled = await GraphDB.open({ dataDir: dir, search: false, readWorkers: 2 });
  });
  after(async () => {
    await plain.close();
    await pooled.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  for (const query of [
    'MATCH (n:P) RETURN n ORDER BY n.name',
    'MATCH p = (:P)-[r:KNOWS]->(b) RETURN p, r, b, labels(b) AS labels',
    'MATCH (n:P {name: $name}) RETURN n.born, n.at, n.t, n.d, n.loc, n.tags, n.n + $k AS sum, {m: n.tags} AS m',
    'UNWIND range(1, 2500) AS i RETURN i, i * 2 AS twice',
    'MATCH (n) RETURN count(n) AS c, collect(n.name) AS names',
  ]) {
    it(`answers as the engine's thread does: ${query}`, async () => {
      const parameters = { name: 'a', k: 30n };
      assert.deepEqual(await rows(pooled, query, parameters), await rows(plain, query, parameters));
    });
  }

  it('reports a failure as the statement error', async () => {
    await assert.rejects(rows(pooled, 'UNWIND [1, 0] AS x RETURN 1 / x AS y'), { code: 'Neo.ClientError.Statement.ArithmeticError' });
    await assert.rejects(rows(pooled, 'MATCH (n) RETURN n.name - 1 AS bad'), { code: /^Neo\.ClientError\.Statement\./ });
  });

  it('sees a commit made just before on the engine thread', async () => {
    const session = pooled.session();
    await (await session.run("CREATE (:Fresh {v: 'new'})")).pull(-1);
    const result = await session.run('MATCH (n:Fresh) RETURN n.v AS v');
    assert.deepEqual((await result.pull(-1)).records, [['new']]);
    await session.close();
  });
});
