import type { LogicalOperator } from './logical-operator.js';

/** The root of an updating query without RETURN: consumes all rows, emits none. */
export interface EmptyResult {
  readonly op: 'EmptyResult';
  readonly input: LogicalOperator;
}
