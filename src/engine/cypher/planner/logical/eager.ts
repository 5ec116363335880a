import type { LogicalOperator } from './logical-operator.js';

/** Pulls every input row before emitting the first, so later writes cannot affect earlier reads. */
export interface Eager {
  readonly op: 'Eager';
  readonly input: LogicalOperator;
}
