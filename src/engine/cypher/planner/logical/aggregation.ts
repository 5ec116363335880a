import type { Expression } from '../../ast/index.js';
import type { LogicalOperator } from './logical-operator.js';
import type { NamedExpression } from './projection.js';

/** One aggregate function call, bound to a generated column. */
export interface AggregateItem {
  readonly name: string;
  /** A `FunctionCall` of an aggregate function, or `count(*)`. */
  readonly call: Expression;
}

/**
 * Groups rows by `groupings` and evaluates each aggregate per group. The planner rewrites
 * `count(*) + 1` into an Aggregation followed by a Projection over the generated columns.
 */
export interface Aggregation {
  readonly op: 'Aggregation';
  readonly input: LogicalOperator;
  readonly groupings: readonly NamedExpression[];
  readonly aggregates: readonly AggregateItem[];
}
