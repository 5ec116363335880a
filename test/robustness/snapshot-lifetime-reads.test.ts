/**
 * `mvcc.max_snapshot_lifetime` stops a long auto-commit read, on a read worker
 * (`server.read_workers`) as on the engine's thread: the statement is a reader of the engine's
 * snapshot registry while it runs, and the lifecycle's reader policy (on a manual clock, no fixed
 * sleeps) cancels it with `Neo.TransientError.Transaction.Outdated`; the server then serves the
 * next statement. A worker's statement formerly held no reader there, so nothing could cancel it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setImmediate as yieldImmediate } from 'node:timers/promises';
import type { LifecycleClock } from '../../src/engine/index.js';
import { commit, rows, startTestServer } from '../http/helpers.js';
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

/** Streams a billion values: runs until something stops it. */
const LONG_READ = 'UNWIND range(1, 1000000000) AS i WITH i WHERE i < 0 RETURN count(i) AS n';

describe('mvcc.max_snapshot_lifetime cancels long auto-commit reads', () => {
  for (const workers of [1, 0]) {
    it(`with server.read_workers = ${workers}`, async () => {
      const clock = manualClock();
      const t = await startTestServer(
        // The transaction timeout only keeps a failure of this test from running for ever.
        { 'server.read_workers': workers, 'mvcc.max_snapshot_lifetime': '10s', 'database.transaction_timeout': '120s' },
        {},
        { lifecycleClock: clock },
      );
      try {
        const registry = storeOf(t.server.engine.graphdb, 'graphdb').readerRegistry;
        assert.deepEqual(await rows(t.url, 'RETURN 1'), [[1]], 'the lifecycle service is started by the first request');
        const before = registry.activeReaders;
        const answer = commit(t.url, [LONG_READ]);
        const waitUntil = Date.now() + 60_000;
        while (registry.activeReaders === before) {
          assert.ok(Date.now() < waitUntil, 'the running statement never appeared as a reader of the snapshot registry');
          await yieldImmediate();
        }
        clock.advance(5_000);
        clock.tick();
        assert.equal(registry.activeReaders, before + 1, 'younger than the limit: still running');
        clock.advance(6_000);
        clock.tick();
        const { body } = await answer;
        assert.equal(body.errors[0]?.code, 'Neo.TransientError.Transaction.Outdated', JSON.stringify(body.errors));
        assert.match(body.errors[0].message, /mvcc\.max_snapshot_lifetime/);
        assert.equal(registry.activeReaders, before);
        assert.deepEqual(await rows(t.url, 'RETURN 2'), [[2]]);
      } finally {
        await t.stop();
      }
    });
  }
});
