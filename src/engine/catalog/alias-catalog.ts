/**
 * Database aliases (`CREATE ALIAS a FOR DATABASE db`), kept in the `system` database's file
 * (table `database_aliases`). An alias names one database (never another alias) and may carry
 * a map of properties; names are compared case-insensitively (stored lower-case).
 */
import type { Connection } from '../storage/sqlite/connection.js';
import { decodeStandalone, encodeStandalone } from '../storage/codec/value-codec.js';
import type { CypherValue } from '../values/types.js';

/** One stored alias. */
export interface AliasEntry {
  readonly name: string;
  readonly target: string;
  readonly properties: ReadonlyMap<string, CypherValue>;
}

const ALIAS_SQL = `CREATE TABLE IF NOT EXISTS database_aliases (
  name TEXT PRIMARY KEY,
  target TEXT NOT NULL,
  properties BLOB
) WITHOUT ROWID`;

/** Ensures the alias table exists. */
export function ensureAliasTable(connection: Connection): void {
  connection.db.exec(ALIAS_SQL);
}

/** Every alias row, ordered by name. */
export function readAliases(connection: Connection): AliasEntry[] {
  const rows = connection.raw('SELECT name, target, properties FROM database_aliases ORDER BY name').all() as [string, string, Buffer | null][];
  return rows.map(([name, target, properties]) => {
    const decoded = properties === null ? null : decodeStandalone(properties);
    return { name, target, properties: decoded instanceof Map ? decoded : new Map() };
  });
}

/** Inserts or replaces an alias row. */
export function writeAlias(connection: Connection, entry: AliasEntry): void {
  const properties = entry.properties.size === 0 ? null : encodeStandalone(entry.properties);
  connection.stmt('INSERT OR REPLACE INTO database_aliases (name, target, properties) VALUES (?, ?, ?)').run(entry.name, entry.target, properties);
}

/** Removes an alias row. */
export function deleteAlias(connection: Connection, name: string): void {
  connection.stmt('DELETE FROM database_aliases WHERE name = ?').run(name);
}
