/**
 * Rewrite pass: WHERE predicates on a shortestPath's path or relationship variable belong to the
 * search (Neo4j finds the shortest path that satisfies them, not the shortest path filtered
 * afterwards). Filters right above a `ShortestPath` that mention either variable move into its
 * `predicate`; the other filters stay where they are.
 */
import { Kind } from '../../ast/index.js';
import type { Expression } from '../../ast/index.js';
import { mentionedVariables } from '../ast-utils.js';
import type { LogicalOperator } from '../logical/logical-operator.js';
import { mapChildren } from '../plan-tree.js';

function and(left: Expression | null, right: Expression): Expression {
  return left === null ? right : { kind: Kind.BinaryOperation, operator: 'AND', left, right };
}

/** Moves path predicates from the filter chain above each ShortestPath into the operator. */
export function shortestPathPredicates(op: LogicalOperator): LogicalOperator {
  const rewritten = mapChildren(op, shortestPathPredicates);
  if (rewritten.op !== 'Filter') return rewritten;
  const chain: Expression[] = [];
  let below: LogicalOperator = rewritten;
  while (below.op === 'Filter') {
    chain.push(below.predicate);
    below = below.input;
  }
  if (below.op !== 'ShortestPath') return rewritten;
  const search = below;
  const own = new Set([search.pathVariable, ...(search.relationshipVariable ? [search.relationshipVariable] : [])]);
  const onPath = (e: Expression): boolean => [...mentionedVariables(e)].some((v) => own.has(v));
  const absorbed = chain.filter(onPath);
  if (absorbed.length === 0) return rewritten;
  const predicate = [...absorbed].reverse().reduce<Expression | null>(and, search.predicate);
  const rest = chain.filter((e) => !onPath(e));
  return rest.reduceRight<LogicalOperator>((input, p) => ({ op: 'Filter', input, predicate: p }), { ...search, predicate });
}
