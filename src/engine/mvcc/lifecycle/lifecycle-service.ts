/**
 * The MVCC lifecycle of every user database of a process: one DatabaseLifecycle per database,
 * the evaluation ticker (every 10 s: debt pass and pressure band per database), the reader
 * policy ticker (every second), the per-database budgets of prune cycles, and the figures the
 * status endpoint and `/metrics` read — rollups only, never a scan on the request path.
 */
import { DatabaseNotFound } from '../../errors/index.js';
import type { DatabaseStore } from '../../storage/database-store.js';
import { StateKey, readState } from '../../storage/sqlite/state-table.js';
import { runSliced, systemClock, type LifecycleClock } from './clock.js';
import { DatabaseLifecycle, type ExpiryAuditEvent, type RunSummary } from './database-lifecycle.js';
import type { DebtFigures } from './debt-tracker.js';
import { rebuildHeads, type HeadRebuildResult } from './head-rebuild.js';
import { HISTORY_TABLES, readChainPage } from './history-scan.js';
import { planKey } from './key-plan.js';
import type { PressureState, PressureThresholds } from './pressure.js';
import { GLOBAL_BUDGET_KEYS, type LifecycleSettings } from './settings.js';

/** Every 10 s: debt pass and pressure evaluation (the hot-counter rollup period). */
export const EVALUATION_MS = 10_000;
/** Every second: the reader policy. */
export const READER_CHECK_MS = 1_000;
/** Upper bound of the per-key debt list (cardinality cap). */
export const MAX_DEBT_KEYS = 1000;

/** What the service needs from its process. */
export interface LifecycleServiceOptions {
  /** Names of the online user databases (no system, no composite). */
  readonly databases: () => readonly string[];
  readonly store: (database: string) => DatabaseStore;
  readonly settings: (database: string) => LifecycleSettings;
  /** Free bytes of the data directory. */
  readonly freeBytes: () => number;
  readonly clock?: LifecycleClock;
  readonly audit?: (event: ExpiryAuditEvent) => void;
  readonly observe?: (database: string, summary: RunSummary) => void;
  readonly random?: () => number;
  readonly evaluationMs?: number;
  readonly readerCheckMs?: number;
}

/** Cheap figures of one database (status, metrics). */
export interface LifecycleFigures {
  readonly database: string;
  readonly version: bigint;
  readonly pruneFloor: bigint;
  readonly activeReaders: number;
  readonly longReaders: number;
  readonly oldestReaderVersion: bigint | null;
  readonly oldestReaderAgeSeconds: number | null;
  readonly pressure: PressureState;
  readonly thresholds: PressureThresholds;
  /** The last debt rollup (null before the first pass). */
  readonly debt: DebtFigures | null;
}

/** One key of the debt report. */
export interface DebtReportKey {
  readonly kind: 'node' | 'relationship';
  readonly id: string;
  readonly versions: number;
  readonly bytes: number;
}

/** The exact debt of a database with its top keys. */
export interface DebtReport {
  readonly bytes: number;
  readonly keys: number;
  readonly versions: number;
  readonly top: readonly DebtReportKey[];
}

/** The MVCC lifecycle service of a process. */
export class MvccLifecycleService {
  private readonly lifecycles = new Map<string, DatabaseLifecycle>();
  private readonly clock: LifecycleClock;
  private readonly stops: (() => void)[] = [];
  private evaluating: Promise<void> | null = null;

  constructor(private readonly options: LifecycleServiceOptions) {
    this.clock = options.clock ?? systemClock;
  }

  /** Starts the evaluation and reader-policy tickers. */
  start(): void {
    if (this.stops.length > 0) return;
    this.stops.push(this.clock.every(this.options.evaluationMs ?? EVALUATION_MS, () => void this.evaluateAll().catch(() => undefined)));
    this.stops.push(this.clock.every(this.options.readerCheckMs ?? READER_CHECK_MS, () => this.enforceReadersAll()));
    for (const database of this.options.databases()) this.tryLifecycle(database);
  }

  /** The lifecycle of `database` (DatabaseNotFound when it does not exist). */
  lifecycle(database: string): DatabaseLifecycle {
    const store = this.options.store(database);
    let lifecycle = this.lifecycles.get(store.name);
    if (lifecycle === undefined) {
      const name = store.name;
      lifecycle = new DatabaseLifecycle(name, {
        store: () => this.options.store(name),
        settings: () => this.options.settings(name),
        clock: this.clock,
        freeBytes: this.options.freeBytes,
        audit: this.options.audit ?? (() => undefined),
        observe: (summary) => this.options.observe?.(name, summary),
        random: this.options.random,
      });
      this.lifecycles.set(name, lifecycle);
      lifecycle.attach();
    }
    return lifecycle;
  }

  private tryLifecycle(database: string): DatabaseLifecycle | null {
    try {
      return this.lifecycle(database);
    } catch (error) {
      if (error instanceof DatabaseNotFound) {
        this.lifecycles.get(database)?.close();
        this.lifecycles.delete(database);
        return null;
      }
      throw error;
    }
  }

