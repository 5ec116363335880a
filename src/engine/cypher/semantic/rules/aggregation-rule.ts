import type { ProjectionBody } from '../../ast/clauses.js';
import type { Expression } from '../../ast/expressions.js';
import { Kind } from '../../ast/kinds.js';
import type { AstNode } from '../../ast/nodes.js';
import { childrenOf } from '../../ast/visitor.js';
import { containsAggregate, isAggregateCall, sameAst } from '../ast-utils.js';
import type { ValidationContext } from '../context.js';
import type { ValidationRule } from './rule.js';

const subqueryKinds = new Set<Kind>([Kind.ExistsSubquery, Kind.CountSubquery, Kind.CollectSubquery]);
/** Expressions evaluated per element: an aggregate inside them has no group to aggregate over. */
const perElementKinds = new Set<Kind>([Kind.ListComprehension, Kind.ListPredicate, Kind.Reduce, Kind.PatternComprehension]);

/**
 * Aggregation rules:
 * - aggregates only in WITH/RETURN items, or in their ORDER BY when the projection aggregates
 *   (`InvalidAggregation`);
 * - no aggregate inside another (`NestedAggregation`), no `rand()` inside one
 *   (`NonConstantExpression`);
 * - outside its aggregates, an aggregating item may only use grouping keys that are variables or
 *   property lookups (`AmbiguousAggregationExpression`).
 */
export const AggregationRule: ValidationRule = (context) => ({
  enter(node, ancestors) {
    if (node.kind === Kind.ProjectionBody) {
      checkAmbiguity(context, node);
      return;
    }
    if (!isAggregateCall(node, context.lookupFunction)) return;
    checkPlacement(context, node, ancestors);
    for (const child of childrenOf(node)) checkInsideAggregate(context, child);
  },
});

function checkPlacement(context: ValidationContext, node: AstNode, ancestors: readonly AstNode[]): void {
  let child = node;
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const ancestor = ancestors[i]!;
    if (subqueryKinds.has(ancestor.kind)) break;
    if (perElementKinds.has(ancestor.kind) && !isEvaluatedOnce(ancestor, child)) break;
    child = ancestor;
    if (ancestor.kind === Kind.ProjectionItem) return;
    if (ancestor.kind === Kind.SortItem) {
      const body = ancestors
        .slice(0, i)
        .reverse()
        .find((a): a is ProjectionBody => a.kind === Kind.ProjectionBody);
      if (body && body.items.some((item) => containsAggregate(item.expression, context.lookupFunction))) return;
      break;
    }
  }
  context.report(node, 'Invalid use of aggregating function in this context', 'InvalidAggregation');
}

/** True when `child` is the list (or reduce's initial value) of a per-element expression, evaluated once per row. */
function isEvaluatedOnce(parent: AstNode, child: AstNode): boolean {
  const fields = parent as { source?: AstNode; init?: AstNode };
  return fields.source === child || fields.init === child;
}

function checkInsideAggregate(context: ValidationContext, node: AstNode): void {
  if (subqueryKinds.has(node.kind)) return;
  if (isAggregateCall(node, context.lookupFunction)) {
    context.report(node, "Can't use aggregate functions inside of aggregate functions.", 'NestedAggregation');
    return;
  }
  if (node.kind === Kind.FunctionCall) {
    const fn = context.lookupFunction([...node.namespace, node.name].join('.'));
    if (fn?.kind === 'scalar' && !fn.deterministic) {
      context.report(node, "Can't use non-deterministic (random) functions inside of aggregate functions.", 'NonConstantExpression');
      return;
    }
  }
  for (const child of childrenOf(node)) checkInsideAggregate(context, child);
}

/** Reports `AmbiguousAggregationExpression` for items and ORDER BY items of one projection. */
function checkAmbiguity(context: ValidationContext, body: ProjectionBody): void {
  const lookup = context.lookupFunction;
  const keys = body.items.filter((item) => !containsAggregate(item.expression, lookup));
  const keyExpressions = keys.map((item) => item.expression);
  const keyNames = new Set(keys.map((item) => item.alias?.name ?? (item.expression.kind === Kind.Variable ? item.expression.name : '')));
  const aliases = new Set(body.items.map((item) => item.alias?.name).filter((name) => name !== undefined));
  const check = (expression: Expression, orderBy: boolean): void => {
    if (!containsAggregate(expression, lookup)) return;
    const offending = findUngrouped(expression, keyExpressions, orderBy ? new Set([...keyNames, ...aliases]) : keyNames, lookup);
    if (offending) {
      context.report(
        offending,
        'Aggregation column contains implicit grouping expressions. Only variables and property lookups that are also projected as grouping keys may be used outside the aggregate function.',
        'AmbiguousAggregationExpression',
      );
    }
  };
  for (const item of body.items) check(item.expression, false);
  for (const sortItem of body.orderBy?.items ?? []) check(sortItem.expression, true);
}

/** The first part of `expression` outside aggregates that is not an allowed grouping key. */
function findUngrouped(
  expression: AstNode,
  keys: readonly Expression[],
  keyNames: ReadonlySet<string>,
  lookup: ValidationContext['lookupFunction'],
): AstNode | null {
  if (isAggregateCall(expression, lookup) || subqueryKinds.has(expression.kind)) return null;
  const simpleKey =
    (expression.kind === Kind.Variable || (expression.kind === Kind.PropertyAccess && expression.object.kind === Kind.Variable)) &&
    keys.some((key) => sameAst(key, expression));
  if (simpleKey) return null;
  if (expression.kind === Kind.Variable) return keyNames.has(expression.name) ? null : expression;
  if (expression.kind === Kind.ListComprehension || expression.kind === Kind.ListPredicate || expression.kind === Kind.Reduce) return null;
  for (const child of childrenOf(expression)) {
    const found = findUngrouped(child, keys, keyNames, lookup);
    if (found) return found;
  }
  return null;
}
