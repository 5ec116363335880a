/**
 * Rows flowing between physical operators.
 *
 * Terminology:
 * - A *row* maps variable names (user variables and planner-generated `  anon_n` names) to values.
 *   Rows are immutable: an operator that binds a variable spreads the row into a new object.
 * - `PAUSE` is a marker an operator emits when its time slice is used up. Every operator passes
 *   signals (PAUSE, COMMIT) straight through to its parent, so the result stream can yield the
 *   event loop (cooperative scheduling) even in the middle of a long scan or aggregation.
 */
import type { CypherValue } from '../../values/types.js';

/** One binding table row. */
export type Row = Readonly<Record<string, CypherValue>>;

/** The marker an operator emits to let the consumer yield the event loop. */
export const PAUSE: unique symbol = Symbol('PAUSE');

/**
 * The marker `CALL { } IN TRANSACTIONS` emits after each batch: the statement runner commits
 * the current transaction and continues in a new one before pulling again.
 */
export const COMMIT: unique symbol = Symbol('COMMIT');

/** A marker for the consumer, passed through unchanged by every operator. */
export type Signal = typeof PAUSE | typeof COMMIT;

/** What an operator produces: rows, interleaved with signals. */
export type Emission = Row | Signal;

/** True for PAUSE and COMMIT (anything that is not a row). */
export function isSignal(emission: Emission): emission is Signal {
  return typeof emission === 'symbol';
}

/** A lazily produced stream of rows. */
export type RowStream = Generator<Emission, void, undefined>;

/** The empty row (the single input of a query's first clause). */
export const EMPTY_ROW: Row = Object.freeze({});
