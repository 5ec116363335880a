/**
 * Time as the MVCC lifecycle sees it: a clock to read, sleeps, and a way to give the event loop
 * back between slices. Tests inject their own (a manual clock, or a scaled one for a soak run).
 */
import { setImmediate as yieldImmediate } from 'node:timers/promises';

/** The lifecycle's clock and timers. */
export interface LifecycleClock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms` of this clock's time. */
  sleep(ms: number): Promise<void>;
  /** Calls `fn` every `ms` of this clock's time until the returned function is called. */
  every(ms: number, fn: () => void): () => void;
}

/** Wall-clock time with unref'd timers (a lifecycle never keeps the process alive). */
export const systemClock: LifecycleClock = {
  now: () => Date.now(),
  sleep: (ms) =>
    new Promise((resolve) => {
      setTimeout(resolve, ms).unref();
    }),
  every: (ms, fn) => {
    const timer = setInterval(fn, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
};

/** Longest synchronous stretch of one slice, in ms (the lifecycle never stalls the event loop). */
export const SLICE_MS = 8;

/** Gives the event loop back (other callbacks and I/O run before the next slice). */
export function yieldToLoop(): Promise<void> {
  return yieldImmediate();
}

/**
 * Runs `step` repeatedly in slices of at most about `SLICE_MS` (each step is short: one page),
 * yielding between slices; after each slice sleeps so the lifecycle uses at most `cpuShare` of
 * one core (best effort). Stops when `step` returns false or `stop()` returns true.
 */
export async function runSliced(
  step: () => boolean | Promise<boolean>,
  options: { readonly cpuShare: number; readonly clock: LifecycleClock; readonly stop?: () => boolean },
): Promise<void> {
  const share = Math.min(1, Math.max(0.01, options.cpuShare));
  for (;;) {
    const started = performance.now();
    let more = true;
    while (more && performance.now() - started < SLICE_MS) {
      if (options.stop?.() === true) return;
      more = await step();
    }
    if (!more) return;
    const busy = performance.now() - started;
    const rest = (busy * (1 - share)) / share;
    if (rest >= 1) await options.clock.sleep(rest);
    else await yieldToLoop();
  }
}
