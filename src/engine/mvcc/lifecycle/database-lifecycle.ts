/**
 * The MVCC lifecycle of one database (docs/mvcc-lifecycle.md): automatic prune cycles
 * (running / paused / manual-only), the pressure band and emergency mode, the reader policy
 * (admission of long snapshots, graceful cancel at the maximum lifetime, hard expiry under
 * sustained critical pressure), debt sampling, and prune cycles that plan on a read connection
 * and apply under the write lock with a fence re-check, in slices that never hold the event loop
 * for more than a few milliseconds.
 */
import { DatabaseNotFound } from '../../errors/index.js';
import type { DatabaseStore } from '../../storage/database-store.js';
import type { Pin, ReaderKind } from '../snapshot-registry.js';
import { runSliced, type LifecycleClock } from './clock.js';
import { DebtPass, DebtTracker, SAMPLE_FRACTION, type DebtFigures } from './debt-tracker.js';
import { HISTORY_TABLES, PAGE_ROWS, readChain, readChainPage, tableOf } from './history-scan.js';
import { StateKey, readState } from '../../storage/sqlite/state-table.js';
import { planKey, type KeyPlan, type PlanBounds } from './key-plan.js';
import { PressureController, pressureThresholds, type PressureBand, type PressureState, type PressureThresholds } from './pressure.js';
import { applyKeyPlans } from './prune-apply.js';
import { PruneQueue, type KeyRef } from './prune-queue.js';
import { SnapshotAdmissionRefused, SnapshotExpired, type ExpiryCause } from './reader-errors.js';
import { EMERGENCY_BUDGET_FACTOR, type LifecycleSettings } from './settings.js';

/** Lifecycle states of the automatic cycles. */
export type LifecycleState = 'running' | 'paused' | 'manual-only';

/** Why a prune cycle stopped. */
export type StopReason = 'done' | 'budget' | 'io' | 'runtime';

/** Summary of one finished prune cycle. */
export interface RunSummary {
  readonly trigger: 'manual' | 'scheduled';
  readonly startedAt: string;
  readonly durationMs: number;
  readonly prunedVersions: number;
  readonly prunedBytes: number;
  /** Keys (chains of closed versions) examined. */
  readonly keysScanned: number;
  readonly pruneFloor: string;
  readonly stalePlanSkips: number;
  /** Keys put on hot-contention cooldown during the cycle. */
  readonly hotKeys: number;
  readonly budgetKeys: number;
  readonly stoppedBy: StopReason;
  readonly emergency: boolean;
  readonly retention: { readonly maxVersions: number; readonly ttlMs: number; readonly hardCap: number };
  readonly error: string | null;
}

/** Totals since the lifecycle started. */
export interface LifecycleTotals {
  runs: number;
  prunedBytes: number;
  prunedVersions: number;
  keysScanned: number;
  stalePlanSkips: number;
  gracefulCancels: number;
  hardExpiries: number;
  admissionsRefused: number;
  admissionsRateLimited: number;
}

/** A structured audit event of a forced snapshot expiration. */
export interface ExpiryAuditEvent {
  readonly type: 'mvcc_snapshot_cancelled' | 'mvcc_snapshot_hard_expired';
  readonly database: string;
  readonly cause: ExpiryCause;
  readonly version: string;
  readonly ageMs: number;
  readonly band: PressureBand;
  readonly at: string;
}

/** What the lifecycle of one database needs. */
export interface DatabaseLifecycleDeps {
  /** The database's store (throws DatabaseNotFound once dropped). */
  readonly store: () => DatabaseStore;
  readonly settings: () => LifecycleSettings;
  readonly clock: LifecycleClock;
  /** Free bytes of the data directory. */
  readonly freeBytes: () => number;
  readonly audit: (event: ExpiryAuditEvent) => void;
  /** Observer of finished cycles (metrics). */
  readonly observe?: (summary: RunSummary) => void;
  readonly random?: () => number;
}

