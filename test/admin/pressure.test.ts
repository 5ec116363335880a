/**
 * The pressure band controller of the MVCC lifecycle: spec thresholds and debounce (30 s to
 * enter a higher band, 120 s to leave one), evaluated with explicit clock values.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DatabaseLifecycle,
  ENTER_DEBOUNCE_MS,
  EXIT_DEBOUNCE_MS,
  PressureController,
  pressureThresholds,
  systemClock,
  DEFAULT_LIFECYCLE_SETTINGS,
} from '../../src/engine/index.js';

const GIB = 1024 ** 3;

function lifecycle(): DatabaseLifecycle {
  return new DatabaseLifecycle('db', {
    store: () => {
      throw new Error('no store in this test');
    },
    settings: () => DEFAULT_LIFECYCLE_SETTINGS,
    clock: systemClock,
    freeBytes: () => 0,
    audit: () => undefined,
  });
}

/** A controller evaluated against the spec thresholds of `free` bytes, with an explicit clock. */
function controller(free: number): {
  evaluatePressure(pinned: number, f: number, now: number): ReturnType<PressureController['evaluate']>;
} {
  const c = new PressureController(0);
  return { evaluatePressure: (pinned, f, now) => c.evaluate(pinned, pressureThresholds(f === 0 ? free : f), now) };
}

describe('MVCC pressure band', () => {
  it('thresholds follow max(5 GiB, 15% free) and max(20 GiB, 35% free), exits at 80%', () => {
    const small = pressureThresholds(10 * GIB);
    assert.equal(small.highEnter, 5 * GIB);
    assert.equal(small.criticalEnter, 20 * GIB);
    assert.equal(small.highExit, 4 * GIB);
    assert.equal(small.criticalExit, 16 * GIB);
    const large = pressureThresholds(100 * GIB);
    assert.equal(large.highEnter, 15 * GIB);
    assert.equal(large.criticalEnter, 35 * GIB);
  });

  it('enters high and critical only after 30 s sustained, leaves after 120 s sustained', () => {
    const free = 10 * GIB;
    const l = controller(free);
    let now = 1_000_000;
    assert.equal(l.evaluatePressure(6 * GIB, free, now).band, 'normal');
    const pending = l.evaluatePressure(6 * GIB, free, (now += ENTER_DEBOUNCE_MS - 1));
    assert.equal(pending.band, 'normal');
    assert.equal(pending.pending?.target, 'high');
    assert.equal(l.evaluatePressure(6 * GIB, free, (now += 1)).band, 'high');

    assert.equal(l.evaluatePressure(21 * GIB, free, (now += 1)).band, 'high');
    assert.equal(l.evaluatePressure(1 * GIB, free, (now += 1)).pending?.target, 'normal', 'a dip replaces the pending transition');
    assert.equal(l.evaluatePressure(21 * GIB, free, (now += 1)).pending?.target, 'critical', 'the critical timer restarts');
    assert.equal(l.evaluatePressure(21 * GIB, free, (now += ENTER_DEBOUNCE_MS - 1)).band, 'high');
    assert.equal(l.evaluatePressure(21 * GIB, free, (now += 1)).band, 'critical');

    assert.equal(l.evaluatePressure(17 * GIB, free, (now += EXIT_DEBOUNCE_MS)).band, 'critical', 'above critical_exit stays');
    assert.equal(l.evaluatePressure(15 * GIB, free, (now += 1)).band, 'critical');
    assert.equal(l.evaluatePressure(15 * GIB, free, (now += EXIT_DEBOUNCE_MS - 1)).band, 'critical');
    assert.equal(l.evaluatePressure(15 * GIB, free, (now += 1)).band, 'high');
    assert.equal(l.evaluatePressure(3 * GIB, free, (now += 1)).band, 'high');
    assert.equal(l.evaluatePressure(3 * GIB, free, (now += EXIT_DEBOUNCE_MS)).band, 'normal');
    assert.equal(l.evaluatePressure(3 * GIB, free, now + 1).pending, null);
  });

  it('state follows schedule, pause and resume', () => {
    const l = lifecycle();
    assert.equal(l.state, 'manual-only');
    l.pause();
    assert.equal(l.state, 'manual-only', 'no interval: still manual-only');
    l.schedule(60_000);
    assert.equal(l.state, 'paused', 'a pause stays in force when an interval is set');
    l.resume();
    assert.equal(l.state, 'running');
    l.schedule(0);
    assert.equal(l.state, 'manual-only');
    l.close();
  });
});
