/**
 * Enforcement of per-database limits: storage limits are checked when a write transaction
 * commits (a failure rolls the whole transaction back), query limits when a statement starts
 * (max_concurrent_queries) and while it runs (max_query_time, through the statement clock).
 */
import { ClientError, StatusCodes, TransientError } from '../errors/index.js';
import type { DatabaseLimits } from './limit-catalog.js';

/** What a committing transaction knows about its database's size. */
export interface CommitFigures {
  readonly nodeDelta: number;
  readonly relDelta: number;
  /** Committed node count before this transaction. */
  committedNodes(): number;
  /** Committed relationship count before this transaction. */
  committedRelationships(): number;
  /** Bytes on disk now (database file and WAL). */
  diskBytes(): number;
}

function reached(database: string, what: string, limit: number, after: number): ClientError {
  return new ClientError(
    StatusCodes.DatabaseLimitReached,
    `The transaction was rolled back: it would bring database '${database}' to ${after} ${what}, over its limit of ${limit} (ALTER DATABASE ... SET LIMIT).`,
  );
}

/** Throws DatabaseLimitReached when the commit would exceed a storage limit; shrinking commits always pass. */
export function enforceStorageLimits(database: string, limits: DatabaseLimits, figures: CommitFigures): void {
  if (limits.max_nodes !== undefined && figures.nodeDelta > 0) {
    const after = figures.committedNodes() + figures.nodeDelta;
    if (after > limits.max_nodes) throw reached(database, 'nodes', limits.max_nodes, after);
  }
  if (limits.max_relationships !== undefined && figures.relDelta > 0) {
    const after = figures.committedRelationships() + figures.relDelta;
    if (after > limits.max_relationships) throw reached(database, 'relationships', limits.max_relationships, after);
  }
  if (limits.max_storage_bytes !== undefined && (figures.nodeDelta > 0 || figures.relDelta > 0)) {
    const bytes = figures.diskBytes();
    if (bytes > limits.max_storage_bytes) {
      throw new ClientError(
        StatusCodes.DatabaseLimitReached,
        `The transaction was rolled back: database '${database}' uses ${bytes} bytes on disk, over its max_storage_bytes limit of ${limits.max_storage_bytes}.`,
      );
    }
  }
}

/**
 * Counts the statements running per database and admits new ones under max_concurrent_queries.
 * A database's count stays in the map at zero when its last statement ends: deleting the last
 * entry makes V8 shrink (reallocate) the map, which cost every statement about a microsecond.
 */
export class QueryAdmission {
  private readonly running = new Map<string, number>();

  /**
   * Admits a statement on `database` (throws a transient ResourceExhaustion error when the
   * database already runs `max_concurrent_queries` statements). Returns the release function
   * (idempotent), to call when the statement ends.
   */
  admit(database: string, limits: DatabaseLimits): () => void {
    const current = this.running.get(database) ?? 0;
    const max = limits.max_concurrent_queries;
    if (max !== undefined && current >= max) {
      throw new TransientError(
        StatusCodes.ResourceExhaustion,
        `Database '${database}' is already running ${current} queries, its max_concurrent_queries limit; retry later.`,
      );
    }
    this.running.set(database, current + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running.set(database, Math.max(0, (this.running.get(database) ?? 1) - 1));
    };
  }

  /** Statements running on `database` now. */
  runningOn(database: string): number {
    return this.running.get(database) ?? 0;
  }
}

/** The part of a statement clock query limits use. */
export interface LimitableClock {
  limitQueryTime(deadline: number): void;
}

/**
 * Admits a statement on `database` under `limits`: max_concurrent_queries through `admission`,
 * max_query_time as a deadline on `clock`. Returns the release function.
 */
export function admitUnderLimits(admission: QueryAdmission, database: string, limits: DatabaseLimits, clock: LimitableClock): () => void {
  if (limits.max_query_time !== undefined) clock.limitQueryTime(performance.now() + limits.max_query_time);
  return admission.admit(database, limits);
}
