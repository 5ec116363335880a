import { Kind } from '../ast/kinds.js';
import type { AstNode } from '../ast/nodes.js';
import { childrenOf } from '../ast/visitor.js';
import type { CypherFunction } from '../functions/index.js';

/** Structural equality of two AST values, ignoring `loc` and `ProjectionItem.text`. */
export function sameAst(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => sameAst(item, b[i]));
  const keysA = Object.keys(a).filter((key) => key !== 'loc' && key !== 'text');
  const keysB = Object.keys(b).filter((key) => key !== 'loc' && key !== 'text');
  if (keysA.length !== keysB.length) return false;
  return keysA.every((key) => sameAst((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

/** Kinds whose bodies are separate scopes for aggregation (an aggregate inside does not count). */
const aggregationBarriers = new Set<Kind>([Kind.ExistsSubquery, Kind.CountSubquery, Kind.CollectSubquery]);

/** True when `node` is a call of an aggregating function (or `count(*)`). */
export function isAggregateCall(node: AstNode, lookup: (name: string) => CypherFunction | undefined): boolean {
  if (node.kind === Kind.CountStar) return true;
  if (node.kind !== Kind.FunctionCall || node.namespace.length > 0) return false;
  return lookup(node.name)?.kind === 'aggregate';
}

/** True when `node` contains an aggregate call outside nested subqueries. */
export function containsAggregate(node: AstNode, lookup: (name: string) => CypherFunction | undefined): boolean {
  if (isAggregateCall(node, lookup)) return true;
  if (aggregationBarriers.has(node.kind)) return false;
  return childrenOf(node).some((child) => containsAggregate(child, lookup));
}

/** True when `expression` refers to no variable (literals, parameters and operators only). */
export function isConstant(expression: AstNode): boolean {
  if (expression.kind === Kind.Variable || expression.kind === Kind.PatternExpression) return false;
  return childrenOf(expression).every(isConstant);
}
