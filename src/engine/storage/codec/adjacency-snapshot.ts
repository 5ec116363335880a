/**
 * In-memory adjacency snapshots (compressed sparse rows, both directions) of one committed
 * version, for traversals that expand many nodes (shortestPath). Node ids are the row index, so
 * a snapshot is only built while ids stay below 2^31 and not far above the relationship count.
 *
 * When to build (ski rental): a reader reports the node expansions it did through SQL; once the
 * expansions at a version reach a quarter of the relationship count (measured here: one SQL
 * expansion costs about what building costs for two to three relationships, so this builds a
 * little before the break-even point), the next request builds the
 * snapshot, which then serves every later read transaction of that version. A commit makes it
 * stale; the next version starts counting from zero, so write-heavy workloads never rebuild
 * for a single traversal.
 */
import type { Statement } from 'better-sqlite3';
import type { AdjacencyLists, AdjacencySnapshot } from '../graph-store.js';
import type { Connection } from '../sqlite/connection.js';
import type { StoreContext } from '../store-context.js';

/** Expansions per relationship at which building pays off. */
const EXPANSIONS_PER_RELATIONSHIP = 1 / 4;
/** Largest graph (relationships) kept in memory this way. */
export const MAX_SNAPSHOT_RELATIONSHIPS = 20_000_000;
/** Largest node id a snapshot indexes directly (int32 offsets). */
const MAX_NODE_ID = 2 ** 31 - 2;

const SCAN_SQL = 'SELECT src, dst, id, type FROM rels ORDER BY src, type, dst, id';

/** Per-database state: the snapshot of the newest version asked for, or the work counted so far. */
interface VersionState {
  readonly version: bigint;
  work: number;
  snapshot: AdjacencySnapshot | null;
  /** True when this version cannot be held (too large or ids too sparse). */
  refused: boolean;
}

const states = new WeakMap<StoreContext, VersionState>();
const statements = new WeakMap<Connection, Map<string, Statement>>();

/** Ordered scans return plain numbers (ids fit 2^53), as arrays. */
function numericStatement(connection: Connection, sql: string): Statement {
  let cache = statements.get(connection);
  if (cache === undefined) statements.set(connection, (cache = new Map<string, Statement>()));
  let statement = cache.get(sql);
  if (statement === undefined) {
    statement = connection.db.prepare(sql).raw(true).safeIntegers(false);
    cache.set(sql, statement);
  }
  return statement;
}

/** Relationships as parallel arrays, in `rels_out` order (src, type, dst, id). */
interface Scanned {
  readonly src: Int32Array;
  readonly dst: Int32Array;
  readonly id: Float64Array;
  readonly type: Int32Array;
  readonly maxNode: number;
}

/** One ordered scan of every relationship, or null when ids do not fit or the count moved. */
function scan(connection: Connection, count: number): Scanned | null {
  const src = new Int32Array(count);
  const dst = new Int32Array(count);
  const id = new Float64Array(count);
  const type = new Int32Array(count);
  let n = 0;
  let maxNode = -1;
  for (const row of numericStatement(connection, SCAN_SQL).iterate() as Iterable<[number, number, number, number]>) {
    if (n === count || row[0] > MAX_NODE_ID || row[1] > MAX_NODE_ID) return null;
    src[n] = row[0];
    dst[n] = row[1];
    id[n] = row[2];
    type[n] = row[3];
    maxNode = Math.max(maxNode, row[0], row[1]);
    n++;
  }
  return n === count && maxNode <= 4 * count + 65536 ? { src, dst, id, type, maxNode } : null;
}

/** Stable counting sort of `order` by `key[order[i]]` (keys in 0..range-1). */
function sortBy(order: Int32Array, key: Int32Array, range: number): Int32Array {
  const counts = new Int32Array(range + 1);
  for (let i = 0; i < order.length; i++) counts[key[order[i]!]! + 1]!++;
  for (let k = 1; k <= range; k++) counts[k]! += counts[k - 1]!;
  const sorted = new Int32Array(order.length);
  for (let i = 0; i < order.length; i++) sorted[counts[key[order[i]!]!]!++] = order[i]!;
  return sorted;
}

/** Lists owned by `owner[order[i]]`, far end `far`, in the given order (already grouped by owner). */
function lists(all: Scanned, order: Int32Array, owner: Int32Array, far: Int32Array): AdjacencyLists {
  const offsets = new Int32Array(all.maxNode + 2);
  const other = new Int32Array(order.length);
  const relationship = new Float64Array(order.length);
  const type = new Int32Array(order.length);
  for (let i = 0; i < order.length; i++) {
    const r = order[i]!;
    offsets[owner[r]! + 1]!++;
    other[i] = far[r]!;
    relationship[i] = all.id[r]!;
    type[i] = all.type[r]!;
  }
  for (let i = 1; i < offsets.length; i++) offsets[i]! += offsets[i - 1]!;
  return { offsets, other, relationship, type };
}

/**
 * Both directions from one scan: the out lists in scan order; the in lists by a stable sort of
 * that order by type, then by end node, which gives (dst, type, src, id), the `rels_in` order.
 */
function build(connection: Connection, context: StoreContext, count: number): AdjacencySnapshot | null {
  const all = scan(connection, count);
  if (all === null) return null;
  const identity = new Int32Array(count);
  let maxType = 0;
  for (let i = 0; i < count; i++) {
    identity[i] = i;
    if (all.type[i]! > maxType) maxType = all.type[i]!;
  }
  const incoming = sortBy(sortBy(identity, all.type, maxType + 1), all.dst, all.maxNode + 1);
  const types = context.tokens.types;
  return {
    out: lists(all, identity, all.src, all.dst),
    in: lists(all, incoming, all.dst, all.src),
    typeId: (name) => types.idOf(name),
    typeName: (id) => types.nameOf(id),
  };
}

/**
 * The snapshot of `version` for a reader on `connection` (inside its read transaction), after
 * adding `work` expansions to the version's count; null while building does not pay off yet.
 */
export function adjacencySnapshot(
  connection: Connection,
  context: StoreContext,
  version: bigint,
  work: number,
  relationshipCount: () => number,
): AdjacencySnapshot | null {
  let state = states.get(context);
  if (state === undefined || state.version !== version) {
    if (state !== undefined && state.version > version) return null;
    state = { version, work: 0, snapshot: null, refused: false };
    states.set(context, state);
  }
  if (state.snapshot !== null || state.refused) return state.snapshot;
  state.work += work;
  const count = relationshipCount();
  if (state.work < count * EXPANSIONS_PER_RELATIONSHIP) return null;
  if (count > MAX_SNAPSHOT_RELATIONSHIPS) {
    state.refused = true;
    return null;
  }
  state.snapshot = build(connection, context, count);
  state.refused = state.snapshot === null;
  return state.snapshot;
}
