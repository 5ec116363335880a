/**
 * WAL snapshots and point-in-time recovery. Through a real server: the `wal.snapshot_interval`
 * schedule writes snapshots, `GRAPHDB_WAL_SNAPSHOT_RETENTION_MAX_COUNT` keeps the newest N, and
 * `POST /admin/restore {database, pointInTime}` recovers the database to a timestamp between two
 * commits (the first present, the second absent) from its version history, with a dry run first.
 * On the engine with an injected clock: `snapshot_retention_max_age` deletes old snapshots, and a
 * recovery whose history was pruned comes from the snapshot holding that version.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { GraphDB } from '../../src/engine/index.js';
import { PointInTimeError, WalSnapshots, planPointInTime, restoreToPointInTime } from '../../src/engine/transfer/index.js';
import { commit, request, startTestServer, type TestServer } from '../http/helpers.js';
import { storeOf } from '../../src/engine/engine-internals.js';

/** Resolves once the wall clock has moved past `time` (a commit after it gets a later timestamp). */
async function pastMillisecond(time: number): Promise<void> {
  while (Date.now() <= time) await new Promise((resolve) => setImmediate(resolve));
}

describe('WAL snapshots and point-in-time recovery on a server', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ 'wal.snapshot_interval': '100ms' }, { GRAPHDB_WAL_SNAPSHOT_RETENTION_MAX_COUNT: '2' });
  });
  after(async () => t.stop());

  async function run(statement: string): Promise<unknown[][]> {
    const answer = await commit(t.url, [statement]);
    assert.deepEqual(answer.body.errors, [], JSON.stringify(answer.body.errors));
    return (answer.body.results[0]?.data ?? []).map((d: { row: unknown[] }) => d.row);
  }

  it('the schedule writes snapshots and retention keeps the newest max_count per database', async () => {
    const deadline = Date.now() + 20_000;
    let listed = await request(`${t.url}/admin/snapshots`);
    while (listed.body.snapshots.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setImmediate(resolve));
      listed = await request(`${t.url}/admin/snapshots`);
    }
    assert.ok(listed.body.snapshots.length >= 1, 'the scheduled snapshot was written');
    for (let i = 0; i < 4; i++) {
      await run(`MERGE (:Tick {i: ${i}})`);
      const taken = await request(`${t.url}/admin/snapshots`, { method: 'POST', json: { databases: ['graphdb'] } });
      assert.equal(taken.status, 200, taken.text);
    }
    const kept = await request(`${t.url}/admin/snapshots?database=graphdb`);
    assert.equal(kept.body.snapshots.length, 2, JSON.stringify(kept.body.snapshots));
    const files = fs.readdirSync(path.join(t.dataDir, 'snapshots', 'graphdb')).filter((f) => f.endsWith('.json'));
    assert.equal(files.length, 2);
    const newest = JSON.parse(fs.readFileSync(kept.body.snapshots[0].file as string, 'utf8')) as { databases: { nodes: unknown[] }[] };
    assert.ok(newest.databases[0].nodes.length >= 4, 'the newest snapshot holds the last commit');
  });

  it('recovers a database to a timestamp between two commits: the first is there, the second is not', async () => {
    await run('MERGE (:Event {n: 1})'); // MERGE: synchronous (a pure CREATE may take the write-behind path)
    const between = Date.now();
    await pastMillisecond(between);
    await run('MERGE (:Event {n: 2})');
    await run('MATCH (e:Event {n: 1}) SET e.changed = true');
    const at = new Date(between).toISOString();

    const dry = await request(`${t.url}/admin/restore`, { method: 'POST', json: { database: 'graphdb', pointInTime: at, dryRun: true } });
    assert.equal(dry.status, 200, dry.text);
    assert.equal(dry.body.pointInTime.source, 'history');
    assert.equal(dry.body.databases[0].action, 'replace');
    assert.deepEqual(await run('MATCH (e:Event) RETURN e.n ORDER BY e.n'), [[1], [2]], 'the dry run changed nothing');

    const recovered = await request(`${t.url}/admin/restore`, { method: 'POST', json: { database: 'graphdb', pointInTime: at } });
    assert.equal(recovered.status, 200, recovered.text);
    assert.equal(recovered.body.dryRun, false);
    assert.deepEqual(await run('MATCH (e:Event) RETURN e.n, e.changed ORDER BY e.n'), [[1, null]]);
    assert.deepEqual(await run('MATCH (n:Tick) RETURN count(n)'), [[4]], 'commits before the instant are all there');
    await run('CREATE (:Event {n: 3})');
    assert.deepEqual(await run('MATCH (e:Event) RETURN e.n ORDER BY e.n'), [[1], [3]], 'writes resume');
    assert.equal(fs.readdirSync(t.dataDir).filter((f) => f.startsWith('pitr-')).length, 0, 'the temporary history cut is deleted');

    const bad = await request(`${t.url}/admin/restore`, { method: 'POST', json: { database: 'graphdb', pointInTime: at, input: '/x' } });
    assert.equal(bad.status, 400);
  });
});

