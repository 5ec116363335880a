import type { Expression } from '../../ast/index.js';
import type { LogicalOperator } from './logical-operator.js';

/** One ORDER BY key. */
export interface SortKey {
  readonly expression: Expression;
  readonly descending: boolean;
}

/** Orders all input rows by `keys` (Cypher's total orderability). */
export interface Sort {
  readonly op: 'Sort';
  readonly input: LogicalOperator;
  readonly keys: readonly SortKey[];
}
