import type { Expression } from '../../ast/index.js';
import type { LogicalOperator } from './logical-operator.js';

/** One output row per element of `expression`'s list, binding `variable`. */
export interface Unwind {
  readonly op: 'Unwind';
  readonly input: LogicalOperator;
  readonly expression: Expression;
  readonly variable: string;
}
