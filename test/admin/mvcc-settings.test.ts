/**
 * The `mvcc.*` settings observed one by one against a real server (port 0, temp data dir), the
 * lifecycle on a manual clock (no fixed sleeps): mvcc.max_chain_hard_cap caps a hot entity's
 * closed versions inside the retention TTL; mvcc.budget_keys, mvcc.max_io_bytes and
 * mvcc.max_cycle_runtime stop a cycle at their ceiling and later cycles resume where it stopped;
 * mvcc.max_cpu_share makes a cycle rest between slices; mvcc.min_slice_keys raises a database's
 * budget; mvcc.high_long_snapshot_rate limits long snapshots in the high band;
 * mvcc.pressure_critical_enter turns the band critical (long snapshots refused with
 * Neo.TransientError.Request.ResourceExhaustion) and mvcc.hard_expiry_after expires the oldest
 * reader after sustained critical pressure.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setImmediate as yieldImmediate } from 'node:timers/promises';
import type { LifecycleClock } from '../../src/engine/index.js';
import { commit, request, startTestServer, type TestServer } from '../http/helpers.js';
import { storeOf } from '../../src/engine/engine-internals.js';

/** A lifecycle clock that moves only when told to, or by the time a sleeper asks for. */
interface ManualClock extends LifecycleClock {
  advance(ms: number): void;
  /** Runs every registered ticker once (reader policy, evaluation). */
  tick(): void;
  /** Total ms the lifecycle slept (its CPU-share rests). */
  readonly slept: number;
}

function manualClock(): ManualClock {
  let now = Date.now();
  let slept = 0;
  const tickers = new Set<() => void>();
  return {
    now: () => now,
    sleep: async (ms) => {
      now += ms;
      slept += ms;
      await yieldImmediate();
    },
    every: (_ms, fn) => {
      tickers.add(fn);
      return () => tickers.delete(fn);
    },
    advance: (ms) => {
      now += ms;
    },
    tick: () => {
      for (const fn of tickers) fn();
    },
    get slept() {
      return slept;
    },
  };
}

const KEYS = 1500;
/** Enough keys (10 pages) that one 8 ms slice cannot serve them all. */
const RUNTIME_KEYS = 5000;

async function withServer(settings: Record<string, unknown>, body: (t: TestServer, clock: ManualClock) => Promise<void>): Promise<void> {
  const clock = manualClock();
  const t = await startTestServer(settings, {}, { lifecycleClock: clock });
  try {
    await body(t, clock);
  } finally {
    await t.stop();
  }
}

/** `KEYS` nodes, each with two closed versions. */
async function manyKeysWithHistory(t: TestServer, keys = KEYS): Promise<void> {
  const created = await commit(t.url, [{ statement: 'UNWIND range(1, $n) AS k CREATE (:Many {k: k, v: 0})', parameters: { n: keys } }]);
  assert.deepEqual(created.body.errors, []);
  for (let v = 1; v <= 2; v++) {
    const updated = await commit(t.url, [{ statement: 'MATCH (n:Many) SET n.v = $v', parameters: { v } }]);
    assert.deepEqual(updated.body.errors, []);
  }
}

const base = (t: TestServer): string => `${t.url}/admin/databases/graphdb/mvcc`;

async function prune(t: TestServer): Promise<{ stopped_by: string; keys_served: number; pruned_versions: number }> {
  const pruned = await request(`${base(t)}/prune`, { method: 'POST' });
  assert.equal(pruned.status, 200, pruned.text);
  assert.equal(pruned.body.run.error, null);
  return pruned.body.run;
}

/** Prunes until a cycle finishes ('done'); returns the stop reasons seen. */
async function pruneUntilDone(t: TestServer, keys = KEYS): Promise<string[]> {
  const reasons: string[] = [];
  for (let i = 0; i < 50; i++) {
    const run = await prune(t);
    reasons.push(run.stopped_by);
    if (run.stopped_by === 'done') break;
  }
  const status = await request(`${base(t)}?refresh=true`);
  assert.equal(status.body.debt.keys, 0, `later cycles resumed and served every key (${reasons.join(', ')})`);
  assert.equal(status.body.history.closed_versions.nodes, keys, 'one closed version kept per key');
  return reasons;
}

async function update(t: TestServer, key: string, times: number, pad = 0): Promise<void> {
  for (let i = 0; i < times; i++) {
    const updated = await commit(t.url, [
      { statement: 'MERGE (n:Hot {key: $key}) SET n.v = coalesce(n.v, 0) + 1, n.pad = $pad', parameters: { key, pad: 'x'.repeat(pad) } },
    ]);
    assert.deepEqual(updated.body.errors, []);
  }
}

