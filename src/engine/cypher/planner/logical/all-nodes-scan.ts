import type { LogicalOperator } from './logical-operator.js';

/** Binds `variable` to every node, per input row. */
export interface AllNodesScan {
  readonly op: 'AllNodesScan';
  readonly input: LogicalOperator;
  readonly variable: string;
}
