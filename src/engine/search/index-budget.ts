/**
 * The heap budget of the search indexes (`dbms.memory.search_index.max_size`), shared by the
 * search services of every database of a process: the automatic full-text index of each database
 * and every named FULLTEXT/VECTOR index report their estimated bytes as they grow; the first
 * report that takes the total past the budget puts that index over budget: it is released
 * (docs/robustness.md, "Search-index heap").
 */
import { StatusCodes, TransientError } from '../errors/index.js';

/** The setting that bounds the indexes, as errors and `/status` name it. */
export const SEARCH_INDEX_SETTING = 'dbms.memory.search_index.max_size';

/** Estimated bytes of every search index of the process against one bound. */
export class SearchIndexBudget {
  private readonly used = new Map<string, number>();
  private total = 0;

  constructor(readonly maxBytes: number) {}

  /** Estimated bytes of every database's index together. */
  get usedBytes(): number {
    return this.total;
  }

  /**
   * Records the estimate of index `key` (a database name for its automatic index, `namedIndexKey`
   * for a named one); false when the total is then over the budget.
   */
  update(key: string, bytes: number): boolean {
    this.total += bytes - (this.used.get(key) ?? 0);
    this.used.set(key, bytes);
    return this.total <= this.maxBytes;
  }

  /** Forgets an index (its database dropped, the index dropped, or released). */
  forget(key: string): void {
    this.total -= this.used.get(key) ?? 0;
    this.used.delete(key);
  }
}

/** The error a search answers while its database's index is over budget. */
export function indexOverBudget(database: string, maxBytes: number): TransientError {
  const mib = (maxBytes / 1024 / 1024).toFixed(1);
  return new TransientError(
    StatusCodes.ResourcePressure,
    `The full-text search index of database '${database}' was released: it needed more than the ${mib} MiB that ${SEARCH_INDEX_SETTING} allows for the search indexes of all databases. Raise ${SEARCH_INDEX_SETTING} (and the heap limit, --max-old-space-size) and restart the server to search this database.`,
  );
}

/** The budget key of the named index `name` of `database` (no database name holds a NUL). */
export function namedIndexKey(database: string, name: string): string {
  return `${database}\u0000${name}`;
}

/**
 * Why a named FULLTEXT/VECTOR index was released (its `SHOW INDEXES` failure message, and the
 * message of the error its queries answer).
 */
export function namedIndexOverBudgetMessage(name: string, maxBytes: number): string {
  const mib = (maxBytes / 1024 / 1024).toFixed(1);
  return `Index '${name}' was not kept: populating it needed more than the ${mib} MiB that ${SEARCH_INDEX_SETTING} allows for all search indexes. Raise ${SEARCH_INDEX_SETTING} (and the heap limit, --max-old-space-size) and restart the server, or drop the index.`;
}

/** The error a query of a named index answers once it was released. */
export function namedIndexOverBudget(message: string): TransientError {
  return new TransientError(StatusCodes.ResourcePressure, message);
}
