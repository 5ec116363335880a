import type { Expression } from '../../ast/index.js';
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
}
