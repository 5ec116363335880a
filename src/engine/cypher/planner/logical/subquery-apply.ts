import type { Expression, Query } from '../../ast/index.js';
import type { LogicalOperator } from './logical-operator.js';

/**
 * `CALL { ... }`: runs `inner` per input row and joins its rows to the input row. A unit
 * subquery (`returns` empty) passes each input row once, after running `inner` for effect.
 * `batchSize` is set for `IN TRANSACTIONS OF n ROWS`.
 */
export interface SubqueryApply {
  readonly op: 'SubqueryApply';
  readonly input: LogicalOperator;
  readonly inner: LogicalOperator;
  readonly returns: readonly string[];
  readonly optional: boolean;
  readonly batchSize: Expression | null;
  /**
   * Set when the subquery starts with `USE graph`: on a composite database the runtime plans
   * `query` against the constituent `expression` names (per row) and runs it there; elsewhere
   * `inner` runs on the statement's own database.
   */
  readonly graph?: GraphSelection;
}

/** The constituent graph a subquery or UNION part runs on (composite databases). */
export interface GraphSelection {
  readonly expression: Expression;
  readonly query: Query;
  /** The variables of the outer scope the subquery sees. */
  readonly scope: readonly string[];
  readonly writes: boolean;
}