describe('WAL snapshots on the engine (injected clock)', () => {
  let db: GraphDB;
  let dir: string;
  let now = Date.parse('2026-01-01T00:00:00Z');
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-wal-'));
    db = await GraphDB.open({ dataDir: dir });
  });
  after(async () => {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function run(statement: string): Promise<unknown[][]> {
    const session = db.session();
    try {
      const result = await session.run(statement);
      return (await result.pull(-1)).records.map((r) => [...r]);
    } finally {
      await session.close();
    }
  }

  it('snapshot_retention_max_age deletes snapshots older than the limit', async () => {
    const snapshots = new WalSnapshots(db, { intervalMs: 0, maxCount: 10, maxAgeMs: 3_600_000 }, undefined, () => new Date(now));
    await snapshots.take();
    now += 30 * 60_000;
    await snapshots.take();
    assert.equal(snapshots.list('graphdb').length, 2);
    now += 45 * 60_000;
    await snapshots.take();
    const left = snapshots.list('graphdb').map((s) => s.takenAt);
    assert.deepEqual(left, ['2026-01-01T01:15:00.000Z', '2026-01-01T00:30:00.000Z'], 'the one older than 1 h is gone');
  });

  it('recovers from the snapshot of that version when the history was pruned', async () => {
    const snapshots = new WalSnapshots(db, { intervalMs: 0, maxCount: 10, maxAgeMs: 0 });
    await run("CREATE (:Account {id: 'a', balance: 10})");
    await snapshots.take();
    const between = Date.now();
    await pastMillisecond(between);
    await run("MATCH (a:Account {id: 'a'}) SET a.balance = 99");
    await run("CREATE (:Account {id: 'b', balance: 5})");
    await storeOf(db).prune();
    const plan = planPointInTime(db, snapshots, { database: 'graphdb', at: new Date(between) });
    assert.equal(plan.source, 'snapshot');
    await restoreToPointInTime(db, snapshots, { database: 'graphdb', at: new Date(between) });
    assert.deepEqual(await run('MATCH (a:Account) RETURN a.id, a.balance ORDER BY a.id'), [['a', 10n]]);

    // With the history pruned and no snapshot of that version, the answer names the nearest snapshot.
    await run("CREATE (:Account {id: 'c', balance: 1})");
    const gap = Date.now();
    await pastMillisecond(gap);
    await run("MATCH (a:Account {id: 'c'}) SET a.balance = 2");
    await storeOf(db).prune();
    assert.throws(
      () => planPointInTime(db, snapshots, { database: 'graphdb', at: new Date(gap) }),
      (error: Error) =>
        error instanceof PointInTimeError && /was pruned/.test(error.message) && /nearest earlier snapshot/.test(error.message),
    );
  });
});
