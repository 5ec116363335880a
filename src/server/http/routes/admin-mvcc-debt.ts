/**
 * Compaction debt of one database: the closed history versions the retention settings would let
 * a prune run remove right now (same rules as `pruneHistory` in `src/engine/mvcc/maintenance.ts`:
 * below the oldest reader's pin, beyond the per-entity cap, older than the TTL). Read through a
 * separate read-only SQLite connection on the database file, so it never blocks writers.
 */
import Database from 'better-sqlite3';

/** Retention settings a prune run applies. */
export interface RetentionSettings {
  /** Closed versions kept per node/relationship (newest first). */
  readonly maxVersions: number;
  /** Closed versions closed less than this many ms ago are kept; 0 = no TTL protection. */
  readonly ttlMs: number;
}

/** Debt of one node or relationship. */
export interface DebtKey {
  readonly kind: 'node' | 'relationship';
  readonly id: string;
  /** Prunable closed versions of this entity. */
  readonly versions: number;
  /** Approximate bytes those versions hold. */
  readonly bytes: number;
}

/** Debt totals of one database, with the top keys by bytes. */
export interface DebtFigures {
  readonly bytes: number;
  readonly keys: number;
  readonly versions: number;
  readonly top: readonly DebtKey[];
}

/** Same per-row overhead the storage figures use. */
const ROW_OVERHEAD = 32;

function prunableRows(table: 'node_history' | 'rel_history'): string {
  return `SELECT id, props FROM (
      SELECT h.id, h.to_version, h.props,
             row_number() OVER (PARTITION BY h.id ORDER BY h.from_version DESC) AS rank,
             c.committed_at
      FROM ${table} h LEFT JOIN commits c ON c.version = h.to_version
    ) WHERE to_version <= @floor AND rank > @cap AND (committed_at IS NULL OR committed_at <= @cutoff)`;
}

function perKey(table: 'node_history' | 'rel_history'): string {
  return `SELECT id, count(*) AS versions, coalesce(sum(length(props)), 0) + count(*) * ${ROW_OVERHEAD} AS bytes
    FROM (${prunableRows(table)}) GROUP BY id`;
}

/**
 * Computes the debt of the database stored in `file`. `pinFloor` is the oldest version an open
 * reader pins (or the head version + 1 when none); `limit` caps the per-key list.
 */
export function computeDebt(file: string, retention: RetentionSettings, pinFloor: bigint, limit: number, now = Date.now()): DebtFigures {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    db.defaultSafeIntegers(true);
    db.pragma('busy_timeout = 5000');
    const params = {
      floor: pinFloor,
      cap: BigInt(Math.max(0, Math.floor(retention.maxVersions))),
      cutoff: retention.ttlMs > 0 ? BigInt(Math.floor(now - retention.ttlMs)) : BigInt(Number.MAX_SAFE_INTEGER),
    };
    const totals = { bytes: 0, keys: 0, versions: 0 };
    const top: DebtKey[] = [];
    for (const [table, kind] of [
      ['node_history', 'node'],
      ['rel_history', 'relationship'],
    ] as const) {
      const sum = db
        .prepare(`SELECT count(*), coalesce(sum(versions), 0), coalesce(sum(bytes), 0) FROM (${perKey(table)})`)
        .raw()
        .get(params) as [bigint, bigint, bigint];
      totals.keys += Number(sum[0]);
      totals.versions += Number(sum[1]);
      totals.bytes += Number(sum[2]);
      if (limit > 0) {
        const rows = db
          .prepare(`${perKey(table)} ORDER BY bytes DESC, id LIMIT @limit`)
          .raw()
          .all({ ...params, limit: BigInt(limit) }) as [bigint, bigint, bigint][];
        for (const [id, versions, bytes] of rows) top.push({ kind, id: id.toString(), versions: Number(versions), bytes: Number(bytes) });
      }
    }
    top.sort((a, b) => b.bytes - a.bytes || a.kind.localeCompare(b.kind) || Number(BigInt(a.id) - BigInt(b.id)));
    return { ...totals, top: top.slice(0, Math.max(0, limit)) };
  } finally {
    db.close();
  }
}
