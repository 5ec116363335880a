import type { LogicalOperator } from './logical-operator.js';

/**
 * OPTIONAL MATCH: runs `inner` per input row; when it yields nothing, emits the input row with
 * `introduced` bound to null.
 */
export interface Optional {
  readonly op: 'Optional';
  readonly input: LogicalOperator;
  readonly inner: LogicalOperator;
  readonly introduced: readonly string[];
}