/** Plans applied per write-lock hold. */
const APPLY_BATCH = 64;
/** Lowest id of a key space. */
const FIRST_ID = -1n;

/** The lifecycle of one database. */
export class DatabaseLifecycle {
  private intervalMs = 0;
  private paused = false;
  private stopTimer: (() => void) | null = null;
  private running: Promise<RunSummary> | null = null;
  private sampling: Promise<DebtFigures | null> | null = null;
  private readonly pressure: PressureController;
  private readonly queue: PruneQueue;
  readonly debt = new DebtTracker();
  private thresholds: PressureThresholds;
  /** Where the next cycle's sweep continues, per table. */
  private readonly cursor = new Map<string, bigint>();
  /** Long-snapshot admission tokens in the `high` band. */
  private tokens = { count: 0, at: 0 };
  private attachedTo: DatabaseStore | null = null;
  lastRun: RunSummary | null = null;
  readonly totals: LifecycleTotals = {
    runs: 0,
    prunedBytes: 0,
    prunedVersions: 0,
    keysScanned: 0,
    stalePlanSkips: 0,
    gracefulCancels: 0,
    hardExpiries: 0,
    admissionsRefused: 0,
    admissionsRateLimited: 0,
  };

  constructor(
    readonly database: string,
    private readonly deps: DatabaseLifecycleDeps,
  ) {
    this.pressure = new PressureController(deps.clock.now());
    this.queue = new PruneQueue(undefined, deps.random);
    this.thresholds = pressureThresholds(0, {});
  }

  /** Current state of the automatic cycles. */
  get state(): LifecycleState {
    if (this.intervalMs === 0) return 'manual-only';
    return this.paused ? 'paused' : 'running';
  }

  /** The configured interval between automatic cycles (0 = manual-only). */
  get interval(): number {
    return this.intervalMs;
  }

  /** The band, pending transition and emergency flag as of the last evaluation. */
  get pressureState(): PressureState {
    return this.pressure.state;
  }

