import type { PatternPart } from '../../ast/index.js';
import type { LogicalOperator } from './logical-operator.js';

/** Creates the nodes and relationships of `parts` per input row, binding their variables. */
export interface Create {
  readonly op: 'Create';
  readonly input: LogicalOperator;
  readonly parts: readonly PatternPart[];
}