  /** Keys a prune cycle of `database` may serve: its share of the global budget, at least the minimum slice, at most its cap. */
  budgetFor(database: string): number {
    const settings = this.options.settings(database);
    const share = Math.floor(GLOBAL_BUDGET_KEYS / Math.max(1, this.options.databases().length));
    const capped = settings.budgetKeys > 0 ? Math.min(settings.budgetKeys, share) : share;
    return Math.max(settings.minSliceKeys, capped);
  }

  /** Runs one prune cycle of `database` now with its budget. */
  prune(database: string): Promise<RunSummary> {
    return this.lifecycle(database).prune('manual', this.budgetFor(database));
  }

  /** One evaluation of every database (never two at once). */
  evaluateAll(): Promise<void> {
    this.evaluating ??= (async () => {
      for (const database of this.options.databases()) {
        const lifecycle = this.tryLifecycle(database);
        if (lifecycle === null) continue;
        try {
          await lifecycle.evaluate();
        } catch (error) {
          if (!(error instanceof DatabaseNotFound)) throw error;
        }
      }
    })().finally(() => {
      this.evaluating = null;
    });
    return this.evaluating;
  }

  /** The reader policy of every database. */
  enforceReadersAll(): void {
    for (const database of this.options.databases()) {
      try {
        this.tryLifecycle(database)?.enforceReaders();
      } catch (error) {
        if (!(error instanceof DatabaseNotFound)) throw error;
      }
    }
  }

  /** The pressure state of `database` when its lifecycle runs (no store access: for response headers). */
  bandOf(database: string): PressureState | null {
    return (this.lifecycles.get(database) ?? this.lifecycles.get(database.toLowerCase()))?.pressureState ?? null;
  }

  /** Cheap figures of `database`: registry, state table and the last rollups (no scan). */
  figures(database: string): LifecycleFigures {
    const lifecycle = this.lifecycle(database);
    const store = lifecycle.attach();
    const registry = store.readerRegistry;
    const oldest = registry.oldestPin;
    return {
      database: store.name,
      version: store.version,
      pruneFloor: store.readHistory((c) => readState(c, StateKey.pruneFloor)),
      activeReaders: registry.activeReaders,
      longReaders: registry.longReaders,
      oldestReaderVersion: oldest?.version ?? null,
      oldestReaderAgeSeconds: oldest === null ? null : (this.clock.now() - oldest.startedAt) / 1000,
      pressure: lifecycle.pressureState,
      thresholds: lifecycle.pressureThresholds,
      debt: lifecycle.debt.latest,
    };
  }

  /** Figures of every online user database. */
  allFigures(): LifecycleFigures[] {
    const out: LifecycleFigures[] = [];
    for (const database of this.options.databases()) {
      try {
        out.push(this.figures(database));
      } catch (error) {
        if (!(error instanceof DatabaseNotFound)) throw error;
      }
    }
    return out;
  }

  /** The exact debt of `database` with its `limit` largest keys, read in slices. */
  async debtReport(database: string, limit: number): Promise<DebtReport> {
    const lifecycle = this.lifecycle(database);
    const store = lifecycle.attach();
    const settings = this.options.settings(database);
    const cap = Math.max(0, Math.min(limit, MAX_DEBT_KEYS));
    const totals = { bytes: 0, keys: 0, versions: 0 };
    let top: DebtReportKey[] = [];
    for (const table of HISTORY_TABLES) {
      let after = -1n;
      const end = (table.kind === 'node' ? store.idSpace.node : store.idSpace.rel) + 1n;
      await runSliced(
        () => {
          const page = store.readHistory((c) => readChainPage(c, table, after, end));
          const bounds = {
            pinFloor: store.pinFloor,
            ttlCutoff: settings.ttlMs > 0 ? Date.now() - settings.ttlMs : null,
            maxVersions: settings.maxVersions,
            hardCap: settings.hardCap,
          };
          for (const chain of page.chains) {
            const plan = planKey(chain, bounds);
            if (plan.versions === 0) continue;
            totals.keys++;
            totals.versions += plan.versions;
            totals.bytes += plan.bytes;
            if (cap > 0) top.push({ kind: plan.kind, id: plan.id.toString(), versions: plan.versions, bytes: plan.bytes });
          }
          if (top.length > cap * 4) top = rank(top).slice(0, cap);
          after = page.after;
          return !page.done;
        },
        { cpuShare: 1, clock: this.clock },
      );
    }
    return { ...totals, top: rank(top).slice(0, cap) };
  }

  /** Rebuilds the heads of `database` (RebuildMVCCHeads). */
  rebuildHeads(database: string): Promise<HeadRebuildResult> {
    const store = this.lifecycle(database).attach();
    return rebuildHeads(store, this.clock, this.options.settings(database).maxCpuShare);
  }

  /** Stops every ticker and timer. */
  close(): void {
    for (const stop of this.stops.splice(0)) stop();
    for (const lifecycle of this.lifecycles.values()) lifecycle.close();
    this.lifecycles.clear();
  }
}

function rank(keys: DebtReportKey[]): DebtReportKey[] {
  return keys.sort((a, b) => b.bytes - a.bytes || a.kind.localeCompare(b.kind) || Number(BigInt(a.id) - BigInt(b.id)));
}
