/**
 * SQL side of the bulk loader: multi-row INSERT statements, the staging table of index entries,
 * dropping and rebuilding the relationship table's secondary indexes, and load-time PRAGMAs.
 *
 * Everything here runs on the writer connection inside the loader's one SQLite transaction, so
 * a failure or a killed process leaves the file as it was (DDL included).
 */
import type { Statement } from 'better-sqlite3';
import type { Connection } from './sqlite/connection.js';

/** Rows bound per multi-row INSERT (fewer statement executions, well under SQLite's variable limit). */
export const ROWS_PER_STATEMENT = 128;

/**
 * Writes rows through `INSERT INTO <table> (<columns>) VALUES (...), (...)`: full statements of
 * ROWS_PER_STATEMENT rows, the remainder one row at a time.
 */
export class MultiRowInsert {
  private readonly width: number;
  private readonly many: Statement;
  private readonly one: Statement;
  private readonly args: unknown[];
  private filled = 0;
  /** Rows written so far. */
  rows = 0;

  constructor(connection: Connection, table: string, columns: readonly string[], verb = 'INSERT') {
    this.width = columns.length;
    const tuple = `(${columns.map(() => '?').join(', ')})`;
    const head = `${verb} INTO ${table} (${columns.join(', ')}) VALUES `;
    this.many = connection.stmt(head + Array.from({ length: ROWS_PER_STATEMENT }, () => tuple).join(', '));
    this.one = connection.stmt(head + tuple);
    this.args = new Array<unknown>(this.width * ROWS_PER_STATEMENT);
  }

  /** Queues one row (values in column order); runs a statement when enough rows are queued. */
  add(a: unknown, b?: unknown, c?: unknown, d?: unknown, e?: unknown, f?: unknown): void {
    const args = this.args;
    let at = this.filled * this.width;
    args[at++] = a;
    if (this.width > 1) args[at++] = b;
    if (this.width > 2) args[at++] = c;
    if (this.width > 3) args[at++] = d;
    if (this.width > 4) args[at++] = e;
    if (this.width > 5) args[at] = f;
    this.rows++;
    if (++this.filled === ROWS_PER_STATEMENT) {
      this.many.run(args);
      this.filled = 0;
    }
  }

  /** Writes the queued remainder. */
  flush(): void {
    for (let row = 0; row < this.filled; row++) {
      this.one.run(this.args.slice(row * this.width, (row + 1) * this.width));
    }
    this.filled = 0;
  }
}

/** Staging table of index entries; sorted into `index_entries` in one pass at the end. */
export const STAGED_ENTRIES = 'temp.bulk_index_entries';

/** Creates the (empty) staging table. */
export function createStaging(connection: Connection): void {
  connection.db.exec(
    `DROP TABLE IF EXISTS ${STAGED_ENTRIES}; CREATE TABLE ${STAGED_ENTRIES} (index_id INTEGER NOT NULL, key BLOB NOT NULL, entity INTEGER NOT NULL)`,
  );
}

/** First duplicate key among the staged entries of one index: [key, lower entity, higher entity]. */
export function stagedDuplicate(connection: Connection, indexId: number): [Buffer, bigint, bigint] | null {
  const row = connection
    .raw(
      `SELECT key, min(entity), max(entity) FROM ${STAGED_ENTRIES} WHERE index_id = ? GROUP BY key HAVING count(DISTINCT entity) > 1 LIMIT 1`,
    )
    .get(indexId) as [Buffer, bigint, bigint] | undefined;
  return row ?? null;
}

/** First staged entry whose key an entry committed before the load already has: [existing, staged]. */
export function stagedConflict(connection: Connection, indexId: number): [bigint, bigint] | null {
  const row = connection
    .raw(
      `SELECT e.entity, t.entity FROM ${STAGED_ENTRIES} t JOIN main.index_entries e ON e.index_id = t.index_id AND e.key = t.key
       WHERE t.index_id = ? LIMIT 1`,
    )
    .get(indexId) as [bigint, bigint] | undefined;
  return row ?? null;
}

/** True when the index has entries (committed before the load). */
export function indexHasEntries(connection: Connection, indexId: number): boolean {
  return connection.pluck('SELECT 1 FROM index_entries WHERE index_id = ? LIMIT 1').get(indexId) !== undefined;
}

/** Moves the staged entries into `index_entries` in key order (B-tree appends) and drops the staging table. */
export function publishStaging(connection: Connection): void {
  connection.db.exec(
    `INSERT OR IGNORE INTO main.index_entries (index_id, key, entity)
       SELECT index_id, key, entity FROM ${STAGED_ENTRIES} ORDER BY index_id, key, entity;
     DROP TABLE ${STAGED_ENTRIES}`,
  );
}

/** A secondary index as SQLite stores its definition. */
export interface SavedIndex {
  readonly name: string;
  readonly sql: string;
}

/** Drops every secondary index of `table` (their definitions are returned for `rebuildIndexes`). */
export function dropIndexes(connection: Connection, table: string): SavedIndex[] {
  const saved = connection
    .raw("SELECT name, sql FROM main.sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY name")
    .all(table) as [string, string][];
  for (const [name] of saved) connection.db.exec(`DROP INDEX main."${name.replace(/"/g, '""')}"`);
  return saved.map(([name, sql]) => ({ name, sql }));
}

/** Recreates dropped indexes: SQLite builds each from one sorted pass over the table. */
export function rebuildIndexes(connection: Connection, indexes: readonly SavedIndex[]): void {
  for (const index of indexes) connection.db.exec(index.sql);
}

/** Sets connection PRAGMAs for the load; returns a function restoring the previous values. */
export function tunePragmas(connection: Connection, settings: Readonly<Record<string, number>>): () => void {
  const previous: [string, unknown][] = [];
  for (const [name, value] of Object.entries(settings)) {
    previous.push([name, connection.db.pragma(name, { simple: true })]);
    connection.db.pragma(`${name} = ${value}`);
  }
  return () => {
    if (!connection.db.open) return;
    for (const [name, value] of previous) connection.db.pragma(`${name} = ${String(value)}`);
  };
}
