/**
 * Per-database options set by `CREATE DATABASE ... OPTIONS {...}` and `ALTER DATABASE ... SET
 * OPTION key value` / `REMOVE OPTION key`, kept in the `system` database's file (table
 * `database_options`). The one option graphdb acts on is Neo4j's `txLogEnrichment` (change data
 * capture: `OFF`, `DIFF` or `FULL`); any other key is refused.
 */
import { ArgumentError } from '../errors/index.js';
import type { Connection } from '../storage/sqlite/connection.js';
import type { CypherValue } from '../values/types.js';

/** Change data capture enrichment modes (Neo4j's `txLogEnrichment`). */
export type EnrichmentMode = 'OFF' | 'DIFF' | 'FULL';

/** Options of one database (absent: default). */
export interface DatabaseOptions {
  readonly txLogEnrichment?: EnrichmentMode;
}

const OPTIONS_SQL = `CREATE TABLE IF NOT EXISTS database_options (
  database TEXT NOT NULL,
  name TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (database, name)
) WITHOUT ROWID`;

const MODES: readonly EnrichmentMode[] = ['OFF', 'DIFF', 'FULL'];

/** Validates one option; returns its canonical key and value (null removes it). */
export function optionValue(key: string, value: CypherValue): ['txLogEnrichment', EnrichmentMode | null] {
  if (key.toLowerCase() !== 'txlogenrichment') {
    throw new ArgumentError(`Unknown database option '${key}'. Known options: txLogEnrichment.`);
  }
  if (value === null) return ['txLogEnrichment', null];
  const mode = typeof value === 'string' ? value.toUpperCase() : '';
  if (!MODES.includes(mode as EnrichmentMode)) {
    throw new ArgumentError(`Invalid value for option 'txLogEnrichment': ${JSON.stringify(value)}. Expected one of ${MODES.join(', ')}.`);
  }
  return ['txLogEnrichment', mode as EnrichmentMode];
}

/** Ensures the options table exists. */
export function ensureOptionTable(connection: Connection): void {
  connection.db.exec(OPTIONS_SQL);
}

/** Every stored option, by database. */
export function readOptions(connection: Connection): Map<string, DatabaseOptions> {
  const out = new Map<string, DatabaseOptions>();
  const rows = connection.raw('SELECT database, name, value FROM database_options').all() as [string, string, string][];
  for (const [database, name, value] of rows) {
    if (name === 'txLogEnrichment') out.set(database, { ...out.get(database), txLogEnrichment: value as EnrichmentMode });
  }
  return out;
}

/** Stores (or with null removes) one option. */
export function writeOption(connection: Connection, database: string, name: string, value: string | null): void {
  if (value === null) connection.stmt('DELETE FROM database_options WHERE database = ? AND name = ?').run(database, name);
  else connection.stmt('INSERT OR REPLACE INTO database_options (database, name, value) VALUES (?, ?, ?)').run(database, name, value);
}

/** Removes every option of a database. */
export function deleteOptions(connection: Connection, database: string): void {
  connection.stmt('DELETE FROM database_options WHERE database = ?').run(database);
}
