import type { LogicalOperator } from './logical-operator.js';

/** The root of a query that returns rows: the result columns, in order. */
export interface ProduceResults {
  readonly op: 'ProduceResults';
  readonly input: LogicalOperator;
  readonly columns: readonly string[];
}
