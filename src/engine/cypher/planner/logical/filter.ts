import type { Expression } from '../../ast/index.js';
import type { LogicalOperator } from './logical-operator.js';

/** Keeps rows for which `predicate` is true (null and false drop the row). */
export interface Filter {
  readonly op: 'Filter';
  readonly input: LogicalOperator;
  readonly predicate: Expression;
}
