/**
 * The buffered channel of one subscription (SPEC "Events" rule 3): an async iterator holding at
 * most `capacity` undelivered events. A consumer already waiting receives an event directly; when
 * the buffer is full, new events are dropped and counted, and the subscription goes on.
 */

/** Default channel size of a subscription. */
export const SUBSCRIPTION_BUFFER = 10;

/** A bounded, dropping event channel readable with `for await`. */
export class BoundedQueue<T> implements AsyncIterableIterator<T> {
  private readonly buffer: T[] = [];
  private waiting: ((result: IteratorResult<T>) => void) | null = null;
  private ended = false;
  /** Events dropped because the buffer was full. */
  dropped = 0;

  constructor(
    private readonly capacity: number = SUBSCRIPTION_BUFFER,
    private readonly onEnd: () => void = () => {},
  ) {}

  /** Offers an event; false when it was dropped (buffer full) or the queue has ended. */
  push(value: T): boolean {
    if (this.ended) return false;
    if (this.waiting !== null) {
      const resolve = this.waiting;
      this.waiting = null;
      resolve({ value, done: false });
      return true;
    }
    if (this.buffer.length >= this.capacity) {
      this.dropped++;
      return false;
    }
    this.buffer.push(value);
    return true;
  }

  next(): Promise<IteratorResult<T>> {
    if (this.buffer.length > 0) return Promise.resolve({ value: this.buffer.shift()!, done: false });
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  return(): Promise<IteratorResult<T>> {
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(error: unknown): Promise<IteratorResult<T>> {
    this.end();
    return Promise.reject(error);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** Ends the stream: buffered events are discarded, a waiting consumer completes. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.buffer.length = 0;
    const resolve = this.waiting;
    this.waiting = null;
    resolve?.({ value: undefined, done: true });
    this.onEnd();
  }
}