describe('mvcc.* settings', () => {
  it('mvcc.max_chain_hard_cap caps closed versions of a hot entity even inside the retention TTL', async () => {
    await withServer(
      { 'database.mvcc_retention_max_versions': 100, 'database.mvcc_retention_ttl': '1h', 'mvcc.max_chain_hard_cap': 2 },
      async (t) => {
        await update(t, 'hot', 7);
        const before = await request(`${base(t)}?refresh=true`);
        assert.equal(before.body.history.closed_versions.nodes, 6);
        assert.equal(before.body.lifecycle.retention.hard_cap, 2);
        const run = await prune(t);
        assert.equal(run.pruned_versions, 4, 'all but the 2 newest closed versions pruned, though all are inside the TTL');
        const after = await request(`${base(t)}?refresh=true`);
        assert.equal(after.body.history.closed_versions.nodes, 2);
        const rows = await commit(t.url, ["MATCH (n:Hot {key: 'hot'}) RETURN n.v"]);
        assert.deepEqual(rows.body.results[0].data[0].row, [7], 'the head is untouched');
      },
    );
  });

  it('mvcc.budget_keys stops a cycle at its budget and later cycles resume', async () => {
    await withServer({ 'database.mvcc_retention_max_versions': 1, 'mvcc.budget_keys': 600, 'mvcc.min_slice_keys': 1 }, async (t) => {
      await manyKeysWithHistory(t);
      const first = await prune(t);
      assert.equal(first.stopped_by, 'budget');
      assert.ok(first.keys_served < KEYS, `the first cycle served ${first.keys_served} of ${KEYS} keys`);
      const reasons = await pruneUntilDone(t);
      assert.equal(reasons.at(-1), 'done');
    });
  });

  it('mvcc.min_slice_keys guarantees a database that many keys per cycle over a smaller budget', async () => {
    await withServer({ 'database.mvcc_retention_max_versions': 1, 'mvcc.budget_keys': 1, 'mvcc.min_slice_keys': KEYS * 4 }, async (t) => {
      await manyKeysWithHistory(t);
      const run = await prune(t);
      assert.equal(run.stopped_by, 'done', 'the minimum slice overrides the budget of 1 key');
      assert.equal(run.keys_served, KEYS);
    });
  });

  it('mvcc.max_io_bytes stops a cycle at its I/O ceiling and later cycles resume', async () => {
    await withServer({ 'database.mvcc_retention_max_versions': 1, 'mvcc.max_io_bytes': '1KiB' }, async (t) => {
      await manyKeysWithHistory(t);
      const first = await prune(t);
      assert.equal(first.stopped_by, 'io');
      assert.ok(first.keys_served < KEYS);
      assert.ok((await pruneUntilDone(t)).length > 1);
    });
  });

  it('mvcc.max_cycle_runtime stops a cycle at its runtime; mvcc.max_cpu_share makes it rest between slices', async () => {
    await withServer(
      { 'database.mvcc_retention_max_versions': 1, 'mvcc.max_cycle_runtime': '10ms', 'mvcc.max_cpu_share': 0.01 },
      async (t, clock) => {
        await manyKeysWithHistory(t, RUNTIME_KEYS);
        const slept = clock.slept;
        const first = await prune(t);
        assert.ok(clock.slept > slept, 'a 1% CPU share rests between slices');
        assert.equal(first.stopped_by, 'runtime');
        assert.ok(first.keys_served < RUNTIME_KEYS);
        assert.ok((await pruneUntilDone(t, RUNTIME_KEYS)).length > 1);
      },
    );
    await withServer(
      { 'database.mvcc_retention_max_versions': 1, 'mvcc.max_cycle_runtime': '10ms', 'mvcc.max_cpu_share': 1 },
      async (t, clock) => {
        await manyKeysWithHistory(t, RUNTIME_KEYS);
        const slept = clock.slept;
        const run = await prune(t);
        assert.equal(clock.slept, slept, 'a full CPU share never rests');
        assert.equal(run.stopped_by, 'done', 'without rests the lifecycle clock stays inside the runtime');
      },
    );
  });

  it('mvcc.high_long_snapshot_rate, mvcc.pressure_critical_enter and mvcc.hard_expiry_after act on readers', async () => {
    await withServer(
      {
        'database.mvcc_retention_max_versions': 1,
        'mvcc.max_snapshot_lifetime': '0s',
        'mvcc.pressure_high_enter': '1KiB',
        'mvcc.pressure_critical_enter': '64KiB',
        'mvcc.high_long_snapshot_rate': 1,
        'mvcc.hard_expiry_after': '5s',
      },
      async (t, clock) => {
        const store = storeOf(t.server.engine.graphdb, 'graphdb');
        await update(t, 'pinned', 1, 1000);
        const oldest = store.beginRead('long');
        let expired: { code: string } | null = null;
        oldest.onCancel((error) => {
          expired = error;
        });
        try {
          await update(t, 'pinned', 8, 1000);
          const band = async (): Promise<string> => (await request(`${base(t)}?refresh=true`)).body.pressure.band;
          assert.equal(await band(), 'normal');
          clock.advance(30_000);
          assert.equal(await band(), 'high');

          // high: one long snapshot per second.
          store.beginRead('long').close();
          assert.throws(() => store.beginRead('long'), { code: 'Neo.TransientError.Request.ResourceExhaustion' });
          store.beginRead('short').close();
          clock.advance(1000);
          store.beginRead('long').close();
          assert.equal((await request(base(t))).body.totals.admissions_rate_limited, 1);

          // critical at 64 KiB pinned (the built-in threshold is at least 20 GiB).
          await update(t, 'pinned', 80, 1000);
          assert.equal(await band(), 'high');
          clock.advance(30_000);
          assert.equal(await band(), 'critical');
          assert.throws(() => store.beginRead('long'), { code: 'Neo.TransientError.Request.ResourceExhaustion' });

          // Hard expiry of the oldest reader once critical lasted 5 s.
          clock.advance(4000);
          clock.tick();
          assert.equal((await request(base(t))).body.totals.hard_expiries, 0);
          assert.equal(expired, null, 'critical for 4 s: the oldest reader lives');
          clock.advance(1000);
          clock.tick();
          const status = await request(base(t));
          assert.equal(status.body.totals.hard_expiries, 1);
          assert.equal((expired as { code: string } | null)?.code, 'Neo.TransientError.Transaction.Outdated', 'the oldest reader expired');
          assert.equal(status.body.totals.admissions_refused, 1);
        } finally {
          oldest.close();
        }
      },
    );
  });
});
