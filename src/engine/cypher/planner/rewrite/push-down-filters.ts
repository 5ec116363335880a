import type { Expression } from '../../ast/index.js';
import { mentionedVariables } from '../ast-utils.js';
import type { LogicalOperator } from '../logical/logical-operator.js';
import { introducedBy, mapChildren } from '../plan-tree.js';

/** Moves `predicate` below operators that neither bind its variables nor change row sets otherwise. */
function sink(predicate: Expression, deps: ReadonlySet<string>, node: LogicalOperator): LogicalOperator {
  const introduced = introducedBy(node);
  if (introduced === null || introduced.some((v) => deps.has(v)) || !('input' in node)) {
    return { op: 'Filter', input: node, predicate };
  }
  return { ...node, input: sink(predicate, deps, node.input) };
}

/** Pushes every Filter down to just above the operator that binds its last variable. */
export function pushDownFilters(op: LogicalOperator): LogicalOperator {
  const rewritten = mapChildren(op, pushDownFilters);
  if (rewritten.op !== 'Filter') return rewritten;
  return sink(rewritten.predicate, mentionedVariables(rewritten.predicate), rewritten.input);
}
