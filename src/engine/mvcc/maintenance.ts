/**
 * History lifecycle: status figures and pruning of closed versions.
 *
 * A closed version (a history row valid over [from_version, to_version)) may be pruned when
 * - no open reader needs it: to_version <= the oldest pinned reader version;
 * - it is beyond the per-entity cap: more than `maxVersions` newer closed versions of the same
 *   node/relationship exist (no cap when `maxVersions` is omitted);
 * - it is older than the TTL: the commit that closed it happened before now - `ttlMs`
 *   (no TTL protection when omitted).
 * (the per-key safe floor of mvcc/lifecycle/key-plan.ts). Heads are never touched. The stored
 * prune floor (the highest pruned to_version) only grows; a read below it answers per key: a
 * version that was pruned is not found, a key whose versions were kept still reads.
 */
import type { Connection } from '../storage/sqlite/connection.js';
import { StateKey, readState } from '../storage/sqlite/state-table.js';
import { HISTORY_TABLES, ROW_OVERHEAD, readChainPage } from './lifecycle/history-scan.js';
import { planKey } from './lifecycle/key-plan.js';
import { applyKeyPlans } from './lifecycle/prune-apply.js';

/** Options of one prune run. */
export interface PruneOptions {
  /** Closed versions to keep per node/relationship (newest first). */
  readonly maxVersions?: number;
  /** Closed versions whose closing commit is younger than this are kept. */
  readonly ttlMs?: number;
  /** Longest chain of closed versions per key, enforced even against the TTL and the cap (0: none). */
  readonly hardCap?: number;
}

/** Result of one prune run. */
export interface PruneResult {
  readonly prunedVersions: number;
  readonly prunedBytes: number;
  readonly pruneFloor: bigint;
  readonly durationMs: number;
}

/** History figures of one database. */
export interface MvccStatus {
  readonly database: string;
  /** The current (head) version. */
  readonly version: bigint;
  /** Oldest version still fully readable: the prune floor. */
  readonly pruneFloor: bigint;
  /** The oldest from_version among kept closed versions (null when there is no history). */
  readonly oldestHistoryVersion: bigint | null;
  readonly heads: { readonly nodes: number; readonly relationships: number };
  readonly closedVersions: { readonly nodes: number; readonly relationships: number };
  /** Approximate bytes held by closed versions (payload plus fixed row overhead). */
  readonly historyBytes: number;
  /** Bytes of closed versions that only the oldest open reader keeps alive. */
  readonly bytesPinnedByOldestReader: number;
  readonly activeReaders: number;
  readonly oldestReaderVersion: bigint | null;
  readonly oldestReaderAgeSeconds: number | null;
}

/** Id bounds of a whole history table. */
export const FIRST_ID = -1n;
export const END_ID = 1n << 62n;

/**
 * Prunes closed versions inside the caller's write transaction on `connection`, key by key with
 * the lifecycle's planner (mvcc/lifecycle/key-plan.ts). `pinFloor` is the oldest version an open
 * reader pins (or the head version + 1 when none). The wrapper the CLI and embedded callers use
 * (`PruneMVCCVersions`); the server's lifecycle runs the same plan in slices.
 */
export function pruneHistory(connection: Connection, options: PruneOptions, pinFloor: bigint, now = Date.now()): PruneResult {
  const started = performance.now();
  const bounds = {
    pinFloor,
    ttlCutoff: options.ttlMs === undefined ? null : Math.floor(now - options.ttlMs),
    maxVersions: Math.max(0, Math.floor(options.maxVersions ?? 0)),
    hardCap: Math.max(0, Math.floor(options.hardCap ?? 0)),
  };
  let prunedVersions = 0;
  let prunedBytes = 0;
  let pruneFloor = readState(connection, StateKey.pruneFloor);
  for (const table of HISTORY_TABLES) {
    let after = FIRST_ID;
    for (;;) {
      const page = readChainPage(connection, table, after, END_ID);
      const plans = page.chains.map((chain) => planKey(chain, bounds)).filter((plan) => plan.versions > 0);
      const outcome = applyKeyPlans(connection, plans, pinFloor);
      prunedVersions += outcome.versions;
      prunedBytes += outcome.bytes;
      pruneFloor = outcome.pruneFloor;
      if (page.done) break;
      after = page.after;
    }
  }
  return { prunedVersions, prunedBytes, pruneFloor, durationMs: performance.now() - started };
}

/** Reads the history figures through `connection`. */
export function historyFigures(
  connection: Connection,
  oldestReaderVersion: bigint | null,
): Omit<MvccStatus, 'database' | 'activeReaders' | 'oldestReaderVersion' | 'oldestReaderAgeSeconds'> {
  const state = [StateKey.version, StateKey.pruneFloor, StateKey.nodeCount, StateKey.relCount].map((key) => readState(connection, key));
  const nodes = connection.raw('SELECT count(*), coalesce(sum(length(props)), 0), min(from_version) FROM node_history').get() as [
    bigint,
    bigint,
    bigint | null,
  ];
  const rels = connection.raw('SELECT count(*), coalesce(sum(length(props)), 0), min(from_version) FROM rel_history').get() as [
    bigint,
    bigint,
    bigint | null,
  ];
  const oldest = [nodes[2], rels[2]].filter((v) => v !== null).reduce<bigint | null>((a, b) => (a === null || b < a ? b : a), null);
  let pinned = 0;
  if (oldestReaderVersion !== null) {
    const sql = (table: string): string =>
      `SELECT coalesce(sum(length(props)), 0) + count(*) * ${ROW_OVERHEAD} FROM ${table} WHERE from_version <= ? AND to_version > ?`;
    pinned =
      Number(connection.pluck(sql('node_history')).get(oldestReaderVersion, oldestReaderVersion)) +
      Number(connection.pluck(sql('rel_history')).get(oldestReaderVersion, oldestReaderVersion));
  }
  return {
    version: state[0]!,
    pruneFloor: state[1]!,
    oldestHistoryVersion: oldest,
    heads: { nodes: Number(state[2]), relationships: Number(state[3]) },
    closedVersions: { nodes: Number(nodes[0]), relationships: Number(rels[0]) },
    historyBytes: Number(nodes[1]) + Number(rels[1]) + (Number(nodes[0]) + Number(rels[0])) * ROW_OVERHEAD,
    bytesPinnedByOldestReader: pinned,
  };
}
