/**
 * A byte budget for mercurius's document caches. mercurius keeps every document it parsed and
 * validated (and later its graphql-jit compiled form) in a least-recently-used cache that counts
 * entries, not bytes, and keeps failed documents in a second one: 240 distinct large documents
 * retained about 18 MiB each. This budget mirrors what mercurius caches (every document that
 * reaches it: the successful ones and the failed ones alike, so it errs on the high side) with an
 * estimate of the bytes each holds; when admitting the next document would pass the budget, both
 * caches are cleared through mercurius's public `replaceSchema` (with the same schema) before
 * the document is handled. So the caches never hold more than the budget plus the document being
 * handled (itself bounded by `server.body_limit`).
 */

/**
 * Heap bytes a cached document holds per character of its text (the syntax tree with its token
 * locations, validation and the graphql-jit compiled form) and per entry: measured on
 * documents of 100 to 400,000 characters (test/robustness/cache-bytes.test.ts checks that the
 * server's heap stays under the budget).
 */
const BYTES_PER_CHARACTER = 96;
const BYTES_PER_ENTRY = 16 * 1024;

/** Estimated heap bytes mercurius retains for a cached document of `source`. */
export function documentBytes(source: string): number {
  return BYTES_PER_ENTRY + source.length * BYTES_PER_CHARACTER;
}

/** Tracks the estimated bytes of mercurius's cached documents and clears the caches past a budget. */
export class DocumentCacheBudget {
  /** The documents accounted for, least recently used first, with their estimated bytes. */
  private readonly held = new Map<string, number>();
  private heldBytes = 0;
  private clears = 0;

  /**
   * @param maxBytes the budget (`dbms.memory.graphql_cache.max_size`)
   * @param clearCaches empties mercurius's caches
   */
  constructor(
    readonly maxBytes: number,
    private readonly clearCaches: () => void,
  ) {}

  /** Accounts for `source` before mercurius handles it, clearing the caches first when it would not fit. */
  admit(source: string): void {
    const known = this.held.get(source);
    if (known !== undefined) {
      this.held.delete(source);
      this.held.set(source, known);
      return;
    }
    const bytes = documentBytes(source);
    if (this.heldBytes + bytes > this.maxBytes && this.held.size > 0) {
      this.clearCaches();
      this.held.clear();
      this.heldBytes = 0;
      this.clears++;
    }
    this.held.set(source, bytes);
    this.heldBytes += bytes;
  }

  /** Estimated bytes the caches hold, entries accounted for and how often they were cleared. */
  get stats(): { readonly bytes: number; readonly maxBytes: number; readonly documents: number; readonly clears: number } {
    return { bytes: this.heldBytes, maxBytes: this.maxBytes, documents: this.held.size, clears: this.clears };
  }
}
