import type { LogicalOperator } from './logical-operator.js';

/** Drops rows equivalent (on `columns`) to an earlier row. */
export interface Distinct {
  readonly op: 'Distinct';
  readonly input: LogicalOperator;
  readonly columns: readonly string[];
}
