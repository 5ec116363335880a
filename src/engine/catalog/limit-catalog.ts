/**
 * Per-database resource limits (`ALTER DATABASE db SET LIMIT max_nodes = 1000`, NornicDB
 * syntax), kept in the `system` database's file (table `database_limits`, one row per limit
 * that is set). A limit of 0 or null means unlimited and removes the row.
 */
import { ArgumentError } from '../errors/index.js';
import { formatDuration, parseDuration } from '../config/duration.js';
import type { Connection } from '../storage/sqlite/connection.js';
import type { CypherValue } from '../values/types.js';
import { CypherDuration } from '../values/types.js';

/** The limits a database can have, in the order SHOW LIMITS lists them. */
export const LIMIT_NAMES = ['max_nodes', 'max_relationships', 'max_storage_bytes', 'max_query_time', 'max_concurrent_queries'] as const;

/** One limit name. */
export type LimitName = (typeof LIMIT_NAMES)[number];

/** The limits of one database; absent means unlimited. `max_query_time` is in milliseconds. */
export type DatabaseLimits = Readonly<Partial<Record<LimitName, number>>>;

/** NornicDB spellings accepted as synonyms. */
const SYNONYMS: Readonly<Record<string, LimitName>> = { max_edges: 'max_relationships', max_bytes: 'max_storage_bytes' };

const DESCRIPTIONS: Readonly<Record<LimitName, string>> = {
  max_nodes: 'Maximum number of nodes; a write past it fails and is rolled back',
  max_relationships: 'Maximum number of relationships; a write past it fails and is rolled back',
  max_storage_bytes: 'Maximum size of the database file on disk; a growing write past it fails',
  max_query_time: 'Maximum run time of one query; longer queries fail with TransactionTimedOut',
  max_concurrent_queries: 'Maximum number of queries running at once; more fail with a transient error',
};

const LIMITS_SQL = `CREATE TABLE IF NOT EXISTS database_limits (
  database TEXT NOT NULL,
  name TEXT NOT NULL,
  value INTEGER NOT NULL,
  PRIMARY KEY (database, name)
) WITHOUT ROWID`;

/** The canonical limit name of `name` (case-insensitive, synonyms resolved); throws ArgumentError. */
export function limitName(name: string): LimitName {
  const lower = name.toLowerCase();
  const known = SYNONYMS[lower] ?? LIMIT_NAMES.find((n) => n === lower);
  if (known === undefined) {
    throw new ArgumentError(`Unknown limit name '${name}'. Known limits: ${LIMIT_NAMES.join(', ')}.`);
  }
  return known;
}

function durationMs(value: CypherValue, name: string): number {
  if (typeof value === 'string') {
    const ms = parseDuration(value);
    if (ms !== null) return ms;
  } else if (typeof value === 'bigint') {
    return Number(value) * 1000;
  } else if (value instanceof CypherDuration) {
    return (
      Number(value.months) * 30 * 86_400_000 +
      Number(value.days) * 86_400_000 +
      Number(value.seconds) * 1000 +
      Number(value.nanoseconds) / 1e6
    );
  }
  throw new ArgumentError(`Invalid ${name} value: expected a duration such as '30s', '500ms' or '2m' (or an integer of seconds).`);
}

/**
 * Validates one `SET LIMIT name = value`: returns the canonical name and the stored number
 * (null for unlimited: 0 or null). Counts must be non-negative integers.
 */
export function limitValue(name: string, value: CypherValue): [LimitName, number | null] {
  const canonical = limitName(name);
  if (value === null) return [canonical, null];
  let amount: number;
  if (canonical === 'max_query_time') amount = durationMs(value, canonical);
  else if (typeof value === 'bigint') amount = Number(value);
  else if (typeof value === 'number' && Number.isInteger(value)) amount = value;
  else throw new ArgumentError(`Invalid ${canonical} value: expected a non-negative integer.`);
  if (!(amount >= 0) || !Number.isFinite(amount)) throw new ArgumentError(`Invalid ${canonical} value: it must not be negative.`);
  return [canonical, amount === 0 ? null : Math.round(amount)];
}

/** What a limit means (SHOW LIMITS `description`). */
export function limitDescription(name: LimitName): string {
  return DESCRIPTIONS[name];
}

/** The SHOW LIMITS `value` of a limit: a duration text for max_query_time, an integer otherwise, null when unlimited. */
export function limitDisplay(name: LimitName, value: number | undefined): CypherValue {
  if (value === undefined) return null;
  return name === 'max_query_time' ? formatDuration(value) : BigInt(value);
}

/** Ensures the limits table exists. */
export function ensureLimitTable(connection: Connection): void {
  connection.db.exec(LIMITS_SQL);
}

/** Every database's limits. */
export function readLimits(connection: Connection): Map<string, DatabaseLimits> {
  const rows = connection.raw('SELECT database, name, value FROM database_limits ORDER BY database, name').all() as [
    string,
    string,
    bigint | number,
  ][];
  const out = new Map<string, Partial<Record<LimitName, number>>>();
  for (const [database, name, value] of rows) {
    const known = LIMIT_NAMES.find((n) => n === name);
    if (known === undefined) continue;
    const limits = out.get(database) ?? {};
    limits[known] = Number(value);
    out.set(database, limits);
  }
  return out;
}

/** Sets (or with null removes) one limit of a database. */
export function writeLimit(connection: Connection, database: string, name: LimitName, value: number | null): void {
  if (value === null) connection.stmt('DELETE FROM database_limits WHERE database = ? AND name = ?').run(database, name);
  else connection.stmt('INSERT OR REPLACE INTO database_limits (database, name, value) VALUES (?, ?, ?)').run(database, name, value);
}

/** Removes every limit of a database (DROP DATABASE). */
export function deleteLimits(connection: Connection, database: string): void {
  connection.stmt('DELETE FROM database_limits WHERE database = ?').run(database);
}
