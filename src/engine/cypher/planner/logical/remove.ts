import type { RemoveItem } from '../../ast/index.js';
import type { LogicalOperator } from './logical-operator.js';

/** REMOVE of properties and labels. */
export interface Remove {
  readonly op: 'Remove';
  readonly input: LogicalOperator;
  readonly items: readonly RemoveItem[];
}
