/**
 * Reads chains of closed versions key by key, in id order, one bounded page at a time: the
 * lifecycle plans prunes and samples debt through these pages so no single step reads more
 * than `PAGE_ROWS` history rows (a slice stays well under the event-loop budget).
 *
 * A page ends at a key boundary; a chain longer than a page is read on its own.
 */
import type { Connection } from '../../storage/sqlite/connection.js';
import type { ChainRow, KeyChain } from './key-plan.js';

/** History rows read per page. */
export const PAGE_ROWS = 512;
/** Per-row overhead added to the payload length (same figure as the status report). */
export const ROW_OVERHEAD = 32;

/** The two history tables and the head table each belongs to. */
export const HISTORY_TABLES = [
  { kind: 'node', history: 'node_history', heads: 'nodes' },
  { kind: 'relationship', history: 'rel_history', heads: 'rels' },
] as const;

/** One of HISTORY_TABLES. */
export type HistoryTable = (typeof HISTORY_TABLES)[number];

const pageSql = (t: HistoryTable): string =>
  `SELECT h.id, h.from_version, h.to_version, coalesce(length(h.props), 0) + ${ROW_OVERHEAD}, c.committed_at
   FROM ${t.history} h LEFT JOIN commits c ON c.version = h.to_version
   WHERE h.id > @after AND h.id < @until ORDER BY h.id, h.from_version LIMIT @limit`;
const chainSql = (t: HistoryTable): string =>
  `SELECT h.id, h.from_version, h.to_version, coalesce(length(h.props), 0) + ${ROW_OVERHEAD}, c.committed_at
   FROM ${t.history} h LEFT JOIN commits c ON c.version = h.to_version
   WHERE h.id = @id ORDER BY h.from_version`;
const headSql = (t: HistoryTable): string => `SELECT 1 FROM ${t.heads} WHERE id = ?`;

type Row = [bigint, bigint, bigint, bigint, bigint | null];

/** A page of whole chains and where the next page starts. */
export interface ChainPage {
  readonly chains: KeyChain[];
  /** Id after which the next page starts. */
  readonly after: bigint;
  /** True when the range is exhausted. */
  readonly done: boolean;
  /** History rows read. */
  readonly rows: number;
  /** Approximate bytes read. */
  readonly bytes: number;
}

function toChainRow(row: Row): ChainRow {
  return { from: row[1], to: row[2], bytes: Number(row[3]), committedAt: row[4] === null ? null : Number(row[4]) };
}

/** Reads the chains with ids in (after, until) — at most about `PAGE_ROWS` rows. */
export function readChainPage(connection: Connection, table: HistoryTable, after: bigint, until: bigint, limit = PAGE_ROWS): ChainPage {
  const rows = connection.raw(pageSql(table)).all({ after, until, limit: BigInt(limit) }) as Row[];
  if (rows.length === 0) return { chains: [], after, done: true, rows: 0, bytes: 0 };
  const full = rows.length === limit;
  let complete = rows;
  if (full) {
    const lastId = rows[rows.length - 1]![0];
    complete = rows.filter((r) => r[0] !== lastId);
    if (complete.length === 0) {
      // One chain longer than a page: read it alone.
      complete = connection.raw(chainSql(table)).all({ id: lastId }) as Row[];
    }
  }
  const chains: KeyChain[] = [];
  const head = connection.pluck(headSql(table));
  let bytes = 0;
  let current: { id: bigint; rows: ChainRow[] } | null = null;
  const flush = (): void => {
    if (current !== null)
      chains.push({ kind: table.kind, id: current.id, rows: current.rows, hasHead: head.get(current.id) !== undefined });
  };
  for (const row of complete) {
    bytes += Number(row[3]);
    if (current === null || current.id !== row[0]) {
      flush();
      current = { id: row[0], rows: [] };
    }
    current.rows.push(toChainRow(row));
  }
  flush();
  const last = complete[complete.length - 1]![0];
  return { chains, after: last, done: !full, rows: complete.length, bytes };
}

/** Reads the chain of one key (empty rows when it has no closed versions). */
export function readChain(connection: Connection, table: HistoryTable, id: bigint): KeyChain {
  const rows = connection.raw(chainSql(table)).all({ id }) as Row[];
  return { kind: table.kind, id, rows: rows.map(toChainRow), hasHead: connection.pluck(headSql(table)).get(id) !== undefined };
}

/** The table of `kind`. */
export function tableOf(kind: 'node' | 'relationship'): HistoryTable {
  return kind === 'node' ? HISTORY_TABLES[0] : HISTORY_TABLES[1];
}
