/**
 * Time keeping for one running statement: cooperative time slices, the transaction timeout and
 * termination on request.
 */
import { GraphError, StatusCodes, TransactionTimedOut } from '../../errors/index.js';

/** How long an operator pipeline may run before it emits a PAUSE. */
export const DEFAULT_SLICE_MS = 8;
/** Operators call `tick()` per row; the clock reads the time only every this many calls. */
const CHECK_EVERY = 64;

/** Shared by every operator of a statement (and the transaction that runs it). */
export class StatementClock {
  private calls = 0;
  private sliceStart = performance.now();
  private terminated: string | null = null;
  /** A database's max_query_time deadline (`performance.now()` value), Infinity for none. */
  private queryDeadline = Infinity;

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

  /** Starts a new time slice (after the consumer yielded the event loop). */
  startSlice(): void {
    this.sliceStart = performance.now();
  }

  /** Throws when the statement must stop (timeout or termination). */
  checkAlive(): void {
    if (this.terminated !== null) {
      throw new GraphError(StatusCodes.TransactionTerminated, this.terminated);
    }
    const now = performance.now();
    if (now > this.deadline) throw new TransactionTimedOut();
    if (now > this.queryDeadline) {
      throw new TransactionTimedOut('The query has been terminated: it ran longer than its database\'s max_query_time limit.');
    }
  }

  /** Ends the statement at `deadline` at the latest (a database's max_query_time). */
  limitQueryTime(deadline: number): void {
    this.queryDeadline = Math.min(this.queryDeadline, deadline);
  }

  /** Requests termination; the running statement fails at its next tick. */
  terminate(reason = 'The transaction has been terminated.'): void {
    this.terminated = reason;
  }
}
