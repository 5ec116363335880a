/**
 * The statement clock of a session's statements. Besides the per-row checks of StatementClock,
 * it checks for timeout and termination whenever a statement resumes after yielding the event
 * loop, so a statement whose transaction was terminated while it waited for its next time slice
 * fails before touching storage again (the termination then releases the storage safely).
 */
import { StatementClock } from '../cypher/runtime/statement-clock.js';

/** StatementClock that also checks at every new time slice. */
export class TransactionClock extends StatementClock {
  override startSlice(): void {
    super.startSlice();
    this.checkAlive();
  }
}

/**
 * Runs `release` once the current turn's pending resumptions have run: a statement suspended at
 * a time-slice yield resumes first and fails through its own error path; `release` then finds it
 * finished and only cleans up what is left.
 */
export function afterPendingSlices(release: () => void | Promise<void>): void {
  setImmediate(
    () =>
      void Promise.resolve()
        .then(release)
        .catch(() => undefined),
  );
}
