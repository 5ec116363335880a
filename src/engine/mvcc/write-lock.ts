/**
 * The single-writer lock of one database (the writer connection): writers queue in FIFO order;
 * a writer that cannot get the lock within its timeout fails with WriteConflict (a
 * TransientError, so drivers retry). An explicit transaction between two statements holds the
 * lock only until someone else asks for it: it offers to park (`offerPark`), and the next
 * writer's acquire parks it at once (its SQLite transaction is rolled back, its write set kept;
 * see storage/write-set.ts). Nobody waits on another client's round trip.
 */
import { WriteConflict } from '../errors/index.js';

interface Waiter {
  readonly grant: () => void;
  readonly fail: (error: Error) => void;
  readonly timer: NodeJS.Timeout | null;
}

/** An asynchronous FIFO mutex with per-acquire timeouts. */
export class WriteLock {
  private held = false;
  private readonly waiters: Waiter[] = [];
  /** Gives the lock up on behalf of an idle holder, or null while the holder is working. */
  private parkHolder: (() => void) | null = null;

  constructor(private readonly databaseName: string) {}

  /** Number of writers waiting. */
  get queueLength(): number {
    return this.waiters.length;
  }

  get isHeld(): boolean {
    return this.held;
  }

  /**
   * The holder is idle (between statements of an explicit transaction): `park` releases the lock
   * (synchronously, through `release`). Runs it at once when a writer is already waiting.
   */
  offerPark(park: () => void): void {
    if (this.waiters.length > 0) park();
    else this.parkHolder = park;
  }

  /** Withdraws an offer made with `offerPark` (the holder works again). */
  withdrawPark(park: () => void): void {
    if (this.parkHolder === park) this.parkHolder = null;
  }

  /** Takes the lock without waiting (parking an idle holder first); false if it is held. */
  tryAcquire(): boolean {
    const park = this.parkHolder;
    if (this.held && park !== null) {
      this.parkHolder = null;
      park();
    }
    if (this.held) return false;
    this.held = true;
    return true;
  }

  /** Resolves once the lock is held; rejects with WriteConflict after `timeoutMs`. */
  acquire(timeoutMs: number): Promise<void> {
    if (this.tryAcquire()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          if (waiter.timer !== null) clearTimeout(waiter.timer);
          resolve();
        },
        fail: (error) => {
          if (waiter.timer !== null) clearTimeout(waiter.timer);
          reject(error);
        },
        timer:
          timeoutMs === Infinity
            ? null
            : setTimeout(() => {
                const index = this.waiters.indexOf(waiter);
                if (index >= 0) this.waiters.splice(index, 1);
                reject(
                  new WriteConflict(
                    `Could not acquire the write lock of database '${this.databaseName}' within ${timeoutMs} ms: another transaction is writing. Retry the transaction.`,
                  ),
                );
              }, timeoutMs),
      };
      this.waiters.push(waiter);
    });
  }

  /** Fails every waiting writer (the database is closing). */
  rejectWaiters(error: Error): void {
    for (const waiter of this.waiters.splice(0)) waiter.fail(error);
  }

  /** Hands the lock to the next waiter, or frees it. */
  release(): void {
    this.parkHolder = null;
    const next = this.waiters.shift();
    if (next === undefined) this.held = false;
    else next.grant();
  }
}
