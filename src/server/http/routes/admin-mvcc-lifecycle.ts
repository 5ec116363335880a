/**
 * The MVCC history lifecycle of one database inside a server process: the automatic prune timer
 * (running / paused / manual-only), the last-run summary and totals, and the pressure band
 * controller (normal / high / critical from the bytes pinned by the oldest reader, with the
 * spec's thresholds and debounce: 30 s to enter, 120 s to exit).
 *
 * A database that disappears (DROP DATABASE) stops its timer at the next run.
 *
 * A prune run applies every planned removal under the database's write lock in one SQLite
 * transaction, so a plan can never go stale between planning and applying: the fence-mismatch
 * (stale-plan) count is reported and exported, and stays 0 by construction.
 */
import { DatabaseNotFound, type DatabaseStore, type PruneResult } from '../../../engine/index.js';
import type { RetentionSettings } from './admin-mvcc-debt.js';

/** Lifecycle states of the automatic cycles. */
export type LifecycleState = 'running' | 'paused' | 'manual-only';

/** Pressure bands. */
export type PressureBand = 'normal' | 'high' | 'critical';

const GIB = 1024 ** 3;
/** Sustain time before entering a higher band. */
export const ENTER_DEBOUNCE_MS = 30_000;
/** Sustain time before leaving a band downwards. */
export const EXIT_DEBOUNCE_MS = 120_000;

/** The band thresholds for a data directory with `freeBytes` free. */
export function pressureThresholds(freeBytes: number): {
  highEnter: number;
  highExit: number;
  criticalEnter: number;
  criticalExit: number;
} {
  const highEnter = Math.max(5 * GIB, 0.15 * freeBytes);
  const criticalEnter = Math.max(20 * GIB, 0.35 * freeBytes);
  return { highEnter, highExit: 0.8 * highEnter, criticalEnter, criticalExit: 0.8 * criticalEnter };
}

/** Summary of one finished prune run. */
export interface RunSummary {
  readonly trigger: 'manual' | 'scheduled';
  readonly startedAt: string;
  readonly durationMs: number;
  readonly prunedVersions: number;
  readonly prunedBytes: number;
  /** Closed versions examined by the run (history rows present before it). */
  readonly keysScanned: number;
  readonly pruneFloor: string;
  readonly stalePlanSkips: number;
  readonly retention: RetentionSettings;
  readonly error: string | null;
}

/** Totals since the server started, for the metrics. */
export interface LifecycleTotals {
  runs: number;
  prunedBytes: number;
  prunedVersions: number;
  keysScanned: number;
  stalePlanSkips: number;
}

/** Observer of finished runs (the metrics). */
export type RunObserver = (database: string, summary: RunSummary) => void;

/** Lifecycle of one database. */
export class MvccLifecycle {
  private intervalMs = 0;
  private paused = false;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<RunSummary> | null = null;
  private band: PressureBand = 'normal';
  private pending: { target: PressureBand; since: number } | null = null;
  lastRun: RunSummary | null = null;
  readonly totals: LifecycleTotals = { runs: 0, prunedBytes: 0, prunedVersions: 0, keysScanned: 0, stalePlanSkips: 0 };

  constructor(
    readonly database: string,
    private readonly store: () => DatabaseStore,
    private readonly retention: () => RetentionSettings,
    private readonly observe: RunObserver,
  ) {}

  /** Current state of the automatic cycles. */
  get state(): LifecycleState {
    if (this.intervalMs === 0) return 'manual-only';
    return this.paused ? 'paused' : 'running';
  }

  /** The configured interval between automatic cycles (0 = manual-only). */
  get interval(): number {
    return this.intervalMs;
  }

  /** Sets the interval; 0 makes the lifecycle manual-only. A pause stays in force. */
  schedule(intervalMs: number): void {
    this.intervalMs = Math.max(0, Math.floor(intervalMs));
    this.arm();
  }

  /** Stops automatic cycles; the interval is kept. */
  pause(): void {
    this.paused = true;
    this.arm();
  }

