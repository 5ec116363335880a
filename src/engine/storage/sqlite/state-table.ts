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

/** Rows per `writeStates` statement (a commit touching many labels or types uses several). */
const MAX_ROWS = 64;

/** Statement texts of `writeStates` by operation and row count. */
const MANY = { set: [] as string[], add: [] as string[] };

function manyText(op: 'set' | 'add', rows: number): string {
  let text = MANY[op][rows];
  if (text === undefined) {
    const values = Array.from({ length: rows }, () => '(?, ?)').join(', ');
    const update = op === 'set' ? 'excluded.value' : 'value + excluded.value';
    text = `INSERT INTO state (key, value) VALUES ${values} ON CONFLICT (key) DO UPDATE SET value = ${update}`;
    MANY[op][rows] = text;
  }
  return text;
}

/**
 * Sets (`set`) or adds to (`add`) several state values in one statement; `entries` alternates
 * keys and values. A commit's bookkeeping then costs two statements instead of one per value.
 */
export function writeStates(connection: Connection, op: 'set' | 'add', entries: readonly (string | bigint | number)[]): void {
  for (let at = 0; at < entries.length; at += 2 * MAX_ROWS) {
    const chunk = entries.length - at <= 2 * MAX_ROWS ? (at === 0 ? entries : entries.slice(at)) : entries.slice(at, at + 2 * MAX_ROWS);
    connection.stmt(manyText(op, chunk.length / 2)).run(...chunk);
  }
}

/** Every (token id, count) of `label:` or `type:` entries. */
export function readTokenCounts(connection: Connection, prefix: 'label' | 'type'): [number, bigint][] {
  const rows = connection.raw(RANGE).all(`${prefix}:`, `${prefix};`) as [string, bigint][];
  return rows.map(([key, value]) => [Number(key.slice(prefix.length + 1)), value]);
}
