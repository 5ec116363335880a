/**
 * MVCC admin surface against a real server (port 0, temp data dir): status, debt, manual prune,
 * schedule/pause/resume with the periodic lifecycle timer, the system-database exclusion, the
 * mvcc_* metrics and the OpenAPI entries.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { systemClock, type LifecycleClock } from '../../src/engine/mvcc/lifecycle/clock.js';
import { eventually } from '../helpers/eventually.js';
import { commit, request, startTestServer, type TestServer } from '../http/helpers.js';
import { storeOf } from '../../src/engine/engine-internals.js';

/** Wall-clock time whose periodic timers run only when the test calls `tick()` (each once). */
function tickedClock(): LifecycleClock & { tick(): void } {
  const timers = new Set<() => void>();
  return {
    now: () => systemClock.now(),
    sleep: (ms) => systemClock.sleep(ms),
    every: (_ms, fn) => {
      timers.add(fn);
      return () => timers.delete(fn);
    },
    tick: () => [...timers].forEach((fn) => fn()),
  };
}

describe('MVCC admin routes', () => {
  let t: TestServer;
  let base: string;
  const clock = tickedClock();
  before(async () => {
    t = await startTestServer({ 'database.mvcc_retention_max_versions': 1 }, {}, { lifecycleClock: clock });
    base = `${t.url}/admin/databases/graphdb/mvcc`;
  });
  after(() => t.stop());

  /** Creates a node and rewrites it `updates` times: `updates` closed versions. */
  async function churn(key: string, updates: number): Promise<void> {
    const created = await commit(t.url, [{ statement: 'CREATE (:Churn {key: $key, v: 0})', parameters: { key } }]);
    assert.deepEqual(created.body.errors, []);
    for (let i = 1; i <= updates; i++) {
      const updated = await commit(t.url, [
        { statement: 'MATCH (n:Churn {key: $key}) SET n.v = $v, n.pad = $pad', parameters: { key, v: i, pad: 'x'.repeat(100) } },
      ]);
      assert.deepEqual(updated.body.errors, []);
    }
  }

  it('status reports lifecycle, pressure band, readers, debt and history; /mvcc and /mvcc/status agree', async () => {
    await churn('a', 4);
    const status = await request(base);
    assert.equal(status.status, 200, status.text);
    const body = status.body;
    assert.equal(body.database, 'graphdb');
    assert.equal(body.lifecycle.state, 'manual-only');
    assert.deepEqual(body.lifecycle.retention, { max_versions: 1, ttl: '0ms', hard_cap: 1000 });
    assert.equal(body.pressure.band, 'normal');
    assert.ok(body.pressure.thresholds.high_enter >= 5 * 1024 ** 3);
    assert.equal(body.pressure.thresholds.high_exit, 0.8 * body.pressure.thresholds.high_enter);
    assert.ok(body.pressure.thresholds.critical_enter >= 20 * 1024 ** 3);
    assert.equal(body.oldest_reader, null);
    assert.equal(body.active_readers, 0);
    assert.equal(body.pinned_bytes, 0);
    assert.equal(body.history.closed_versions.nodes, 4);
    assert.equal(body.debt.keys, 1, 'one node has closed versions beyond the cap of 1');
    assert.equal(body.debt.versions, 3);
    assert.ok(body.debt.bytes > 0);
    assert.equal(body.last_run, null);
    assert.equal(body.fence_mismatches, 0);
    const alias = await request(`${base}/status`);
    assert.equal(alias.status, 200);
    assert.deepEqual(alias.body.debt, body.debt);
  });

  it('debt lists the top keys by bytes, capped by limit', async () => {
    await churn('b', 7);
    const debt = await request(`${base}/debt?limit=1`);
    assert.equal(debt.status, 200, debt.text);
    assert.equal(debt.body.keys, 2);
    assert.equal(debt.body.versions, 3 + 6);
    assert.equal(debt.body.top.length, 1);
    assert.equal(debt.body.top[0].kind, 'node');
    assert.equal(debt.body.top[0].versions, 6, 'the node with the most prunable versions comes first');
    const all = await request(`${base}/debt`);
    assert.equal(all.body.top.length, 2);
    assert.equal((await request(`${base}/debt?limit=abc`)).status, 400);
  });

  it('prune runs one cycle with the retention settings and records the last run and metrics', async () => {
    const pruned = await request(`${base}/prune`, { method: 'POST' });
    assert.equal(pruned.status, 200, pruned.text);
    assert.equal(pruned.body.run.trigger, 'manual');
    assert.equal(pruned.body.run.pruned_versions, 9);
    assert.ok(pruned.body.run.pruned_bytes > 0);
    assert.equal(pruned.body.run.error, null);
    const status = await request(base);
    assert.equal(status.body.debt.keys, 0);
    assert.equal(status.body.history.closed_versions.nodes, 2, 'one closed version kept per node');
    assert.equal(status.body.last_run.pruned_versions, 9);
    const rows = await commit(t.url, ['MATCH (n:Churn) RETURN n.key, n.v ORDER BY n.key']);
    assert.deepEqual(
      rows.body.results[0].data.map((d: { row: unknown[] }) => d.row),
      [
        ['a', 4],
        ['b', 7],
      ],
      'heads untouched',
    );

    const metrics = await request(`${t.url}/metrics`);
    assert.equal(metrics.status, 200);
    const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(metrics.text)?.[1]);
    assert.equal(value('mvcc_pruned_bytes_total'), pruned.body.run.pruned_bytes);
    assert.equal(value('mvcc_active_snapshot_readers'), 0);
    assert.equal(value('mvcc_compaction_debt_keys'), 0);
    assert.equal(value('mvcc_prune_stale_plan_skips_total'), 0);
    assert.equal(value('mvcc_prune_run_duration_seconds_count'), 1);
    assert.match(metrics.text, /^mvcc_compaction_debt_bytes\{database="graphdb"\} 0$/m);
  });

  it('schedule starts the periodic timer; pause stops it keeping the interval; resume restarts; 0s is manual-only', async () => {
    const scheduled = await request(`${base}/schedule`, { method: 'POST', json: { interval: '1s' } });
    assert.equal(scheduled.status, 200, scheduled.text);
    assert.deepEqual(scheduled.body, { database: 'graphdb', state: 'running', interval: '1s' });
    await churn('c', 3);
    clock.tick();
    let status = await eventually(async () => {
      const current = await request(base);
      return current.body.last_run?.trigger === 'scheduled' ? current : undefined;
    }, 'the scheduled cycle');
    assert.equal(status.body.debt.keys, 0, 'the scheduled cycle pruned the new history');

    const paused = await request(`${base}/pause`, { method: 'POST' });
    assert.deepEqual(paused.body, { database: 'graphdb', state: 'paused', interval: '1s' });
    const runs = (await request(base)).body.totals.runs;
    await churn('d', 3);
    clock.tick();
    status = await request(`${base}?refresh=true`);
    assert.equal(status.body.totals.runs, runs, 'no cycle while paused');
    assert.equal(status.body.debt.keys, 1);

    const resumed = await request(`${base}/resume`, { method: 'POST' });
    assert.equal(resumed.body.state, 'running');
    clock.tick();
    status = await eventually(async () => {
      const current = await request(base);
      return current.body.debt.keys === 0 ? current : undefined;
    }, 'a resumed cycle');
    assert.equal(status.body.debt.keys, 0, 'cycles resumed');

    const manual = await request(`${base}/schedule`, { method: 'POST', json: { interval: '0s' } });
    assert.equal(manual.body.state, 'manual-only');
    assert.equal((await request(`${base}/schedule`, { method: 'POST', json: { interval: 'soon' } })).status, 400);
    assert.equal((await request(`${base}/schedule`, { method: 'POST', json: { interval: '500ms' } })).status, 400);
    assert.equal((await request(`${base}/schedule`, { method: 'POST', json: { interval: '30d' } })).status, 400);
    assert.equal((await request(`${base}/schedule`, { method: 'POST', json: {} })).status, 400);
  });

  it('an open snapshot reader shows as the oldest reader, pins bytes and keeps its versions through a prune', async () => {
    await churn('e', 1);
    const reader = storeOf(t.server.engine.graphdb, 'graphdb').beginRead();
    try {
      for (let i = 2; i <= 4; i++) {
        const updated = await commit(t.url, [{ statement: "MATCH (n:Churn {key: 'e'}) SET n.v = $v", parameters: { v: i } }]);
        assert.deepEqual(updated.body.errors, []);
      }
      let status = await request(`${base}?refresh=true`);
      assert.equal(status.body.active_readers, 1);
      assert.notEqual(status.body.oldest_reader, null);
      assert.ok(status.body.oldest_reader.age_seconds >= 0);
      assert.ok(status.body.pinned_bytes > 0, 'the version the reader sees is closed and pinned');
      assert.equal(status.body.pressure.pinned_bytes, status.body.pinned_bytes);
      const pruned = await request(`${base}/prune`, { method: 'POST' });
      assert.equal(pruned.status, 200, pruned.text);
      status = await request(`${base}?refresh=true`);
      assert.ok(status.body.pinned_bytes > 0, 'the pinned version survived the prune');
      const metrics = await request(`${t.url}/metrics`);
      assert.match(metrics.text, /^mvcc_active_snapshot_readers 1$/m);
      assert.match(metrics.text, /^mvcc_bytes_pinned_by_oldest_reader [1-9]\d*$/m);
    } finally {
      reader.close();
    }
    const status = await request(`${base}?refresh=true`);
    assert.equal(status.body.active_readers, 0);
    assert.equal(status.body.oldest_reader, null);
    assert.equal(status.body.pinned_bytes, 0);
  });

  it('the picker excludes system and unknown databases', async () => {
    const system = await request(`${t.url}/admin/databases/system/mvcc`);
    assert.equal(system.status, 400);
    assert.match(system.body.errors[0].message, /system/);
    assert.equal((await request(`${t.url}/admin/databases/nope/mvcc/prune`, { method: 'POST' })).status, 404);
  });

  it('every route is in /openapi.json', async () => {
    const doc = await request(`${t.url}/openapi.json`);
    const paths = Object.keys(doc.body.paths);
    for (const path of ['mvcc', 'mvcc/status', 'mvcc/pause', 'mvcc/resume', 'mvcc/prune', 'mvcc/schedule', 'mvcc/debt']) {
      assert.ok(paths.includes(`/admin/databases/{db}/${path}`), path);
    }
    for (const path of ['/admin/backup', '/admin/restore', '/gdpr/export', '/gdpr/delete']) assert.ok(paths.includes(path), path);
  });
});
