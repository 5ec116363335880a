/**
 * The MVCC lifecycle metrics of docs/mvcc-lifecycle.md (names exactly, no `graphdb_` prefix), registered on the
 * server's metrics registry. Gauges are global aggregates read at scrape time from the
 * lifecycle's rollups (never a scan of the history); the debt, prunable and pruned families
 * also carry per-database series (label `database`). Per-key detail is only on the debt endpoint.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { LifecycleFigures, RunSummary } from '../../../engine/index.js';

/** The registered MVCC metrics; `recordRun` feeds the run counters. */
export class MvccMetrics {
  private readonly prunedBytes: Counter<'database'>;
  private readonly runDuration: Histogram;
  private readonly keysScanned: Counter;
  private readonly stalePlanSkips: Counter;

  constructor(registry: Registry, scrape: () => readonly LifecycleFigures[]) {
    const registers = [registry];
    const sum = (pick: (s: LifecycleFigures) => number) => () => scrape().reduce((total, s) => total + pick(s), 0);
    const max = (pick: (s: LifecycleFigures) => number) => () => scrape().reduce((top, s) => Math.max(top, pick(s)), 0);
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
    const perDatabase = (name: string, help: string, pick: (s: LifecycleFigures) => number): void => {
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
      'Bytes of closed versions that only open readers keep alive (last debt rollup).',
      sum((s) => s.debt?.pinnedBytes ?? 0),
    );
    perDatabase(
      'mvcc_compaction_debt_bytes',
      'Bytes of closed versions the retention settings allow to prune now (last debt rollup).',
      (s) => s.debt?.bytes ?? 0,
    );
    perDatabase(
      'mvcc_compaction_debt_keys',
      'Nodes and relationships with prunable closed versions (last debt rollup).',
      (s) => s.debt?.keys ?? 0,
    );
    global(
      'mvcc_active_snapshot_readers',
      'Open snapshot and historical readers.',
      sum((s) => s.activeReaders),
    );
    global(
      'mvcc_oldest_reader_age_seconds',
      'Age of the oldest open reader (0 when none).',
      max((s) => s.oldestReaderAgeSeconds ?? 0),
    );
    perDatabase('mvcc_prunable_bytes_total', 'Bytes held by prunable closed versions (last debt rollup).', (s) => s.debt?.bytes ?? 0);
    global(
      'mvcc_tombstone_chain_max_depth',
      'Longest chain of closed versions of a deleted node or relationship (last debt rollup).',
      max((s) => s.debt?.tombstoneChainMaxDepth ?? 0),
    );
    global(
      'mvcc_floor_lag_versions',
      'Largest distance between a head version and its prune floor.',
      max((s) => Number(s.version - s.pruneFloor)),
    );
    this.prunedBytes = new Counter({
      name: 'mvcc_pruned_bytes_total',
      help: 'Bytes of closed versions removed by prune cycles.',
      labelNames: ['database'],
      registers,
    });
    this.runDuration = new Histogram({
      name: 'mvcc_prune_run_duration_seconds',
      help: 'Duration of one prune cycle.',
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30],
      registers,
    });
    this.keysScanned = new Counter({
      name: 'mvcc_prune_run_keys_scanned_total',
      help: 'Keys (chains of closed versions) examined by prune cycles.',
      registers,
    });
    this.stalePlanSkips = new Counter({
      name: 'mvcc_prune_stale_plan_skips_total',
      help: 'Keys skipped because their version fence moved between plan and apply (retried with backoff).',
      registers,
    });
    this.prunedBytes.inc({}, 0);
    this.stalePlanSkips.inc(0);
  }

  /** Records one finished prune cycle. */
  recordRun(database: string, summary: RunSummary): void {
    this.prunedBytes.inc({ database }, summary.prunedBytes);
    this.prunedBytes.inc({}, summary.prunedBytes);
    this.runDuration.observe(summary.durationMs / 1000);
    this.keysScanned.inc(summary.keysScanned);
    this.stalePlanSkips.inc(summary.stalePlanSkips);
  }
}
