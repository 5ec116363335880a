/**
 * The settings one database's MVCC lifecycle runs with (resolved per database from the
 * configuration: `database.mvcc_retention_*` and the `mvcc.*` section).
 */

/** Effective lifecycle settings of one database. */
export interface LifecycleSettings {
  /** Closed versions kept per key (`database.mvcc_retention_max_versions`). */
  readonly maxVersions: number;
  /** Ms; versions closed more recently are kept (`database.mvcc_retention_ttl`, 0: none). */
  readonly ttlMs: number;
  /** Longest chain of closed versions per key (`mvcc.max_chain_hard_cap`, 0: none). */
  readonly hardCap: number;
  /** Ms a long snapshot may live before it is gracefully cancelled (`mvcc.max_snapshot_lifetime`, 0: none). */
  readonly maxSnapshotLifetimeMs: number;
  /** Ms of sustained `critical` pressure before the oldest reader is hard-expired (`mvcc.hard_expiry_after`). */
  readonly hardExpiryAfterMs: number;
  /** Bytes; the `high` entry threshold (`mvcc.pressure_high_enter`, 0: the formula of docs/mvcc-lifecycle.md). */
  readonly highEnter: number;
  /** Bytes; the `critical` entry threshold (`mvcc.pressure_critical_enter`, 0: the formula of docs/mvcc-lifecycle.md). */
  readonly criticalEnter: number;
  /** New long snapshots admitted per second in the `high` band (`mvcc.high_long_snapshot_rate`). */
  readonly highLongSnapshotRate: number;
  /** Keys one prune cycle of this database may serve (`mvcc.budget_keys`, 0: the global budget). */
  readonly budgetKeys: number;
  /** Keys every database is guaranteed per cycle (`mvcc.min_slice_keys`). */
  readonly minSliceKeys: number;
  /** Best-effort share of one core a cycle may use (`mvcc.max_cpu_share`). */
  readonly maxCpuShare: number;
  /** Bytes of history a cycle may read and delete (`mvcc.max_io_bytes`, 0: none). */
  readonly maxIoBytes: number;
  /** Ms one cycle may run (`mvcc.max_cycle_runtime`). */
  readonly maxCycleRuntimeMs: number;
}

/** Defaults (the configuration's defaults, for embedded use and tests). */
export const DEFAULT_LIFECYCLE_SETTINGS: LifecycleSettings = {
  maxVersions: 100,
  ttlMs: 0,
  hardCap: 1000,
  maxSnapshotLifetimeMs: 15 * 60_000,
  hardExpiryAfterMs: 60_000,
  highEnter: 0,
  criticalEnter: 0,
  highLongSnapshotRate: 10,
  budgetKeys: 0,
  minSliceKeys: 256,
  maxCpuShare: 0.25,
  maxIoBytes: 256 * 1024 * 1024,
  maxCycleRuntimeMs: 30_000,
};

/** Keys a cycle serves in total when no per-database cap applies. */
export const GLOBAL_BUDGET_KEYS = 50_000;
/** Factor the budget is raised by in emergency mode (still clamped by the ceilings). */
export const EMERGENCY_BUDGET_FACTOR = 4;
