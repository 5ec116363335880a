import type { Expression } from '../../ast/index.js';
import type { LogicalOperator } from './logical-operator.js';

/** FOREACH: runs the updating `inner` plan once per list element; passes the input row on. */
export interface Foreach {
  readonly op: 'Foreach';
  readonly input: LogicalOperator;
  readonly variable: string;
  readonly list: Expression;
  readonly inner: LogicalOperator;
}
