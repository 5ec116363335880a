/**
 * History lifecycle: status figures and pruning of closed versions.
 *
 * A closed version (a history row valid over [from_version, to_version)) may be pruned when
 * - no open reader needs it: to_version <= the oldest pinned reader version;
 * - it is beyond the per-entity cap: more than `maxVersions` newer closed versions of the same
 *   node/relationship exist (no cap when `maxVersions` is omitted);
 * - it is older than the TTL: the commit that closed it happened before now - `ttlMs`
 *   (no TTL protection when omitted).
 * Heads are never touched. The prune floor (the highest pruned to_version) only grows.
 */
import type { Connection } from '../storage/sqlite/connection.js';
import { StateKey, readState, writeState } from '../storage/sqlite/state-table.js';

/** Options of one prune run. */
export interface PruneOptions {
  /** Closed versions to keep per node/relationship (newest first). */
  readonly maxVersions?: number;
  /** Closed versions whose closing commit is younger than this are kept. */
  readonly ttlMs?: number;
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

const ROW_OVERHEAD = 32;

function candidates(table: 'node_history' | 'rel_history'): string {
  return `SELECT id, from_version, to_version, props FROM (
      SELECT h.id, h.from_version, h.to_version, h.props,
             row_number() OVER (PARTITION BY h.id ORDER BY h.from_version DESC) AS rank,
             c.committed_at
      FROM ${table} h LEFT JOIN commits c ON c.version = h.to_version
    ) WHERE to_version <= @floor AND rank > @cap AND (committed_at IS NULL OR committed_at <= @cutoff)`;
}

function pruneTable(
  connection: Connection,
  table: 'node_history' | 'rel_history',
  params: Record<string, unknown>,
): { count: number; bytes: number; maxTo: bigint } {
  const summary = connection
    .raw(`SELECT count(*), coalesce(sum(length(props)), 0), coalesce(max(to_version), 0) FROM (${candidates(table)})`)
    .get(params) as [bigint, bigint, bigint];
  const count = Number(summary[0]);
  if (count > 0) {
    connection.stmt(`DELETE FROM ${table} WHERE (id, from_version) IN (SELECT id, from_version FROM (${candidates(table)}))`).run(params);
  }
  return { count, bytes: Number(summary[1]) + count * ROW_OVERHEAD, maxTo: summary[2] };
}

/**
 * Prunes closed versions inside the caller's write transaction on `connection`.
 * `pinFloor` is the oldest version an open reader pins (or the head version + 1 when none).
 */
export function pruneHistory(connection: Connection, options: PruneOptions, pinFloor: bigint, now = Date.now()): PruneResult {
  const started = performance.now();
  const params = {
    floor: pinFloor,
    cap: BigInt(Math.max(0, Math.floor(options.maxVersions ?? 0))),
    cutoff: options.ttlMs === undefined ? BigInt(Number.MAX_SAFE_INTEGER) : BigInt(Math.floor(now - options.ttlMs)),
  };
  const nodes = pruneTable(connection, 'node_history', params);
  const rels = pruneTable(connection, 'rel_history', params);
  const maxTo = nodes.maxTo > rels.maxTo ? nodes.maxTo : rels.maxTo;
  const previousFloor = readState(connection, StateKey.pruneFloor);
  const pruneFloor = maxTo > previousFloor ? maxTo : previousFloor;
  if (pruneFloor !== previousFloor) writeState(connection, StateKey.pruneFloor, pruneFloor);
  return {
    prunedVersions: nodes.count + rels.count,
    prunedBytes: nodes.bytes + rels.bytes,
    pruneFloor,
    durationMs: performance.now() - started,
  };
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
