import type { Expression } from '../../ast/index.js';
import type { LogicalOperator } from './logical-operator.js';

/** DELETE / DETACH DELETE of the nodes, relationships or paths the expressions yield. */
export interface Delete {
  readonly op: 'Delete';
  readonly input: LogicalOperator;
  readonly expressions: readonly Expression[];
  readonly detach: boolean;
}
