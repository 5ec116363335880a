/**
 * Retries of keys whose version fence moved between plan and apply (docs/mvcc-lifecycle.md, "Prune key under fence
 * contention"): a stale key is retried after a backoff of 100 ms doubling per attempt with
 * jitter, capped at 5 s, at most 3 times per key per run. A key that needed more than 20 retries
 * within a rolling 10 minutes is hot: it goes on a 60 s cooldown while other keys are served.
 */

/** The retry limits (docs/mvcc-lifecycle.md: fence retries). */
export interface RetryPolicy {
  readonly initialMs: number;
  readonly capMs: number;
  readonly perRun: number;
  readonly acrossRuns: number;
  readonly windowMs: number;
  readonly cooldownMs: number;
}

/** The defaults of docs/mvcc-lifecycle.md. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  initialMs: 100,
  capMs: 5_000,
  perRun: 3,
  acrossRuns: 20,
  windowMs: 600_000,
  cooldownMs: 60_000,
};

/** A key of a history table. */
export interface KeyRef {
  readonly kind: 'node' | 'relationship';
  readonly id: bigint;
}

interface KeyState {
  readonly key: KeyRef;
  attemptsThisRun: number;
  retries: number[];
  dueAt: number | null;
  cooldownUntil: number;
}

/** What happened to a stale key. */
export type StaleOutcome = 'requeued' | 'run-limit' | 'hot';

const name = (key: KeyRef): string => `${key.kind === 'node' ? 'n' : 'r'}${key.id}`;

/** Backoff queue and hot-contention cooldowns of one database. */
export class PruneQueue {
  private readonly keys = new Map<string, KeyState>();

  constructor(
    private readonly policy: RetryPolicy = DEFAULT_RETRY_POLICY,
    private readonly random: () => number = Math.random,
  ) {}

  /** Starts a run: per-run attempt counts start over. */
  newRun(): void {
    for (const [k, state] of this.keys) {
      state.attemptsThisRun = 0;
      state.dueAt = null;
      if (state.retries.length === 0 && state.cooldownUntil === 0) this.keys.delete(k);
    }
  }

  /** The backoff before attempt `attempt` (1-based): exponential, jittered in [d/2, d], capped. */
  delay(attempt: number): number {
    const base = Math.min(this.policy.capMs, this.policy.initialMs * 2 ** (attempt - 1));
    return Math.min(this.policy.capMs, base / 2 + (this.random() * base) / 2);
  }

  /** Records a fence mismatch of `key` at `now`. */
  stale(key: KeyRef, now: number): StaleOutcome {
    const k = name(key);
    let state = this.keys.get(k);
    if (state === undefined) {
      state = { key, attemptsThisRun: 0, retries: [], dueAt: null, cooldownUntil: 0 };
      this.keys.set(k, state);
    }
    state.retries = state.retries.filter((t) => now - t < this.policy.windowMs);
    state.retries.push(now);
    if (state.retries.length > this.policy.acrossRuns) {
      state.cooldownUntil = now + this.policy.cooldownMs;
      state.retries = [];
      state.dueAt = null;
      return 'hot';
    }
    if (state.attemptsThisRun >= this.policy.perRun) {
      state.dueAt = null;
      return 'run-limit';
    }
    state.attemptsThisRun++;
    state.dueAt = now + this.delay(state.attemptsThisRun);
    return 'requeued';
  }

  /** Keys whose backoff has elapsed at `now` (taken off the queue). */
  takeDue(now: number): KeyRef[] {
    const due: KeyRef[] = [];
    for (const state of this.keys.values()) {
      if (state.dueAt !== null && state.dueAt <= now && state.cooldownUntil <= now) {
        state.dueAt = null;
        due.push(state.key);
      }
    }
    return due;
  }

  /** The earliest pending retry time, or null. */
  get nextDue(): number | null {
    let next: number | null = null;
    for (const state of this.keys.values()) if (state.dueAt !== null && (next === null || state.dueAt < next)) next = state.dueAt;
    return next;
  }

  /** True while `key` is on hot-contention cooldown. */
  coolingDown(key: KeyRef, now: number): boolean {
    return (this.keys.get(name(key))?.cooldownUntil ?? 0) > now;
  }

  /** Keys on cooldown at `now`. */
  hotKeys(now: number): number {
    let count = 0;
    for (const state of this.keys.values()) if (state.cooldownUntil > now) count++;
    return count;
  }
}
