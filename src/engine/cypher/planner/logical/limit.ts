import type { Expression } from '../../ast/index.js';
import type { LogicalOperator } from './logical-operator.js';

/**
 * Passes at most `count` rows, then stops pulling its input, unless `exhaustInput` is set
 * (the input contains writes, which must all happen whatever the limit).
 */
export interface Limit {
  readonly op: 'Limit';
  readonly input: LogicalOperator;
  readonly count: Expression;
  readonly exhaustInput: boolean;
}
