import type { Expression } from '../../ast/index.js';
import type { LogicalOperator } from './logical-operator.js';

/** Drops the first `count` rows. */
export interface Skip {
  readonly op: 'Skip';
  readonly input: LogicalOperator;
  readonly count: Expression;
}
