/**
 * The MVCC lifecycle metrics of the spec (names exactly, no `graphdb_` prefix), registered on the
 * server's metrics registry. Gauges are global aggregates collected at scrape time from every
 * user database; the debt, prunable and pruned families also carry per-database series
 * (label `database`). Per-key detail is only on the debt endpoint.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { MvccStatus } from '../../../engine/index.js';
import type { DebtFigures } from './admin-mvcc-debt.js';
import type { RunSummary } from './admin-mvcc-lifecycle.js';

/** Per-database figures the gauges read at scrape time. */
export interface MvccScrape {
  readonly database: string;
  readonly status: MvccStatus;
  readonly debt: DebtFigures;
}

/** The registered MVCC metrics; `recordRun` feeds the run counters. */
export class MvccMetrics {
  private readonly prunedBytes: Counter<'database'>;
  private readonly runDuration: Histogram;
  private readonly keysScanned: Counter;
  private readonly stalePlanSkips: Counter;

  constructor(registry: Registry, scrape: () => readonly MvccScrape[]) {
    const registers = [registry];
    const sum = (pick: (s: MvccScrape) => number) => () => scrape().reduce((total, s) => total + pick(s), 0);
    const max = (pick: (s: MvccScrape) => number) => () => scrape().reduce((top, s) => Math.max(top, pick(s)), 0);
    const global = (name: string, help: string, read: () => number): void => {
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read());
        },
      });
    };
    const perDatabase = (name: string, help: string, pick: (s: MvccScrape) => number): void => {
      new Gauge({
        name,
        help,
        labelNames: ['database'],
        registers,
        collect() {
          this.reset();
          let total = 0;
          for (const s of scrape()) {
            this.set({ database: s.database }, pick(s));
            total += pick(s);
          }
          this.set({}, total);
        },
      });
    };
    global(
      'mvcc_bytes_pinned_by_oldest_reader',
      'Bytes of closed versions only the oldest open reader keeps alive.',
      sum((s) => s.status.bytesPinnedByOldestReader),
    );
    perDatabase('mvcc_compaction_debt_bytes', 'Bytes of closed versions the retention settings allow to prune now.', (s) => s.debt.bytes);
    perDatabase('mvcc_compaction_debt_keys', 'Nodes and relationships with prunable closed versions.', (s) => s.debt.keys);
    global(
      'mvcc_active_snapshot_readers',
      'Open snapshot and historical readers.',
      sum((s) => s.status.activeReaders),
    );
    global(
      'mvcc_oldest_reader_age_seconds',
      'Age of the oldest open reader (0 when none).',
      max((s) => s.status.oldestReaderAgeSeconds ?? 0),
    );
    perDatabase('mvcc_prunable_bytes_total', 'Bytes held by prunable closed versions.', (s) => s.debt.bytes);
    global(
      'mvcc_floor_lag_versions',
      'Largest distance between a head version and its prune floor.',
      max((s) => Number(s.status.version - s.status.pruneFloor)),
    );
    this.prunedBytes = new Counter({
      name: 'mvcc_pruned_bytes_total',
      help: 'Bytes of closed versions removed by prune runs.',
      labelNames: ['database'],
      registers,
    });
    this.runDuration = new Histogram({
      name: 'mvcc_prune_run_duration_seconds',
      help: 'Duration of one prune run.',
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30],
      registers,
    });
    this.keysScanned = new Counter({
      name: 'mvcc_prune_run_keys_scanned_total',
      help: 'Closed versions examined by prune runs.',
      registers,
    });
    this.stalePlanSkips = new Counter({
      name: 'mvcc_prune_stale_plan_skips_total',
      help: 'Keys skipped because the version fence moved between plan and apply (plans are applied under the write lock).',
      registers,
    });
    this.prunedBytes.inc({}, 0);
    this.stalePlanSkips.inc(0);
  }

  /** Records one finished prune run. */
  recordRun(database: string, summary: RunSummary): void {
    this.prunedBytes.inc({ database }, summary.prunedBytes);
    this.prunedBytes.inc({}, summary.prunedBytes);
    this.runDuration.observe(summary.durationMs / 1000);
    this.keysScanned.inc(summary.keysScanned);
    this.stalePlanSkips.inc(summary.stalePlanSkips);
  }
}
