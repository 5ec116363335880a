/**
 * Index seeks over `index_entries`, paged with a (key, entity) cursor so a reader never keeps a
 * statement open between pages (many seeks and scans can interleave on one connection) and a
 * `LIMIT` in the query only pays for the pages it pulls.
 */
import type { KeyScan } from './codec/index-key.js';
import type { Connection } from './sqlite/connection.js';

const MAX_ENTITY = 0x7fffffffffffffffn;

function rangeSql(upperInclusive: boolean, filter: 'none' | 'contains' | 'suffix'): string {
  const upper = upperInclusive ? 'key <= @hi' : 'key < @hi';
  const extra =
    filter === 'contains'
      ? ' AND instr(substr(key, 2), @needle) > 0'
      : filter === 'suffix'
        ? ' AND length(key) > length(@needle) AND substr(key, -length(@needle)) = @needle'
        : '';
  return `SELECT key, entity FROM index_entries WHERE index_id = @index AND (key, entity) > (@ck, @ce) AND ${upper}${extra} ORDER BY key, entity LIMIT @n`;
}

const ALL_SQL = 'SELECT key, entity FROM index_entries WHERE index_id = @index AND (key, entity) > (@ck, @ce) ORDER BY key, entity LIMIT @n';
const KEY_SQL = 'SELECT entity FROM index_entries WHERE index_id = @index AND key = @key AND entity > @ce ORDER BY entity LIMIT @n';

/** Page sizes grow so small LIMITs stay cheap and big scans amortize statement calls. */
function nextPageSize(current: number): number {
  return current >= 4096 ? 4096 : current * 4;
}

/** Entity ids of index `indexId` whose key satisfies `scan`, in key order (ids unique per key). */
export function* seekIndex(connection: Connection, indexId: number, scan: KeyScan): Generator<bigint> {
  switch (scan.kind) {
    case 'empty':
      return;
    case 'keys': {
      const statement = connection.raw(KEY_SQL);
      for (const key of scan.keys) {
        let cursor = -1n;
        let size = 64;
        for (;;) {
          const rows = statement.all({ index: indexId, key, ce: cursor, n: size }) as [bigint][];
          for (const row of rows) yield row[0];
          if (rows.length < size) break;
          cursor = rows[rows.length - 1]![0];
          size = nextPageSize(size);
        }
      }
      return;
    }
    case 'all':
      yield* pagedRange(connection.raw(ALL_SQL), { index: indexId }, Buffer.alloc(0), -1n);
      return;
    case 'range': {
      const filter = scan.contains !== undefined ? 'contains' : scan.suffix !== undefined ? 'suffix' : 'none';
      const params: Record<string, unknown> = { index: indexId, hi: scan.upper.key };
      if (filter !== 'none') params['needle'] = scan.contains ?? scan.suffix;
      const statement = connection.raw(rangeSql(scan.upper.inclusive, filter));
      yield* pagedRange(statement, params, scan.lower.key, scan.lower.inclusive ? -1n : MAX_ENTITY);
      return;
    }
  }
}

function* pagedRange(
  statement: ReturnType<Connection['raw']>,
  params: Record<string, unknown>,
  startKey: Buffer,
  startEntity: bigint,
): Generator<bigint> {
  let cursorKey = startKey;
  let cursorEntity = startEntity;
  let size = 64;
  for (;;) {
    const rows = statement.all({ ...params, ck: cursorKey, ce: cursorEntity, n: size }) as [Buffer, bigint][];
    for (const row of rows) yield row[1];
    if (rows.length < size) return;
    const last = rows[rows.length - 1]!;
    cursorKey = last[0];
    cursorEntity = last[1];
    size = nextPageSize(size);
  }
}
