/**
 * The `state` table: one small key/value B-tree holding the committed version, id allocators,
 * node/relationship counts and the per-label / per-type counts. Keeping all of them in one
 * table keeps them on one page, so a commit rewrites one page of bookkeeping, not four.
 */
import type { Connection } from './connection.js';

/** Keys of the fixed state entries. */
export const StateKey = {
  version: 'version',
  schemaVersion: 'schema_version',
  nextNodeId: 'next_node_id',
  nextRelId: 'next_rel_id',
  nodeCount: 'node_count',
  relCount: 'rel_count',
  pruneFloor: 'prune_floor',
  lastCommitAt: 'last_commit_at',
} as const;

/** Key of a label's node count. */
export function labelCountKey(labelId: number): string {
  return `label:${labelId}`;
}

/** Key of a relationship type's count. */
export function typeCountKey(typeId: number): string {
  return `type:${typeId}`;
}

const GET = 'SELECT value FROM state WHERE key = ?';
const ADD = 'INSERT INTO state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = value + excluded.value';
const SET = 'INSERT INTO state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value';
const RANGE = 'SELECT key, value FROM state WHERE key > ? AND key < ?';

/** A state value (0 when absent). */
export function readState(connection: Connection, key: string): bigint {
  return (connection.pluck(GET).get(key) as bigint | undefined) ?? 0n;
}

/** Adds `delta` to a state value. */
export function addState(connection: Connection, key: string, delta: bigint | number): void {
  connection.stmt(ADD).run(key, delta);
}

/** Sets a state value. */
export function writeState(connection: Connection, key: string, value: bigint | number): void {
  connection.stmt(SET).run(key, value);
}

/** Every (token id, count) of `label:` or `type:` entries. */
export function readTokenCounts(connection: Connection, prefix: 'label' | 'type'): [number, bigint][] {
  const rows = connection.raw(RANGE).all(`${prefix}:`, `${prefix};`) as [string, bigint][];
  return rows.map(([key, value]) => [Number(key.slice(prefix.length + 1)), value]);
}