  /** The thresholds of the last evaluation. */
  get pressureThresholds(): PressureThresholds {
    return this.thresholds;
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

  /** Stops the timer and detaches the reader policy (server shutdown, database dropped). */
  close(): void {
    this.intervalMs = 0;
    this.arm();
    if (this.attachedTo !== null && this.attachedTo.readerRegistry.admission === this.admit)
      this.attachedTo.readerRegistry.admission = null;
    this.attachedTo = null;
  }

  private arm(): void {
    this.stopTimer?.();
    this.stopTimer = null;
    if (this.state !== 'running') return;
    this.stopTimer = this.deps.clock.every(this.intervalMs, () => {
      if (this.running === null) void this.prune('scheduled').catch(() => undefined);
    });
  }

  /** Installs the reader policy on the store (idempotent; a reopened store gets it again). */
  attach(): DatabaseStore {
    const store = this.deps.store();
    if (this.attachedTo !== store) {
      store.readerRegistry.admission = this.admit;
      store.readerRegistry.clock = () => this.deps.clock.now();
      this.attachedTo = store;
    }
    return store;
  }

  /** Admission of a new reader: long snapshots are rate-limited in `high`, refused in `critical` or emergency. */
  private readonly admit = (kind: ReaderKind): void => {
    if (kind !== 'long') return;
    const { band, emergency } = this.pressure.state;
    if (band === 'critical' || emergency) {
      this.totals.admissionsRefused++;
      throw new SnapshotAdmissionRefused(
        this.database,
        band,
        emergency ? 'emergency mode: long snapshots are refused' : 'long snapshots are refused',
      );
    }
    if (band === 'high') {
      const rate = this.deps.settings().highLongSnapshotRate;
      const now = this.deps.clock.now();
      this.tokens.count = Math.min(rate, this.tokens.count + ((now - this.tokens.at) / 1000) * rate);
      this.tokens.at = now;
      if (this.tokens.count < 1) {
        this.totals.admissionsRateLimited++;
        throw new SnapshotAdmissionRefused(this.database, band, `long snapshots are limited to ${rate} per second`);
      }
      this.tokens.count--;
    }
  };

  /**
   * The reader policy, run every second: a reader older than the maximum snapshot lifetime (an
   * explicit transaction's, a temporal read's, or an auto-commit statement's, on the engine's
   * thread or a read worker) is gracefully cancelled; under `critical` pressure sustained for `hardExpiryAfterMs` the one
   * reader that pins the oldest version is hard-expired (one per run). Each gets an audit event.
   */
  enforceReaders(): void {
    const store = this.attach();
    const settings = this.deps.settings();
    const now = this.deps.clock.now();
    if (settings.maxSnapshotLifetimeMs > 0) {
      for (const pin of store.readerRegistry.pins()) {
        if (now - pin.startedAt > settings.maxSnapshotLifetimeMs) this.expire(pin, 'max-lifetime', now);
      }
    }
    const { band, bandSince } = this.pressure.state;
    if (band === 'critical' && now - bandSince >= settings.hardExpiryAfterMs) {
      const oldest = store.readerRegistry.oldestPin;
      if (oldest !== null) this.expire(oldest, 'hard-expiry', now);
    }
  }

  private expire(pin: Pin, cause: ExpiryCause, now: number): void {
    const age = now - pin.startedAt;
    pin.cancel(new SnapshotExpired(cause, this.database, age));
    if (cause === 'max-lifetime') this.totals.gracefulCancels++;
    else this.totals.hardExpiries++;
    this.deps.audit({
      type: cause === 'max-lifetime' ? 'mvcc_snapshot_cancelled' : 'mvcc_snapshot_hard_expired',
      database: this.database,
      cause,
      version: pin.version.toString(),
      ageMs: age,
      band: this.pressure.state.band,
      at: new Date(now).toISOString(),
    });
  }

  private bounds(store: DatabaseStore, settings: LifecycleSettings): PlanBounds {
    return {
      pinFloor: store.pinFloor,
      // Commit times are wall-clock times.
      ttlCutoff: settings.ttlMs > 0 ? Date.now() - settings.ttlMs : null,
      maxVersions: settings.maxVersions,
      hardCap: settings.hardCap,
    };
  }

  /**
   * One maintenance evaluation: a debt pass (a sample, or a full scan every 20th), then the
   * pressure band from the pinned bytes it measured. Never runs twice at once.
   */
  async evaluate(cpuShare?: number): Promise<PressureState> {
    const figures = await this.sampleDebt(cpuShare);
    const now = this.deps.clock.now();
    const settings = this.deps.settings();
    this.thresholds = pressureThresholds(this.deps.freeBytes(), { highEnter: settings.highEnter, criticalEnter: settings.criticalEnter });
    return this.pressure.evaluate(figures?.pinnedBytes ?? 0, this.thresholds, now, figures?.bytes);
  }

  /** Runs (or joins) a debt pass. */
  sampleDebt(cpuShare?: number): Promise<DebtFigures | null> {
    this.sampling ??= this.debtPass(cpuShare).finally(() => {
      this.sampling = null;
    });
    return this.sampling;
  }

  private async debtPass(cpuShare?: number): Promise<DebtFigures | null> {
    const store = this.attach();
    const settings = this.deps.settings();
    const full = this.debt.nextIsFull();
    const pass = new DebtPass();
    let covered = 0;
    let spaces = 0;
    for (const table of HISTORY_TABLES) {
      const space = table.kind === 'node' ? store.idSpace.node : store.idSpace.rel;
      const width = full ? space : BigInt(Math.ceil(Number(space) * SAMPLE_FRACTION));
      const window =
        width >= space || width < BigInt(PAGE_ROWS * 8) ? { start: FIRST_ID, end: space + 1n, share: 1 } : this.window(space, width);
      covered += window.share;
      spaces++;
      let after = window.start;
      await runSliced(
        () => {
          const page = store.readHistory((c) => readChainPage(c, table, after, window.end));
          const bounds = this.bounds(store, settings);
          for (const chain of page.chains) pass.add(planKey(chain, bounds));
          after = page.after;
          return !page.done;
        },
        { cpuShare: cpuShare ?? settings.maxCpuShare, clock: this.deps.clock },
      );
    }
    return this.debt.finish(pass, covered / spaces, this.deps.clock.now());
  }

  private window(space: bigint, width: bigint): { start: bigint; end: bigint; share: number } {
    const random = this.deps.random ?? Math.random;
    const start = BigInt(Math.floor(random() * Number(space - width)));
    return { start: start - 1n, end: start + width, share: Number(width) / Number(space) };
  }

  /** Runs one prune cycle now (joins a cycle already in progress). `budgetKeys` comes from the service. */
  prune(trigger: RunSummary['trigger'] = 'manual', budgetKeys?: number): Promise<RunSummary> {
    this.running ??= this.runCycle(trigger, budgetKeys)
      .then(async (summary) => {
        // The cycle changed the debt: a fresh pass keeps the rollup honest.
        await this.sampleDebt().catch(() => null);
        return summary;
      })
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  private async runCycle(trigger: RunSummary['trigger'], budget?: number): Promise<RunSummary> {
    const clock = this.deps.clock;
    const started = clock.now();
    const t0 = performance.now();
    const settings = this.deps.settings();
    const emergency = this.pressure.state.emergency;
    const baseBudget = budget ?? (settings.budgetKeys > 0 ? settings.budgetKeys : Number.MAX_SAFE_INTEGER);
    const budgetKeys = emergency ? Math.min(Number.MAX_SAFE_INTEGER, baseBudget * EMERGENCY_BUDGET_FACTOR) : baseBudget;
    const ioBudget = settings.maxIoBytes > 0 ? settings.maxIoBytes : Infinity;
    const run = { versions: 0, bytes: 0, keys: 0, served: 0, io: 0, stale: 0, hot: 0, floor: 0n };
    let stoppedBy: StopReason = 'done';
    let error: string | null = null;
    this.queue.newRun();
    try {
      const store = this.attach();
      const pending: KeyPlan[] = [];
      const overLimit = (): StopReason | null => {
        if (run.served >= budgetKeys) return 'budget';
        if (run.io >= ioBudget) return 'io';
        if (clock.now() - started >= settings.maxCycleRuntimeMs) return 'runtime';
        return null;
      };
      const flush = async (): Promise<void> => {
        if (pending.length === 0) return;
        const batch = pending.splice(0);
        const outcome = await store.applyHistory((writer, pinFloor) => applyKeyPlans(writer, batch, pinFloor));
        run.versions += outcome.versions;
        run.bytes += outcome.bytes;
        run.io += outcome.bytes;
        run.served += outcome.applied;
        run.floor = outcome.pruneFloor;
        this.debt.pruned(outcome.versions, outcome.bytes, outcome.applied);
        for (const plan of batch) if (!outcome.stale.includes(plan)) this.debt.served(plan);
        for (const plan of outcome.stale) {
          run.stale++;
          if (this.queue.stale(plan, clock.now()) === 'hot') run.hot++;
        }
      };
      const consider = (plan: KeyPlan): void => {
        run.keys++;
        run.io += plan.chainLength * 64;
        if (plan.versions > 0 && !this.queue.coolingDown(plan, clock.now())) pending.push(plan);
      };
      const replan = (keys: readonly KeyRef[]): void => {
        if (keys.length === 0) return;
        const bounds = this.bounds(store, settings);
        const chains = store.readHistory((c) => keys.map((k) => readChain(c, tableOf(k.kind), k.id)));
        for (const chain of chains) consider(planKey(chain, bounds));
      };
      const cpu = { cpuShare: settings.maxCpuShare, clock };

      // Reserved slice: the oldest unserved high-debt keys (emergency: the largest first).
      const reserved = this.debt.prioritised(emergency).slice(0, Math.ceil(Math.min(budgetKeys, 1e9) * (emergency ? 0.5 : 0.25)));
      let index = 0;
      await runSliced(async () => {
        if (overLimit() !== null || index >= reserved.length) return false;
        replan(reserved.slice(index, index + APPLY_BATCH));
        index += APPLY_BATCH;
        await flush();
        return true;
      }, cpu);

      // The sweep over every key, continuing where the previous cycle stopped.
      for (const table of HISTORY_TABLES) {
        const end = (table.kind === 'node' ? store.idSpace.node : store.idSpace.rel) + 1n;
        const begin = this.cursor.get(table.kind) ?? FIRST_ID;
        let after = begin;
        let until = end;
        let wrapped = begin === FIRST_ID;
        await runSliced(async () => {
          const limit = overLimit();
          if (limit !== null) {
            stoppedBy = limit;
            return false;
          }
          replan(this.queue.takeDue(clock.now()));
          const page = store.readHistory((c) => readChainPage(c, table, after, until));
          const bounds = this.bounds(store, settings);
          for (const chain of page.chains) consider(planKey(chain, bounds));
          await flush();
          after = page.after;
          if (page.done) {
            if (wrapped) return false;
            wrapped = true;
            after = FIRST_ID;
            until = begin + 1n;
          }
          return true;
        }, cpu);
        this.cursor.set(table.kind, stoppedBy === 'done' ? FIRST_ID : after);
        if (stoppedBy !== 'done') break;
      }

      // Retries still waiting for their backoff, within the runtime ceiling.
      while (stoppedBy === 'done') {
        const next = this.queue.nextDue;
        if (next === null) break;
        const limit = overLimit();
        if (limit !== null) {
          stoppedBy = limit;
          break;
        }
        const wait = next - clock.now();
        if (wait > 0) {
          if (clock.now() + wait - started >= settings.maxCycleRuntimeMs) break;
          await clock.sleep(wait);
        }
        replan(this.queue.takeDue(clock.now()));
        await flush();
      }
      await flush();
      if (run.floor === 0n) run.floor = store.readHistory((c) => readState(c, StateKey.pruneFloor));
    } catch (failure) {
      if (failure instanceof DatabaseNotFound) this.close();
      error = failure instanceof Error ? failure.message : String(failure);
      if (trigger === 'manual') {
        this.record(this.summary(trigger, started, t0, run, stoppedBy, emergency, settings, error));
        throw failure;
      }
    }
    return this.record(this.summary(trigger, started, t0, run, stoppedBy, emergency, settings, error));
  }

  private summary(
    trigger: RunSummary['trigger'],
    started: number,
    t0: number,
    run: { versions: number; bytes: number; keys: number; served: number; stale: number; hot: number; floor: bigint },
    stoppedBy: StopReason,
    emergency: boolean,
    settings: LifecycleSettings,
    error: string | null,
  ): RunSummary {
    return {
      trigger,
      startedAt: new Date(started).toISOString(),
      durationMs: performance.now() - t0,
      prunedVersions: run.versions,
      prunedBytes: run.bytes,
      keysScanned: run.keys,
      pruneFloor: run.floor === 0n && this.lastRun !== null ? this.lastRun.pruneFloor : run.floor.toString(),
      stalePlanSkips: run.stale,
      hotKeys: run.hot,
      budgetKeys: run.served,
      stoppedBy,
      emergency,
      retention: { maxVersions: settings.maxVersions, ttlMs: settings.ttlMs, hardCap: settings.hardCap },
      error,
    };
  }

  private record(summary: RunSummary): RunSummary {
    this.lastRun = summary;
    this.totals.runs++;
    this.totals.prunedBytes += summary.prunedBytes;
    this.totals.prunedVersions += summary.prunedVersions;
    this.totals.keysScanned += summary.keysScanned;
    this.totals.stalePlanSkips += summary.stalePlanSkips;
    this.deps.observe?.(summary);
    return summary;
  }
}
