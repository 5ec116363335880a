/**
 * Temporal reads: a transaction or statement that reads a database as it was at a commit version
 * or at a point in time (docs/temporal-reads.md). Every surface reduces its form of the request to
 * an `AsOf` here and opens the reader through `DatabaseStore.readAt` (the same history reader as
 * the embedded API and `graphdb export --at-version`):
 *
 * - Bolt / drivers: transaction metadata `graphdb.asOfVersion` / `graphdb.asOfTime` (BEGIN and
 *   auto-commit RUN `tx_metadata`, i.e. neo4j-driver's `transactionConfig.metadata`);
 * - HTTP: the `X-Graphdb-As-Of-Version` / `X-Graphdb-As-Of-Time` headers;
 * - Cypher: `USE db AT VERSION n` / `USE db AT TIME datetime(...)`.
 *
 * A temporal transaction is read-only: a statement that writes fails with
 * `Neo.ClientError.Transaction.ForbiddenDueToTransactionType`.
 */
import { ArgumentError, graphError, type GraphError, StatusCodes } from '../errors/index.js';
import type { DatabaseStore } from '../storage/database-store.js';
import type { ReadTransaction } from '../storage/snapshot-reader.js';
import { CypherDateTime, LocalDateTime, type CypherValue } from '../values/types.js';
import { temporalFromString } from '../values/temporal/construct.js';
import { Kind, type Statement, type Use } from '../cypher/ast/index.js';

/** The point a temporal read reads at: a commit version, or the last version committed at or before a time. */
export type AsOf = { readonly version: bigint } | { readonly time: Date };

/** Transaction metadata key selecting a commit version (an integer, or its decimal text). */
export const AS_OF_VERSION_KEY = 'graphdb.asOfVersion';
/** Transaction metadata key selecting a time (an RFC 3339 / ISO 8601 date-time text, a DateTime, or epoch milliseconds). */
export const AS_OF_TIME_KEY = 'graphdb.asOfTime';

const UTC_ENV = {
  now: () => {
    const ms = Date.now();
    return { epochSecond: Math.floor(ms / 1000), nano: (ms % 1000) * 1_000_000 };
  },
  defaultTimeZone: 'UTC',
};

/** A commit version from an integer, an integral float (JavaScript drivers send numbers as floats) or decimal text. */
export function versionValue(value: CypherValue, what: string): bigint {
  if (typeof value === 'bigint') return checkedVersion(value, what);
  if (typeof value === 'number' && Number.isSafeInteger(value)) return checkedVersion(BigInt(value), what);
  if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) return checkedVersion(BigInt(value.trim()), what);
  throw new ArgumentError(`${what} must be a non-negative integer commit version, got ${describe(value)}.`);
}

function checkedVersion(version: bigint, what: string): bigint {
  if (version < 0n) throw new ArgumentError(`${what} must be a non-negative integer commit version, got ${version}.`);
  return version;
}

/** An instant from a DateTime, a LocalDateTime (read as UTC), epoch milliseconds or date-time text. */
export function timeValue(value: CypherValue, what: string): Date {
  if (value instanceof CypherDateTime || value instanceof LocalDateTime) {
    return new Date(Number(value.epochSecond) * 1000 + Math.floor(value.nano / 1_000_000));
  }
  if (typeof value === 'bigint' || (typeof value === 'number' && Number.isSafeInteger(value))) return new Date(Number(value));
  if (typeof value === 'string') {
    let parsed: CypherValue;
    try {
      parsed = temporalFromString('datetime', value.trim(), UTC_ENV);
    } catch {
      throw new ArgumentError(`${what} must be a date-time such as 2026-01-31T12:00:00Z, got ${describe(value)}.`);
    }
    return timeValue(parsed, what);
  }
  throw new ArgumentError(`${what} must be a date-time such as 2026-01-31T12:00:00Z, got ${describe(value)}.`);
}

function describe(value: CypherValue): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null) return 'null';
  return typeof value === 'object' ? (value.constructor?.name ?? 'a map') : String(value);
}

function choose(version: CypherValue | undefined, time: CypherValue | undefined, names: [string, string]): AsOf | undefined {
  if (version !== undefined && version !== null && time !== undefined && time !== null) {
    throw new ArgumentError(`Give either ${names[0]} or ${names[1]}, not both.`);
  }
  if (version !== undefined && version !== null) return { version: versionValue(version, names[0]) };
  if (time !== undefined && time !== null) return { time: timeValue(time, names[1]) };
  return undefined;
}

/** The temporal point requested by transaction metadata, or undefined for a normal transaction. */
export function asOfFromMetadata(metadata: ReadonlyMap<string, CypherValue> | undefined): AsOf | undefined {
  if (metadata === undefined) return undefined;
  return choose(metadata.get(AS_OF_VERSION_KEY), metadata.get(AS_OF_TIME_KEY), [AS_OF_VERSION_KEY, AS_OF_TIME_KEY]);
}

/** The temporal point requested by HTTP header values (absent headers: undefined). */
export function asOfFromHeaders(version: string | undefined, time: string | undefined): AsOf | undefined {
  return choose(version, time, ['X-Graphdb-As-Of-Version', 'X-Graphdb-As-Of-Time']);
}

/** The `AT VERSION` / `AT TIME` part of a statement's leading `USE` clause, or null. */
export function useAtOf(statement: Statement): NonNullable<Use['at']> | null {
  const body = statement.body;
  const first = body.kind === Kind.SingleQuery ? body.clauses[0] : undefined;
  return first?.kind === Kind.Use && first.at !== undefined ? first.at : null;
}

/** The point `USE ... AT` names, from the value its expression evaluated to. */
export function asOfFromUse(at: NonNullable<Use['at']>, value: CypherValue): AsOf {
  return at.kind === 'VERSION' ? { version: versionValue(value, 'AT VERSION') } : { time: timeValue(value, 'AT TIME') };
}

/** A human-readable form of the point, for error messages. */
export function describeAsOf(asOf: AsOf): string {
  return 'version' in asOf ? `version ${asOf.version}` : `time ${asOf.time.toISOString()}`;
}

/**
 * Opens a long reader of `store` as it was at `asOf`. A time maps to the last version committed at
 * or before it (0 before the first commit); a version above the current one is an ArgumentError;
 * below the prune floor, a pruned version of a key reads as not-found.
 */
export function openTemporalReader(store: DatabaseStore, asOf: AsOf): ReadTransaction {
  return 'version' in asOf ? store.readAt(asOf.version) : store.readAtTime(asOf.time);
}

/** The error a write in a temporal transaction or statement fails with. */
export function temporalWriteRefused(asOf: AsOf): GraphError {
  return graphError(
    StatusCodes.ForbiddenDueToTransactionType,
    `Writing in a temporal read (as of ${describeAsOf(asOf)}) is not allowed: it reads the database as it was. Run the write in a transaction without ${AS_OF_VERSION_KEY}/${AS_OF_TIME_KEY} or USE ... AT.`,
  );
}
