import type { LogicalOperator } from './logical-operator.js';

/** Binds `variable` to every node carrying `label`, per input row. */
export interface NodeByLabelScan {
  readonly op: 'NodeByLabelScan';
  readonly input: LogicalOperator;
  readonly variable: string;
  readonly label: string;
}
