/**
 * The heap budget of the automatic full-text indexes (`dbms.memory.search_index.max_size`),
 * shared by the search services of every database of a process: each database reports its
 * index's estimated bytes as it grows; the first report that takes the total past the budget
 * puts that database's index over budget (docs/robustness.md, "Search-index heap").
 */
import { StatusCodes, TransientError } from '../errors/index.js';

/** The setting that bounds the indexes, as errors and `/status` name it. */
export const SEARCH_INDEX_SETTING = 'dbms.memory.search_index.max_size';

/** Estimated bytes of every database's index against one bound. */
export class SearchIndexBudget {
  private readonly used = new Map<string, number>();
  private total = 0;

  constructor(readonly maxBytes: number) {}

  /** Estimated bytes of every database's index together. */
  get usedBytes(): number {
    return this.total;
  }

  /** Records `database`'s estimate; false when the total is then over the budget. */
  update(database: string, bytes: number): boolean {
    this.total += bytes - (this.used.get(database) ?? 0);
    this.used.set(database, bytes);
    return this.total <= this.maxBytes;
  }

  /** Forgets a database (dropped, or its index released). */
  forget(database: string): void {
    this.total -= this.used.get(database) ?? 0;
    this.used.delete(database);
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
