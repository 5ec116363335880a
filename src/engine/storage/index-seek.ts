/**
 * Index seeks over `index_entries`, paged with a (key, entity) cursor so a reader never keeps a
 * statement open between pages (many seeks and scans can interleave on one connection) and a
 * `LIMIT` in the query only pays for the pages it pulls. Page sizes are literals in the SQL
 * text (a bound LIMIT parameter costs SQLite ~15 µs per execution here).
 */
import type { KeyScan } from './codec/index-key.js';
import type { Connection } from './sqlite/connection.js';

const MAX_ENTITY = 0x7fffffffffffffffn;
/** Page sizes used in turn; the last one repeats. */
export const PAGE_SIZES = [64, 256, 1024, 4096] as const;

/** Range page SQL; parameters: index id, cursor key, cursor entity, upper key, then the filter needle(s). */
function rangeSql(upperInclusive: boolean, filter: 'none' | 'contains' | 'suffix', size: number): string {
  const upper = upperInclusive ? 'key <= ?' : 'key < ?';
  const extra =
    filter === 'contains'
      ? ' AND instr(substr(key, 2), ?) > 0'
      : filter === 'suffix'
        ? ' AND length(key) > length(?) AND substr(key, -length(?)) = ?'
        : '';
  return `SELECT key, entity FROM index_entries WHERE index_id = ? AND (key, entity) > (?, ?) AND ${upper}${extra} ORDER BY key, entity LIMIT ${size}`;
}

/** The SQL of each page size, built once (a statement is looked up by its text on every page). */
function bySize(sql: (size: number) => string): (size: number) => string {
  const texts = new Map<number, string>();
  return (size) => {
    let text = texts.get(size);
    if (text === undefined) {
      text = sql(size);
      texts.set(size, text);
    }
    return text;
  };
}

const allSql = bySize(
  (size) => `SELECT key, entity FROM index_entries WHERE index_id = ? AND (key, entity) > (?, ?) ORDER BY key, entity LIMIT ${size}`,
);
const keySql = bySize(
  (size) => `SELECT entity FROM index_entries WHERE index_id = ? AND key = ? AND entity > ? ORDER BY entity LIMIT ${size}`,
);
const rangeSqls = new Map<string, (size: number) => string>();

function pageSize(page: number): number {
  return PAGE_SIZES[Math.min(page, PAGE_SIZES.length - 1)]!;
}

/** Entity ids with exactly `key`: an array when they fit one page, else a paged generator. */
function seekKey(connection: Connection, indexId: number, key: Buffer): Iterable<bigint> {
  const first = connection.pluck(keySql(PAGE_SIZES[0])).all(indexId, key, -1n) as bigint[];
  if (first.length < PAGE_SIZES[0]) return first;
  return (function* () {
    yield* first;
    let cursor = first[first.length - 1]!;
    for (let page = 1; ; page++) {
      const size = pageSize(page);
      const ids = connection.pluck(keySql(size)).all(indexId, key, cursor) as bigint[];
      yield* ids;
      if (ids.length < size) return;
      cursor = ids[ids.length - 1]!;
    }
  })();
}

/** Entity ids of index `indexId` whose key satisfies `scan`, in key order (ids unique per key). */
export function seekIndex(connection: Connection, indexId: number, scan: KeyScan): Iterable<bigint> {
  switch (scan.kind) {
    case 'empty':
      return [];
    case 'keys':
      if (scan.keys.length === 1) return seekKey(connection, indexId, scan.keys[0]!);
      return (function* () {
        for (const key of scan.keys) yield* seekKey(connection, indexId, key);
      })();
    case 'all':
      return pagedRange(connection, allSql, [], indexId, Buffer.alloc(0), -1n);
    case 'range': {
      const filter = scan.contains !== undefined ? 'contains' : scan.suffix !== undefined ? 'suffix' : 'none';
      const extra: unknown[] = [scan.upper.key];
      if (filter === 'contains') extra.push(scan.contains);
      if (filter === 'suffix') extra.push(scan.suffix, scan.suffix, scan.suffix);
      const variant = `${scan.upper.inclusive}:${filter}`;
      let sql = rangeSqls.get(variant);
      if (sql === undefined) {
        const inclusive = scan.upper.inclusive;
        sql = bySize((size) => rangeSql(inclusive, filter, size));
        rangeSqls.set(variant, sql);
      }
      return pagedRange(connection, sql, extra, indexId, scan.lower.key, scan.lower.inclusive ? -1n : MAX_ENTITY);
    }
  }
}

function* pagedRange(
  connection: Connection,
  sql: (size: number) => string,
  extra: readonly unknown[],
  indexId: number,
  startKey: Buffer,
  startEntity: bigint,
): Generator<bigint> {
  let cursorKey = startKey;
  let cursorEntity = startEntity;
  for (let page = 0; ; page++) {
    const size = pageSize(page);
    const rows = connection.raw(sql(size)).all(indexId, cursorKey, cursorEntity, ...extra) as [Buffer, bigint][];
    for (const row of rows) yield row[1];
    if (rows.length < size) return;
    const last = rows[rows.length - 1]!;
    cursorKey = last[0];
    cursorEntity = last[1];
  }
}

const SINGLE_NODE_SQL =
  'SELECT e.entity, n.labels, n.props FROM index_entries e JOIN nodes n ON n.id = e.entity WHERE e.index_id = ? AND e.key = ? ORDER BY e.entity LIMIT 2';

/**
 * The node with exactly `key` in a node index, with its row ([entity, labels, props]) read in
 * the same statement, when there is exactly one; null when there are several (then page
 * through `seekIndex`). An empty array when there is none.
 */
export function seekSingleNode(connection: Connection, indexId: number, key: Buffer): [bigint, string, Buffer | null][] | null {
  const rows = connection.raw(SINGLE_NODE_SQL).all(indexId, key) as [bigint, string, Buffer | null][];
  return rows.length < 2 ? rows : null;
}
