/**
 * Head rebuild (`RebuildMVCCHeads`): makes heads and history agree again, page by page, each
 * page in its own write transaction under the write lock:
 * - a head whose version is older than the newest closing version of its own history is moved
 *   up to it (otherwise a temporal read would see both the head and a history row);
 * - history rows closed by a version that was never committed (above the committed version)
 *   are removed;
 * - the node and relationship counts of the state table are recomputed from the heads.
 */
import type { DatabaseStore } from '../../storage/database-store.js';
import type { Connection } from '../../storage/sqlite/connection.js';
import { StateKey, readState, writeState } from '../../storage/sqlite/state-table.js';
import { runSliced, type LifecycleClock } from './clock.js';

/** Outcome of a head rebuild. */
export interface HeadRebuildResult {
  readonly headsChecked: number;
  readonly headsRepaired: number;
  readonly orphanVersionsRemoved: number;
  readonly countsCorrected: boolean;
  readonly durationMs: number;
}

const PAGE = 1000;
const TABLES = [
  { heads: 'nodes', history: 'node_history', count: StateKey.nodeCount },
  { heads: 'rels', history: 'rel_history', count: StateKey.relCount },
] as const;

function repairPage(
  writer: Connection,
  table: (typeof TABLES)[number],
  after: bigint,
): { last: bigint | null; checked: number; repaired: number } {
  const ids = writer.pluck(`SELECT id FROM ${table.heads} WHERE id > ? ORDER BY id LIMIT ${PAGE}`).all(after) as bigint[];
  if (ids.length === 0) return { last: null, checked: 0, repaired: 0 };
  const last = ids[ids.length - 1]!;
  const repaired = writer
    .stmt(
      `UPDATE ${table.heads} SET version = (SELECT max(h.to_version) FROM ${table.history} h WHERE h.id = ${table.heads}.id)
       WHERE id > ? AND id <= ? AND version < (SELECT coalesce(max(h.to_version), 0) FROM ${table.history} h WHERE h.id = ${table.heads}.id)`,
    )
    .run(after, last).changes;
  return { last, checked: ids.length, repaired };
}

/** Rebuilds the heads of `store` in slices. */
export async function rebuildHeads(store: DatabaseStore, clock: LifecycleClock, cpuShare: number): Promise<HeadRebuildResult> {
  const started = performance.now();
  let checked = 0;
  let repaired = 0;
  for (const table of TABLES) {
    let after = -1n;
    await runSliced(
      async () => {
        const page = await store.applyHistory((writer) => repairPage(writer, table, after));
        checked += page.checked;
        repaired += page.repaired;
        if (page.last === null) return false;
        after = page.last;
        return true;
      },
      { cpuShare, clock },
    );
  }
  const fixed = await store.applyHistory((writer) => {
    const version = readState(writer, StateKey.version);
    let orphans = 0;
    let corrected = false;
    for (const table of TABLES) {
      orphans += writer.stmt(`DELETE FROM ${table.history} WHERE to_version > ?`).run(version).changes;
      const actual = writer.pluck(`SELECT count(*) FROM ${table.heads}`).get() as bigint;
      if (actual !== readState(writer, table.count)) {
        writeState(writer, table.count, actual);
        corrected = true;
      }
    }
    return { orphans, corrected };
  });
  return {
    headsChecked: checked,
    headsRepaired: repaired,
    orphanVersionsRemoved: fixed.orphans,
    countsCorrected: fixed.corrected,
    durationMs: performance.now() - started,
  };
}
