/**
 * The catalog of databases, kept in the reserved `system` database's file (table `databases`).
 * Names follow Neo4j's rules: 3-63 characters, ASCII letters, digits, dots and dashes,
 * starting with a letter, compared case-insensitively (stored lower-case).
 */
import { ArgumentError } from '../errors/index.js';
import type { Connection } from '../storage/sqlite/connection.js';

/** The reserved database holding the catalog (and users/roles later). */
export const SYSTEM_DATABASE = 'system';

/** One catalog entry. */
export interface DatabaseInfo {
  readonly name: string;
  /** Database file name relative to the data directory. */
  readonly file: string;
  readonly createdAt: Date;
  readonly isDefault: boolean;
  readonly isSystem: boolean;
  readonly status: 'online';
}

const CATALOG_SQL = `CREATE TABLE IF NOT EXISTS databases (
  name TEXT PRIMARY KEY,
  file TEXT NOT NULL,
  created_at INTEGER NOT NULL
) WITHOUT ROWID`;

/** Normalizes and validates a database name (throws ArgumentError when invalid). */
export function normalizeDatabaseName(name: string): string {
  const lower = name.toLowerCase();
  if (!/^[a-z][a-z0-9.-]{2,62}$/.test(lower)) {
    throw new ArgumentError(
      `Database name '${name}' is invalid: use 3 to 63 ASCII letters, digits, dots or dashes, starting with a letter.`,
    );
  }
  return lower;
}

/** Ensures the catalog table exists. */
export function ensureCatalogTable(connection: Connection): void {
  connection.db.exec(CATALOG_SQL);
}

/** Every database row. */
export function readCatalog(connection: Connection): { name: string; file: string; createdAt: Date }[] {
  const rows = connection.raw('SELECT name, file, created_at FROM databases ORDER BY name').all() as [string, string, bigint][];
  return rows.map(([name, file, created]) => ({ name, file, createdAt: new Date(Number(created)) }));
}

/** Adds a database row. */
export function insertCatalogRow(connection: Connection, name: string, file: string): void {
  connection.stmt('INSERT INTO databases (name, file, created_at) VALUES (?, ?, ?)').run(name, file, Date.now());
}

/** Removes a database row. */
export function deleteCatalogRow(connection: Connection, name: string): void {
  connection.stmt('DELETE FROM databases WHERE name = ?').run(name);
}
