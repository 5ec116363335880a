/**
 * The search result cache: at most 1,000 entries, each valid for 5 minutes, least recently used
 * evicted first; cleared whenever nodes are indexed or removed.
 */

/** Everything that makes two searches return the same page (the cache key of docs/search.md). */
export interface SearchCacheKey {
  readonly query: string;
  readonly limit: number;
  readonly types: readonly string[];
  readonly rerank: string;
  readonly mmr: boolean;
  /** Other request fields that change results (labels, min similarity, method). */
  readonly extra?: string;
}

/** LRU + TTL cache of search results. */
export class SearchResultCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();
  hits = 0;
  misses = 0;

  constructor(
    readonly capacity = 1000,
    readonly ttlMs = 5 * 60 * 1000,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  static keyOf(key: SearchCacheKey): string {
    return JSON.stringify([key.query, key.limit, [...key.types].sort(), key.rerank, key.mmr, key.extra ?? '']);
  }

  get(key: SearchCacheKey): V | undefined {
    const text = SearchResultCache.keyOf(key);
    const entry = this.entries.get(text);
    if (entry === undefined || entry.expires <= this.now()) {
      if (entry !== undefined) this.entries.delete(text);
      this.misses++;
      return undefined;
    }
    this.entries.delete(text);
    this.entries.set(text, entry);
    this.hits++;
    return entry.value;
  }

  set(key: SearchCacheKey, value: V): void {
    const text = SearchResultCache.keyOf(key);
    this.entries.delete(text);
    this.entries.set(text, { value, expires: this.now() + this.ttlMs });
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
  }

  /** Drops everything (nodes were indexed or removed). */
  invalidate(): void {
    this.entries.clear();
  }
}
