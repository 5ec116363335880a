/**
 * A per-operation batcher for N+1 lookups: every `load(key)` made in the same tick is answered by
 * one call of the batch function (one read transaction for all nodes a query level touches).
 * Equal keys share the pending load; nothing is kept once a batch is answered, so a long-lived
 * subscription context never serves stale entities or grows.
 */

/** Answers a batch of keys with one value per key, in order. */
export type BatchFunction<K, V> = (keys: readonly K[]) => V[] | Promise<V[]>;

/** Collects keys until the current tick's microtasks ran, then loads them together. */
export class BatchLoader<K, V> {
  private pending: { key: K; resolve: (value: V) => void; reject: (error: unknown) => void }[] = [];
  private readonly inFlight = new Map<string, Promise<V>>();
  /** Number of batch calls made (for tests and diagnostics). */
  batches = 0;

  constructor(
    private readonly batch: BatchFunction<K, V>,
    private readonly cacheKey: (key: K) => string,
  ) {}

  /** The value of `key`, loaded together with the other keys requested in this tick. */
  load(key: K): Promise<V> {
    const cacheKey = this.cacheKey(key);
    const pending = this.inFlight.get(cacheKey);
    if (pending !== undefined) return pending;
    const promise = new Promise<V>((resolve, reject) => {
      this.pending.push({ key, resolve, reject });
      if (this.pending.length === 1) setImmediate(() => void this.dispatch());
    });
    this.inFlight.set(cacheKey, promise);
    return promise;
  }

  private async dispatch(): Promise<void> {
    const requests = this.pending;
    this.pending = [];
    this.inFlight.clear();
    this.batches++;
    try {
      const values = await this.batch(requests.map((request) => request.key));
      requests.forEach((request, index) => request.resolve(values[index] as V));
    } catch (error) {
      for (const request of requests) request.reject(error);
    }
  }
}
