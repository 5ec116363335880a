/**
 * Generic traversal of logical plans: the child slots of each operator and a rebuild helper
 * used by the rewrite passes and the plan printer.
 */
import type { LogicalOperator } from './logical/logical-operator.js';

/** Names of the fields holding child plans, per operator. */
const CHILD_SLOTS = ['input', 'inner', 'match', 'left', 'right'] as const;

/** True for a child plan (slots such as `left` also hold variable names on some operators). */
function isPlan(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { op?: unknown }).op === 'string';
}

/** The child plans of `op` (input first, then nested plans). */
export function childrenOf(op: LogicalOperator): LogicalOperator[] {
  const record = op as unknown as Record<string, unknown>;
  return CHILD_SLOTS.flatMap((slot) => (isPlan(record[slot]) ? [record[slot] as LogicalOperator] : []));
}

/** A copy of `op` with every child replaced by `f(child)`. */
export function mapChildren(op: LogicalOperator, f: (child: LogicalOperator) => LogicalOperator): LogicalOperator {
  const record = op as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = { ...record };
  for (const slot of CHILD_SLOTS) if (isPlan(record[slot])) out[slot] = f(record[slot] as LogicalOperator);
  return out as unknown as LogicalOperator;
}

/** Variables an operator adds to its input rows (for filter push-down). */
export function introducedBy(op: LogicalOperator): readonly string[] | null {
  switch (op.op) {
    case 'AllNodesScan':
    case 'NodeByLabelScan':
    case 'NodeByDynamicLabelScan':
    case 'NodeIndexSeek':
      return [op.variable];
    case 'Expand':
      return [op.relationship, op.to];
    case 'RelationshipIndexSeek':
      return [op.relationship, op.left, op.right];
    case 'ProjectPath':
      return [op.variable];
    case 'Filter':
    case 'RelationshipUniqueness':
      return [];
    default:
      return null;
  }
}
