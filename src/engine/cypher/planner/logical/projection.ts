import type { Expression } from '../../ast/index.js';
import type { LogicalOperator } from './logical-operator.js';

/** A named output column. */
export interface NamedExpression {
  readonly name: string;
  readonly expression: Expression;
}

/**
 * Evaluates `items` per row. With `keepInput` the input bindings stay visible (used before
 * ORDER BY on non-projected variables, and for `WITH *`); else the row holds only `items`.
 */
export interface Projection {
  readonly op: 'Projection';
  readonly input: LogicalOperator;
  readonly items: readonly NamedExpression[];
  readonly keepInput: boolean;
}
