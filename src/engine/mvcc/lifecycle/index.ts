/**
 * The MVCC lifecycle (docs/mvcc-lifecycle.md): pressure bands and emergency mode, the
 * snapshot reader policy, prune planning with fence re-checks and backoff, debt sampling and
 * rollups, budgets and ceilings, head rebuild. Servers start one MvccLifecycleService.
 */
export { MvccLifecycleService, EVALUATION_MS, READER_CHECK_MS, MAX_DEBT_KEYS } from './lifecycle-service.js';
export type { LifecycleServiceOptions, LifecycleFigures, DebtReport, DebtReportKey } from './lifecycle-service.js';
export { DatabaseLifecycle } from './database-lifecycle.js';
export type { LifecycleState, RunSummary, StopReason, ExpiryAuditEvent, LifecycleTotals } from './database-lifecycle.js';
export { DEFAULT_LIFECYCLE_SETTINGS, type LifecycleSettings } from './settings.js';
export { ENTER_DEBOUNCE_MS, EXIT_DEBOUNCE_MS, PressureController, pressureThresholds } from './pressure.js';
export type { PressureBand, PressureState, PressureThresholds } from './pressure.js';
export { PruneQueue, DEFAULT_RETRY_POLICY, type RetryPolicy, type KeyRef } from './prune-queue.js';
export { planKey, type KeyChain, type KeyPlan, type PlanBounds, type ChainRow } from './key-plan.js';
export { SnapshotExpired, SnapshotAdmissionRefused } from './reader-errors.js';
export { systemClock, SLICE_MS, type LifecycleClock } from './clock.js';
export type { DebtFigures } from './debt-tracker.js';
export type { HeadRebuildResult } from './head-rebuild.js';
