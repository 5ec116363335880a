/**
 * The catalog tables of the `system` database file (databases, aliases, limits, options,
 * composites) as one value: what a change of the catalog carries in its change record
 * (storage/commit-record.ts), so that a cluster member replaying the record ends with the same
 * tables (docs/replication.md, "The system database"). The tables are small (a row per database,
 * alias, limit or option), so a record carries their whole content, not a difference.
 */
import type { Connection } from '../storage/sqlite/connection.js';
import type { CypherValue } from '../values/types.js';
import { ensureCatalogTable } from './database-catalog.js';
import { ensureAliasTable, ensureBuiltinAliasTable } from './alias-catalog.js';
import { ensureLimitTable } from './limit-catalog.js';
import { ensureOptionTable } from './option-catalog.js';
import { ensureCompositeTables } from './composite-catalog.js';

/** The tables, in the order they are written. */
const CATALOG_TABLES = [
  'databases',
  'database_aliases',
  'database_builtin_aliases',
  'database_limits',
  'database_options',
  'composite_databases',
  'composite_constituents',
] as const;

/** The content of every catalog table: `[[table, [column...], [[value...]...]]...]`. */
export type CatalogTablesState = readonly CypherValue[];

type Cell = string | bigint | Uint8Array | null;

function exists(connection: Connection, table: string): boolean {
  return connection.pluck("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== 0n;
}

/** Reads every catalog table (a table that does not exist yet reads as absent). */
export function readCatalogTables(connection: Connection): CatalogTablesState {
  const tables: CypherValue[] = [];
  for (const table of CATALOG_TABLES) {
    if (!exists(connection, table)) continue;
    const statement = connection.raw(`SELECT * FROM ${table}`);
    const columns = statement.columns().map((c) => c.name);
    const rows = (statement.all() as Cell[][]).map((row) => row.map((cell) => (Buffer.isBuffer(cell) ? new Uint8Array(cell) : cell)));
    tables.push([table, columns, rows]);
  }
  return tables;
}

function isCell(value: CypherValue): value is Cell {
  return value === null || typeof value === 'string' || typeof value === 'bigint' || value instanceof Uint8Array;
}

/** Replaces the catalog tables' content by `state` (inside the caller's write transaction). */
export function writeCatalogTables(connection: Connection, state: CatalogTablesState): void {
  ensureTables(connection);
  for (const entry of state) {
    if (!Array.isArray(entry)) throw new Error('Malformed catalog state');
    const [table, columns, rows] = entry as [CypherValue, CypherValue, CypherValue];
    if (typeof table !== 'string' || !(CATALOG_TABLES as readonly string[]).includes(table)) throw new Error('Unknown catalog table');
    if (!Array.isArray(columns) || !columns.every((c) => typeof c === 'string' && /^[a-z_]+$/.test(c)) || !Array.isArray(rows)) {
      throw new Error(`Malformed catalog table ${table}`);
    }
    const localFiles = table === 'databases' ? databaseFiles(connection) : null;
    connection.db.exec(`DELETE FROM ${table}`);
    const insert = connection.stmt(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
    for (const row of rows) {
      if (!Array.isArray(row) || !row.every(isCell)) throw new Error(`Malformed row of catalog table ${table}`);
      const cells = row.map((cell) => (cell instanceof Uint8Array ? Buffer.from(cell) : cell));
      if (localFiles !== null) keepLocalFile(columns as string[], cells, localFiles);
      insert.run(...cells);
    }
  }
}

/** Each database's file name in this data directory. */
function databaseFiles(connection: Connection): Map<string, string> {
  return new Map(connection.raw('SELECT name, file FROM databases').all() as [string, string][]);
}

/**
 * A database's file name is the member's own (a rebuilt or restored database has another): a
 * database this member has keeps its file, a new one gets `<name>.db`.
 */
function keepLocalFile(
  columns: readonly string[],
  cells: (string | bigint | Buffer | null)[],
  localFiles: ReadonlyMap<string, string>,
): void {
  const name = cells[columns.indexOf('name')];
  const file = columns.indexOf('file');
  if (typeof name !== 'string' || file < 0) return;
  cells[file] = localFiles.get(name) ?? `${name}.db`;
}

/** Creates the catalog tables that do not exist yet. */
export function ensureTables(connection: Connection): void {
  ensureCatalogTable(connection);
  ensureAliasTable(connection);
  ensureLimitTable(connection);
  ensureOptionTable(connection);
  ensureCompositeTables(connection);
  ensureBuiltinAliasTable(connection);
}
