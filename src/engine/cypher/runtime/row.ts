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

/**
 * A mutable copy of `row`. Copies go through Object.assign rather than object spread: V8 gives a
 * spread copy a map of its own, so every key added to it afterwards builds a new map (measured
 * here: about 5 µs per row with spread versus 0.15 µs this way).
 */
export function copyRow(row: Row): Record<string, CypherValue> {
  return Object.assign({}, row);
}

/** A copy of `row` with `name` bound to `value`. */
export function extendRow(row: Row, name: string, value: CypherValue): Row {
  const out = copyRow(row);
  out[name] = value;
  return out;
}

/** A copy of `row` with two more bindings (in this order). */
export function extendRow2(row: Row, name1: string, value1: CypherValue, name2: string, value2: CypherValue): Row {
  const out = copyRow(row);
  out[name1] = value1;
  out[name2] = value2;
  return out;
}

/** A copy of `row` with three more bindings (in this order). */
export function extendRow3(
  row: Row,
  name1: string,
  value1: CypherValue,
  name2: string,
  value2: CypherValue,
  name3: string,
  value3: CypherValue,
): Row {
  const out = copyRow(row);
  out[name1] = value1;
  out[name2] = value2;
  out[name3] = value3;
  return out;
}
