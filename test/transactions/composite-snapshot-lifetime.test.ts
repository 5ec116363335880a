/**
 * A transaction on a composite database holds snapshots of its constituents' databases; when the
 * MVCC lifecycle cancels one (`mvcc.max_snapshot_lifetime`, on a manual clock: no fixed sleeps),
 * the transaction fails with `Neo.TransientError.Transaction.Outdated` at its next statement and at
 * commit, as an explicit transaction on a standard database does, and its snapshots are released.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setImmediate as yieldImmediate } from 'node:timers/promises';
import type { LifecycleClock } from '../../src/engine/index.js';
import { commit, request, startTestServer } from '../http/helpers.js';
import { storeOf } from '../../src/engine/engine-internals.js';

/** A lifecycle clock that moves only when told to. */
function manualClock(): LifecycleClock & { advance(ms: number): void; tick(): void } {
  let now = Date.now();
  const tickers = new Set<() => void>();
  return {
    now: () => now,
    sleep: async (ms) => {
      now += ms;
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
  };
}

describe('composite transactions and mvcc.max_snapshot_lifetime', () => {
  it('a cancelled constituent snapshot fails the transaction with Transaction.Outdated', async () => {
    const clock = manualClock();
    const t = await startTestServer({ 'mvcc.max_snapshot_lifetime': '10s', 'async_writes.enabled': false }, {}, { lifecycleClock: clock });
    try {
      for (const command of ['CREATE COMPOSITE DATABASE every', 'CREATE ALIAS every.parts FOR DATABASE graphdb']) {
        assert.deepEqual((await commit(t.url, [command], 'system')).body.errors, []);
      }
      assert.deepEqual((await commit(t.url, ['CREATE (:Part {n: 1})'], 'graphdb')).body.errors, []);
      const registry = storeOf(t.server.engine.graphdb, 'graphdb').readerRegistry;
      const before = registry.activeReaders;
      const open = await request(`${t.url}/db/every/tx`, {
        method: 'POST',
        json: { statements: [{ statement: 'USE every.parts MATCH (p:Part) RETURN count(p) AS c' }] },
      });
      assert.equal(open.status, 201, open.text);
      assert.deepEqual(open.body.errors, []);
      assert.deepEqual(open.body.results[0].data[0].row, [1]);
      assert.equal(registry.activeReaders, before + 1, 'the transaction holds a snapshot of the constituent');
      clock.advance(11_000);
      const waitUntil = Date.now() + 30_000;
      while (registry.activeReaders > before) {
        assert.ok(Date.now() < waitUntil, 'the lifecycle never cancelled the snapshot');
        clock.tick();
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const next = await request(open.body.commit.replace(/\/commit$/, ''), {
        method: 'POST',
        json: { statements: [{ statement: 'USE every.parts MATCH (p:Part) RETURN count(p) AS c' }] },
      });
      assert.equal(next.body.errors[0]?.code, 'Neo.TransientError.Transaction.Outdated', next.text);
      assert.equal(registry.activeReaders, before, 'the snapshot was released');
    } finally {
      await t.stop();
    }
  });
});
