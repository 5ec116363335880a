/**
 * The apply phase of a prune: inside the caller's write transaction, each planned key's version
 * fence (its newest closing version) is re-checked; a key whose fence moved since planning is
 * skipped (stale plan) and handed back for a retry. Removal is clamped to the oldest reader
 * pinned right now, so a reader that started after planning keeps what it reads. The stored
 * prune floor only advances.
 */
import type { Connection } from '../../storage/sqlite/connection.js';
import { StateKey, readState, writeState } from '../../storage/sqlite/state-table.js';
import { ROW_OVERHEAD, tableOf } from './history-scan.js';
import type { KeyPlan } from './key-plan.js';

/** Outcome of applying a batch of key plans. */
export interface ApplyOutcome {
  readonly versions: number;
  readonly bytes: number;
  /** Keys whose versions were removed. */
  readonly applied: number;
  /** Plans whose fence moved (to requeue). */
  readonly stale: KeyPlan[];
  /** The stored prune floor after the batch. */
  readonly pruneFloor: bigint;
}

const fenceSql = (history: string): string => `SELECT max(to_version) FROM ${history} WHERE id = ?`;
const sizeSql = (history: string): string =>
  `SELECT count(*), coalesce(sum(length(props)), 0), coalesce(max(to_version), 0) FROM ${history} WHERE id = ? AND to_version <= ?`;
const deleteSql = (history: string): string => `DELETE FROM ${history} WHERE id = ? AND to_version <= ?`;
/** Keeps the creating version of a key whose oldest version is about to go (createdAt, mvcc/entity-versions.ts). */
const keepCreatedSql = (history: string): string =>
  `INSERT OR IGNORE INTO entity_created (kind, id, version) SELECT ?, id, min(from_version) FROM ${history} WHERE id = ?`;

/** Applies `plans` on `writer` (inside its write transaction); `pinFloor` is the oldest pinned version now. */
export function applyKeyPlans(writer: Connection, plans: readonly KeyPlan[], pinFloor: bigint): ApplyOutcome {
  let versions = 0;
  let bytes = 0;
  let applied = 0;
  let highest = 0n;
  const stale: KeyPlan[] = [];
  for (const plan of plans) {
    if (plan.floor <= 0n) continue;
    const { history } = tableOf(plan.kind);
    const fence = (writer.pluck(fenceSql(history)).get(plan.id) as bigint | null) ?? 0n;
    if (fence !== plan.fence) {
      stale.push(plan);
      continue;
    }
    const floor = plan.floor < pinFloor ? plan.floor : pinFloor;
    const [count, payload, top] = writer.raw(sizeSql(history)).get(plan.id, floor) as [bigint, bigint, bigint];
    if (count === 0n) continue;
    writer.stmt(keepCreatedSql(history)).run(plan.kind === 'node' ? 0 : 1, plan.id);
    writer.stmt(deleteSql(history)).run(plan.id, floor);
    versions += Number(count);
    bytes += Number(payload) + Number(count) * ROW_OVERHEAD;
    applied++;
    if (top > highest) highest = top;
  }
  const previous = readState(writer, StateKey.pruneFloor);
  const pruneFloor = highest > previous ? highest : previous;
  if (pruneFloor !== previous) writeState(writer, StateKey.pruneFloor, pruneFloor);
  return { versions, bytes, applied, stale, pruneFloor };
}
