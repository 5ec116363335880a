import { decimal, duration, group, integer, size } from '../declare.js';

/** The soak run observes the snapshot lifetime and the high band; mvcc-settings.test.ts the rest. */
const soak = 'test/admin/mvcc-soak.test.ts';
const proof = 'test/admin/mvcc-settings.test.ts';

/** `mvcc` section (docs/mvcc-lifecycle.md): the MVCC lifecycle's reader policy, pressure and ceilings. */
export const mvcc = group('mvcc', {
  max_snapshot_lifetime: duration(15 * 60_000, {
    env: 'GRAPHDB_MVCC_MAX_SNAPSHOT_LIFETIME',
    help: 'How long a transaction or statement may keep its snapshot (explicit, temporal or auto-commit, on a read worker too) before it is cancelled (0: no limit).',
    proof: soak,
    perDatabase: true,
  }),
  hard_expiry_after: duration(60_000, {
    env: 'GRAPHDB_MVCC_HARD_EXPIRY_AFTER',
    help: 'How long critical history pressure must last before the oldest reader is expired.',
    proof,
    perDatabase: true,
  }),
  max_chain_hard_cap: integer(1000, {
    env: 'GRAPHDB_MVCC_MAX_CHAIN_HARD_CAP',
    min: 0,
    help: 'Most closed versions one entity keeps, even inside the retention TTL (0: no cap).',
    proof,
    perDatabase: true,
  }),
  pressure_high_enter: size(0, {
    env: 'GRAPHDB_MVCC_PRESSURE_HIGH_ENTER',
    help: 'Pinned history bytes that enter the high pressure band (0: the built-in formula).',
    proof: soak,
    perDatabase: true,
  }),
  pressure_critical_enter: size(0, {
    env: 'GRAPHDB_MVCC_PRESSURE_CRITICAL_ENTER',
    help: 'Pinned history bytes that enter the critical pressure band (0: the built-in formula).',
    proof,
    perDatabase: true,
  }),
  high_long_snapshot_rate: decimal(10, {
    env: 'GRAPHDB_MVCC_HIGH_LONG_SNAPSHOT_RATE',
    min: 0,
    help: 'New long snapshots admitted per second in the high pressure band.',
    proof,
    perDatabase: true,
  }),
  budget_keys: integer(0, {
    env: 'GRAPHDB_MVCC_BUDGET_KEYS',
    min: 0,
    help: 'Entities one prune cycle of a database may serve (0: its share of the global budget).',
    proof,
    perDatabase: true,
  }),
  min_slice_keys: integer(256, {
    env: 'GRAPHDB_MVCC_MIN_SLICE_KEYS',
    min: 1,
    help: 'Entities every database is guaranteed per prune cycle.',
    proof,
  }),
  max_cpu_share: decimal(0.25, {
    env: 'GRAPHDB_MVCC_MAX_CPU_SHARE',
    min: 0.01,
    max: 1,
    help: 'Share of one core the history lifecycle may use.',
    proof,
  }),
  max_io_bytes: size(256 * 1024 * 1024, {
    env: 'GRAPHDB_MVCC_MAX_IO_BYTES',
    help: 'History bytes one lifecycle cycle may read and delete (0: no limit).',
    proof,
  }),
  max_cycle_runtime: duration(30_000, { env: 'GRAPHDB_MVCC_MAX_CYCLE_RUNTIME', help: 'Longest run of one lifecycle cycle.', proof }),
});
