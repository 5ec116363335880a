/**
 * Time keeping for one running statement: cooperative time slices, the transaction timeout and
 * termination on request.
 */
import { setImmediate as yieldEventLoop, setTimeout as delay } from 'node:timers/promises';
import { StatusCodes, TransactionTimedOut, graphError } from '../../errors/index.js';

/** How long an operator pipeline may run before it emits a PAUSE. */
export const DEFAULT_SLICE_MS = 8;
/** Operators call `tick()` per row; the clock reads the time only every this many calls. */
const CHECK_EVERY = 64;
/** Longest wait for an asynchronous read before the statement checks timeout and termination. */
const WAIT_SLICE_MS = 100;

/** Shared by every operator of a statement (and the transaction that runs it). */
export class StatementClock {
  private calls = 0;
  private sliceStart = performance.now();
  private terminated: string | null = null;
  private terminatedCode: string = StatusCodes.TransactionTerminated;
  /** A database's max_query_time deadline (`performance.now()` value), Infinity for none. */
  private queryDeadline = Infinity;
  /** An asynchronous read an operator waits for (registered before it emits PAUSE). */
  private waiting: Promise<void> | null = null;

  /**
   * @param deadline `performance.now()` value after which the transaction has timed out
   *   (Infinity for none).
   */
  constructor(
    readonly deadline: number = Infinity,
    private readonly sliceMs: number = DEFAULT_SLICE_MS,
  ) {}

  /** Called by operators per unit of work. True when the current time slice is used up. */
  tick(): boolean {
    if (++this.calls < CHECK_EVERY) return false;
    this.calls = 0;
    this.checkAlive();
    return performance.now() - this.sliceStart >= this.sliceMs;
  }

  /**
   * Registers an asynchronous read the operator needs before it can continue (a network chunk);
   * the operator then emits PAUSE and the consumer awaits it in `yieldTurn`.
   */
  waitFor(read: Promise<void>): void {
    this.waiting = read;
  }

  /** True while a read registered with `waitFor` has not been awaited by the consumer. */
  get waitPending(): boolean {
    return this.waiting !== null;
  }

  /**
   * What the consumer of a statement does on PAUSE: yields the event loop, or awaits the read an
   * operator registered (at most WAIT_SLICE_MS, so timeout and termination are still seen), then
   * starts a new time slice.
   */
  async yieldTurn(): Promise<void> {
    const read = this.waiting;
    this.waiting = null;
    if (read === null) await yieldEventLoop();
    else {
      const timer = new AbortController();
      await Promise.race([read, delay(WAIT_SLICE_MS, undefined, { signal: timer.signal }).catch(() => undefined)]);
      timer.abort();
    }
    this.startSlice();
  }

  /** Starts a new time slice (after the consumer yielded the event loop). */
  startSlice(): void {
    this.sliceStart = performance.now();
  }

  /** Throws when the statement must stop (timeout or termination). */
  checkAlive(): void {
    if (this.terminated !== null) {
      throw graphError(this.terminatedCode, this.terminated);
    }
    const now = performance.now();
    if (now > this.deadline) throw new TransactionTimedOut();
    if (now > this.queryDeadline) {
      throw new TransactionTimedOut("The query has been terminated: it ran longer than its database's max_query_time limit.");
    }
  }

  /** The earlier of the transaction's deadline and the database's max_query_time deadline. */
  get effectiveDeadline(): number {
    return Math.min(this.deadline, this.queryDeadline);
  }

  /** Ends the statement at `deadline` at the latest (a database's max_query_time). */
  limitQueryTime(deadline: number): void {
    this.queryDeadline = Math.min(this.queryDeadline, deadline);
  }

  /**
   * Requests termination; the running statement fails at its next tick with `code` (default
   * `TransactionTerminated`; the MVCC lifecycle's cancellation of a snapshot passes `Outdated`).
   */
  terminate(reason = 'The transaction has been terminated.', code: string = StatusCodes.TransactionTerminated): void {
    this.terminated = reason;
    this.terminatedCode = code;
  }
}