  /** Resumes automatic cycles. */
  resume(): void {
    this.paused = false;
    this.arm();
  }

  /** Runs one prune cycle now (waits for a cycle already in progress instead of starting a second). */
  prune(trigger: RunSummary['trigger'] = 'manual'): Promise<RunSummary> {
    this.running ??= this.runOnce(trigger).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /**
   * Evaluates the pressure band for `pinnedBytes` against the thresholds for `freeBytes`;
   * a transition happens only after its condition held for the debounce time.
   */
  evaluatePressure(
    pinnedBytes: number,
    freeBytes: number,
    now = Date.now(),
  ): { band: PressureBand; pending: { target: PressureBand; since: string } | null } {
    const t = pressureThresholds(freeBytes);
    let target: PressureBand | null = null;
    if (this.band === 'normal' && pinnedBytes >= t.highEnter) target = 'high';
    else if (this.band === 'high' && pinnedBytes >= t.criticalEnter) target = 'critical';
    else if (this.band === 'high' && pinnedBytes < t.highExit) target = 'normal';
    else if (this.band === 'critical' && pinnedBytes < t.criticalExit) target = 'high';
    if (target === null) {
      this.pending = null;
    } else {
      if (this.pending?.target !== target) this.pending = { target, since: now };
      const debounce = rank(target) > rank(this.band) ? ENTER_DEBOUNCE_MS : EXIT_DEBOUNCE_MS;
      if (now - this.pending.since >= debounce) {
        this.band = target;
        this.pending = null;
      }
    }
    return {
      band: this.band,
      pending: this.pending === null ? null : { target: this.pending.target, since: new Date(this.pending.since).toISOString() },
    };
  }

  /** Stops the timer (server shutdown, database dropped). */
  close(): void {
    this.intervalMs = 0;
    this.arm();
  }

  private arm(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    if (this.state !== 'running') return;
    this.timer = setInterval(() => {
      if (this.running === null) void this.prune('scheduled').catch(() => undefined);
    }, this.intervalMs);
    this.timer.unref();
  }

  private async runOnce(trigger: RunSummary['trigger']): Promise<RunSummary> {
    const started = Date.now();
    const retention = this.retention();
    let summary: RunSummary;
    let failure: { readonly error: unknown } | null = null;
    try {
      const store = this.store();
      const before = store.mvccStatus();
      const scanned = before.closedVersions.nodes + before.closedVersions.relationships;
      const result: PruneResult = await store.prune({
        maxVersions: retention.maxVersions,
        ...(retention.ttlMs > 0 ? { ttlMs: retention.ttlMs } : {}),
      });
      summary = {
        trigger,
        startedAt: new Date(started).toISOString(),
        durationMs: result.durationMs,
        prunedVersions: result.prunedVersions,
        prunedBytes: result.prunedBytes,
        keysScanned: scanned,
        pruneFloor: result.pruneFloor.toString(),
        stalePlanSkips: 0,
        retention,
        error: null,
      };
    } catch (error) {
      failure = { error };
      if (error instanceof DatabaseNotFound) this.close();
      summary = {
        trigger,
        startedAt: new Date(started).toISOString(),
        durationMs: Date.now() - started,
        prunedVersions: 0,
        prunedBytes: 0,
        keysScanned: 0,
        pruneFloor: this.lastRun?.pruneFloor ?? '0',
        stalePlanSkips: 0,
        retention,
        error: error instanceof Error ? error.message : String(error),
      };
    }
    this.lastRun = summary;
    this.totals.runs++;
    this.totals.prunedBytes += summary.prunedBytes;
    this.totals.prunedVersions += summary.prunedVersions;
    this.totals.keysScanned += summary.keysScanned;
    this.observe(this.database, summary);
    if (failure !== null && trigger === 'manual') throw failure.error;
    return summary;
  }
}

function rank(band: PressureBand): number {
  return band === 'normal' ? 0 : band === 'high' ? 1 : 2;
}
