/**
 * The single-writer lock of one database (the writer connection): writers queue in FIFO order;
 * a writer that cannot get the lock within its timeout fails with WriteConflict (a
 * TransientError, so drivers retry). An explicit transaction between two statements holds the
 * lock only until someone else asks for it: it offers to park (`offerPark`). A writer that finds
 * the lock held gives the holder a grace of PARK_GRACE_MS (a client that answers within it keeps
 * its SQLite transaction and its write set need not be applied again); then an idle holder is
 * parked at once, a working one as soon as its statement ends (its SQLite transaction is rolled
 * back, its write set kept; see storage/write-set.ts). So nobody waits on another client's round
 * trip for longer than the grace.
 */
import { WriteConflict } from '../errors/index.js';

/** How long a writer lets an idle holder come back before parking it (ms). */
export const PARK_GRACE_MS = 2;

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
  /** The grace of the current holder is over: it parks as soon as it is idle. */
  private parkDue = false;
  private parkTimer: NodeJS.Timeout | null = null;

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
    if (this.parkDue) park();
    else this.parkHolder = park;
  }

  /** Withdraws an offer made with `offerPark` (the holder works again). */
  withdrawPark(park: () => void): void {
    if (this.parkHolder === park) this.parkHolder = null;
  }

  /** Takes the lock without waiting; false if it is held (the holder is then asked to park after its grace). */
  tryAcquire(): boolean {
    if (this.held) {
      this.requestPark();
      return false;
    }
    this.held = true;
    return true;
  }

  /** Starts the holder's grace; when it ends, the holder parks now (idle) or at its next idle moment. */
  private requestPark(): void {
    if (this.parkDue || this.parkTimer !== null) return;
    this.parkTimer = setTimeout(() => {
      this.parkTimer = null;
      this.parkDue = true;
      const park = this.parkHolder;
      this.parkHolder = null;
      if (park !== null && this.held) park();
    }, PARK_GRACE_MS);
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
    this.parkDue = false;
    if (this.parkTimer !== null) clearTimeout(this.parkTimer);
    this.parkTimer = null;
    const next = this.waiters.shift();
    if (next === undefined) this.held = false;
    else {
      next.grant();
      if (this.waiters.length > 0) this.requestPark();
    }
  }
}
