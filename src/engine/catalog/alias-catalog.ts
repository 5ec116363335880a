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
  const rows = connection.raw('SELECT name, target, properties FROM database_aliases ORDER BY name').all() as [
    string,
    string,
    Buffer | null,
  ][];
  return rows.map(([name, target, properties]) => {
    const decoded = properties === null ? null : decodeStandalone(properties);
    return { name, target, properties: decoded instanceof Map ? decoded : new Map() };
  });
}

/** Inserts or replaces an alias row. */
export function writeAlias(connection: Connection, entry: AliasEntry): void {
  const properties = entry.properties.size === 0 ? null : encodeStandalone(entry.properties);
  connection
    .stmt('INSERT OR REPLACE INTO database_aliases (name, target, properties) VALUES (?, ?, ?)')
    .run(entry.name, entry.target, properties);
}

/** Removes an alias row. */
export function deleteAlias(connection: Connection, name: string): void {
  connection.stmt('DELETE FROM database_aliases WHERE name = ?').run(name);
}

const BUILTIN_SQL = `CREATE TABLE IF NOT EXISTS database_builtin_aliases (
  name TEXT PRIMARY KEY,
  target TEXT NOT NULL
) WITHOUT ROWID`;

/** Ensures the table recording the seeded built-in alias exists. */
export function ensureBuiltinAliasTable(connection: Connection): void {
  connection.db.exec(BUILTIN_SQL);
}

/**
 * Seeds the built-in home alias (`neo4j` by default) once per data directory: created the first
 * time the directory opens with that name configured, then an ordinary alias (SHOW ALIASES lists
 * it; DROP ALIAS removes it for good; ALTER ALIAS retargets it). While it still targets the
 * database it was seeded for, it follows a change of the default database.
 * Nothing happens when `name` is a database or a user alias.
 */
export function seedHomeAlias(connection: Connection, name: string, defaultDatabase: string, isDatabase: (name: string) => boolean): void {
  ensureBuiltinAliasTable(connection);
  const seeded = connection.raw('SELECT target FROM database_builtin_aliases WHERE name = ?').get(name) as [string] | undefined;
  const current = connection.raw('SELECT target FROM database_aliases WHERE name = ?').get(name) as [string] | undefined;
  if (seeded === undefined) {
    if (current !== undefined || isDatabase(name)) return;
    writeAlias(connection, { name, target: defaultDatabase, properties: new Map() });
  } else {
    if (current === undefined || current[0] !== seeded[0] || seeded[0] === defaultDatabase) return;
    writeAlias(connection, { name, target: defaultDatabase, properties: new Map() });
  }
  connection.stmt('INSERT OR REPLACE INTO database_builtin_aliases (name, target) VALUES (?, ?)').run(name, defaultDatabase);
}
