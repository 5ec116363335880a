import type { LogicalOperator } from './logical-operator.js';

/** Rows of `left` then `right`; without `all`, duplicates (on `columns`) are removed. */
export interface Union {
  readonly op: 'Union';
  readonly left: LogicalOperator;
  readonly right: LogicalOperator;
  readonly all: boolean;
  readonly columns: readonly string[];
}
