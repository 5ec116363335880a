/**
 * Prune planning of one key (a node or relationship and its chain of closed versions).
 *
 * The safe floor of a key is the minimum of three bounds (docs/mvcc-lifecycle.md, "Prune key under fence
 * contention"):
 * - the oldest-reader bound: versions closed at or before the oldest pinned reader version are
 *   invisible to every open reader;
 * - the TTL bound: the newest closing version whose commit is older than now - ttl (no bound
 *   without a TTL);
 * - the max-versions bound: the closing version of the newest closed version beyond the
 *   per-key cap.
 * Every closed version with `to <= floor` may go. `max_chain_hard_cap` raises the floor of a
 * chain longer than the cap, but never past the oldest-reader bound (it overrides the TTL and
 * max-versions protection only). The head is never part of a chain, so it is never pruned.
 */

/** One closed version of a key: valid over [from, to). */
export interface ChainRow {
  readonly from: bigint;
  readonly to: bigint;
  /** Approximate bytes the version holds (payload plus fixed row overhead). */
  readonly bytes: number;
  /** Commit time (ms) of the version that closed it; null when not logged yet (treated as recent). */
  readonly committedAt: number | null;
}

/** A key and its closed versions, oldest first. */
export interface KeyChain {
  readonly kind: 'node' | 'relationship';
  readonly id: bigint;
  readonly rows: readonly ChainRow[];
  /** False for a deleted key: its chain is a tombstone chain. */
  readonly hasHead: boolean;
}

/** The bounds of one planning pass. */
export interface PlanBounds {
  /** The oldest version an open reader pins, or the head version + 1 when none. */
  readonly pinFloor: bigint;
  /** Versions closed by commits at or before this time (ms) may go; null: no TTL protection. */
  readonly ttlCutoff: number | null;
  /** Closed versions kept per key (newest first). */
  readonly maxVersions: number;
  /** Longest chain of closed versions allowed (0: no cap). */
  readonly hardCap: number;
}

/** The planned prune of one key. */
export interface KeyPlan {
  readonly kind: 'node' | 'relationship';
  readonly id: bigint;
  /** Versions closed at or before this version go (0: nothing to prune). */
  readonly floor: bigint;
  /** The version fence: the newest closing version when planned (apply re-checks it). */
  readonly fence: bigint;
  readonly versions: number;
  readonly bytes: number;
  /** Closed versions of the key. */
  readonly chainLength: number;
  /** Bytes all closed versions of the key hold. */
  readonly historyBytes: number;
  readonly hasHead: boolean;
  /** Bytes that would be prunable without the open readers (what readers pin on this key). */
  readonly pinnedBytes: number;
}

const NO_BOUND = BigInt(Number.MAX_SAFE_INTEGER) * 1024n;

function floorOf(rows: readonly ChainRow[], bounds: PlanBounds, readerBound: bigint): bigint {
  const n = rows.length;
  const versionsBound = n > bounds.maxVersions ? rows[n - bounds.maxVersions - 1]!.to : 0n;
  let ttlBound = NO_BOUND;
  if (bounds.ttlCutoff !== null) {
    ttlBound = 0n;
    for (const row of rows) {
      if (row.committedAt === null || row.committedAt > bounds.ttlCutoff) break;
      ttlBound = row.to;
    }
  }
  let floor = min(readerBound, min(ttlBound, versionsBound));
  if (bounds.hardCap > 0 && n > bounds.hardCap) {
    const capBound = rows[n - bounds.hardCap - 1]!.to;
    floor = max(floor, min(capBound, readerBound));
  }
  return floor;
}

function removable(rows: readonly ChainRow[], floor: bigint): { versions: number; bytes: number } {
  let versions = 0;
  let bytes = 0;
  for (const row of rows) {
    if (row.to > floor) break;
    versions++;
    bytes += row.bytes;
  }
  return { versions, bytes };
}

/** Plans the prune of one key under `bounds`. */
export function planKey(chain: KeyChain, bounds: PlanBounds): KeyPlan {
  const rows = chain.rows;
  const fence = rows.length === 0 ? 0n : rows[rows.length - 1]!.to;
  const floor = rows.length === 0 ? 0n : floorOf(rows, bounds, bounds.pinFloor);
  const now = removable(rows, floor);
  const unpinned = rows.length === 0 ? now : removable(rows, floorOf(rows, bounds, NO_BOUND));
  return {
    kind: chain.kind,
    id: chain.id,
    floor: now.versions === 0 ? 0n : floor,
    fence,
    versions: now.versions,
    bytes: now.bytes,
    chainLength: rows.length,
    historyBytes: rows.reduce((total, row) => total + row.bytes, 0),
    hasHead: chain.hasHead,
    pinnedBytes: unpinned.bytes - now.bytes,
  };
}

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

function max(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}
