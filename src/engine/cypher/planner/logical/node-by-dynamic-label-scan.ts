import type { Expression } from '../../ast/index.js';
import type { LogicalOperator } from './logical-operator.js';

/**
 * Binds `variable` to the nodes carrying the labels a dynamic label (`:$(expr)`) gives for each
 * input row: the nodes of the first label for `$(...)`/`$all(...)` (the full label check stays a
 * filter above), the union over the labels for `$any(...)`.
 */
export interface NodeByDynamicLabelScan {
  readonly op: 'NodeByDynamicLabelScan';
  readonly input: LogicalOperator;
  readonly variable: string;
  readonly labels: Expression;
  readonly any: boolean;
}
