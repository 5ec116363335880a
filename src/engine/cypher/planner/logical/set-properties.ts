import type { SetItem } from '../../ast/index.js';
import type { LogicalOperator } from './logical-operator.js';

/** SET: evaluates every right-hand side of the clause first, then applies the items in order. */
export interface SetProperties {
  readonly op: 'SetProperties';
  readonly input: LogicalOperator;
  readonly items: readonly SetItem[];
}
