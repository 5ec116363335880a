/**
 * The write side of an explicit transaction: its write set, the SQLite write transaction that
 * holds the set while a statement runs or the transaction commits, and its entity locks.
 *
 * - The first updating statement creates the write set. Every statement from then on runs on
 *   the writer connection with the set applied, so it reads its own writes.
 * - Between statements the transaction offers to park: the next writer of the database rolls
 *   its SQLite transaction back at once and proceeds; the set is applied again (same ids, same
 *   order) before this transaction's next statement or at commit.
 * - A write to an entity another transaction holds undoes the statement, releases the writer
 *   connection, waits for the entity lock and runs the statement again on the latest state.
 *
 * See docs/transactions.md for the isolation this gives.
 */
import { setImmediate as yieldEventLoop } from 'node:timers/promises';
import { StatusCodes, TransactionTimedOut, graphError } from '../errors/index.js';
import type { DatabaseStore } from '../storage/database-store.js';
import type { WriteTransaction } from '../storage/write-transaction.js';
import { WriteSet, type WriteSetMark } from '../storage/write-set.js';
import { LockOwner } from '../mvcc/entity-locks.js';
import type { StatementClock } from '../cypher/runtime/statement-clock.js';
import type { TransactionHandle } from './transaction-registry.js';

/** Limits of one transaction's writes. */
export interface WriteLimits {
  /** `performance.now()` deadline of the transaction (Infinity for none). */
  readonly deadline: number;
  /** Longest wait for an entity lock in ms (Infinity: no limit). */
  readonly lockTimeoutMs: number;
  /** Bytes the write set may hold. */
  readonly maxWriteSetBytes: number;
}

/** The bounded wait of an entity lock or the writer connection: the shorter of `limitMs` and the rest of the transaction. */
export function boundedWait(limitMs: number, deadline: number): number {
  return Math.max(0, Math.min(limitMs, deadline - performance.now()));
}

/** Waits for an entity lock for `owner`, bounded by the lock timeout and the transaction deadline. */
export async function waitForEntityLock(
  store: DatabaseStore,
  owner: LockOwner,
  key: string,
  limits: Pick<WriteLimits, 'deadline' | 'lockTimeoutMs'>,
  handle: TransactionHandle,
  onCancel?: (cancel: (error: Error) => void) => void,
): Promise<void> {
  handle.blocked(true);
  try {
    await store.entityLocks.acquire(owner, key, boundedWait(limits.lockTimeoutMs, limits.deadline), onCancel);
  } catch (error) {
    if (performance.now() >= limits.deadline) throw new TransactionTimedOut();
    throw error;
  } finally {
    handle.blocked(false);
  }
}

/** The write set and writer of one explicit transaction. */
export class TransactionWrites {
  readonly set: WriteSet;
  private live: WriteTransaction | null = null;
  private readonly park = (): void => this.parkNow();

  constructor(
    private readonly store: DatabaseStore,
    private readonly handle: TransactionHandle,
    private readonly limits: WriteLimits,
  ) {
    this.set = new WriteSet(store.entityLocks, new LockOwner(handle.id), limits.maxWriteSetBytes);
  }

  /** The writer while the set is applied (during a statement or the commit), else null. */
  get writer(): WriteTransaction | null {
    return this.live;
  }

  /**
   * Makes the set live on the writer connection: waits for the connection (never for another
   * client: idle holders park), then applies the set again if it was parked.
   */
  async activate(clock: StatementClock, stillOpen: () => boolean): Promise<WriteTransaction> {
    this.store.withdrawPark(this.park);
    if (this.live !== null) return this.live;
    const limits = this.limits;
    this.handle.blocked(true);
    let writer: WriteTransaction;
    try {
      writer = await this.store.beginWrite({ timeoutMs: boundedWait(this.store.writeLockTimeoutMs, limits.deadline) });
    } catch (error) {
      if (performance.now() >= limits.deadline) throw new TransactionTimedOut();
      throw error;
    } finally {
      this.handle.blocked(false);
    }
    if (!stillOpen()) {
      writer.rollback();
      clock.checkAlive();
      throw graphError(StatusCodes.TransactionNotFound, 'The transaction was closed while waiting for the write lock.');
    }
    writer.guard = this.set;
    writer.origin = this.handle.origin;
    this.live = writer;
    this.handle.lockTaken();
    try {
      await this.set.applyTo(writer, async () => {
        await yieldEventLoop();
        clock.checkAlive();
      });
    } catch (error) {
      this.parkNow();
      throw error;
    }
    return writer;
  }

  /** Where the running statement started (to undo it before a lock wait). */
  mark(): WriteSetMark {
    return this.set.mark();
  }

  /**
   * Undoes the running statement (rolls the SQLite transaction back, forgets the statement's
   * writes), waits for the entity lock `key` without holding the writer connection; the caller
   * then runs the statement again.
   */
  async waitForLock(key: string, mark: WriteSetMark, onCancel: (cancel: (error: Error) => void) => void): Promise<void> {
    this.parkNow();
    this.set.undoTo(mark);
    await waitForEntityLock(this.store, this.set.owner, key, this.limits, this.handle, onCancel);
  }

  /** Between statements: the next writer of the database may park this transaction. */
  idle(): void {
    const writer = this.live;
    if (writer === null) return;
    if (writer.schemaChanged) return; // schema changes keep the writer connection until commit
    this.store.offerPark(this.park);
  }

  /** Commits the set (applied again if parked) and releases the entity locks; returns the version. */
  async commit(clock: StatementClock, stillOpen: () => boolean): Promise<bigint> {
    try {
      const writer = await this.activate(clock, stillOpen);
      this.live = null;
      return await this.store.commitWrite(writer);
    } finally {
      this.set.release();
    }
  }

  /** Drops everything: the SQLite transaction, the set's locks. */
  rollback(): void {
    this.parkNow();
    this.set.release();
  }

  private parkNow(): void {
    this.store.withdrawPark(this.park);
    const writer = this.live;
    this.live = null;
    if (writer !== null && writer.isOpen) {
      writer.reserveIdsOnRollback = true;
      writer.rollback();
    }
  }
}
