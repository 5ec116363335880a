import { conjuncts } from '../ast-utils.js';
import type { LogicalOperator } from '../logical/logical-operator.js';
import { mapChildren } from '../plan-tree.js';

/** Splits `Filter(a AND b)` into `Filter(a)` over `Filter(b)` so each conjunct can move alone. */
export function splitFilters(op: LogicalOperator): LogicalOperator {
  const rewritten = mapChildren(op, splitFilters);
  if (rewritten.op !== 'Filter') return rewritten;
  return conjuncts(rewritten.predicate).reduceRight<LogicalOperator>(
    (input, predicate) => ({ op: 'Filter', input, predicate }),
    rewritten.input,
  );
}
