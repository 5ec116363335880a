/**
 * Planning of WITH and RETURN: projection, aggregation (grouping keys are the non-aggregate
 * items), DISTINCT, ORDER BY over projected and (without aggregation) input variables,
 * SKIP/LIMIT and the WITH ... WHERE filter.
 */
import { Kind } from '../ast/index.js';
import type { Expression, ProjectionBody, SortItem } from '../ast/index.js';
import { CypherSyntaxError } from '../../errors/index.js';
import { astEqual, containsAggregate, isAggregateCall, mentionedVariables, substitute, variable } from './ast-utils.js';
import type { AggregateItem } from './logical/aggregation.js';
import type { LogicalOperator } from './logical/logical-operator.js';
import type { NamedExpression } from './logical/projection.js';
import type { SortKey } from './logical/sort.js';
import { isAnonymous } from './planner-context.js';
import type { PlannerContext } from './planner-context.js';

/** Result of planning a projection: the plan and the new scope (column names in order). */
export interface ProjectionPlan {
  readonly plan: LogicalOperator;
  readonly columns: readonly string[];
}

/** The named items of a projection body, expanding `*` over the scope. */
export function projectionItems(body: ProjectionBody, scope: readonly string[], sortStar: boolean): NamedExpression[] {
  const items: NamedExpression[] = [];
  if (body.star) {
    const visible = scope.filter((v) => !isAnonymous(v));
    for (const name of sortStar ? [...visible].sort() : visible) items.push({ name, expression: variable(name) });
  }
  for (const item of body.items) items.push({ name: item.alias?.name ?? item.text, expression: item.expression });
  return items;
}

/** Replaces sub-expressions equal to a projected item's expression by the item's column. */
function toColumns(expr: Expression, items: readonly NamedExpression[]): Expression {
  return substitute(expr, (node) => {
    const match = items.find((item) => astEqual(item.expression, node));
    return match ? variable(match.name) : undefined;
  });
}

function sortKeys(order: readonly SortItem[], rewrite: (e: Expression) => Expression): SortKey[] {
  return order.map((item) => ({ expression: rewrite(item.expression), descending: item.descending }));
}

const WRITE_OPERATORS = new Set(['Create', 'Merge', 'SetProperties', 'Remove', 'Delete', 'Foreach']);

/** True when `plan` (not counting nested subquery plans) writes. */
function containsWrites(plan: LogicalOperator): boolean {
  if (WRITE_OPERATORS.has(plan.op)) return true;
  if (plan.op === 'SubqueryApply') return containsWrites(plan.inner) || containsWrites(plan.input);
  return 'input' in plan && containsWrites(plan.input);
}

/** SKIP/LIMIT must be constant; literal values are checked at compile time. */
function checkPagingExpression(expr: Expression, clause: string): void {
  if (mentionedVariables(expr).size > 0) {
    throw new CypherSyntaxError(`It is not allowed to refer to variables in ${clause}`, { detail: 'NonConstantExpression' });
  }
  if (expr.kind === Kind.IntegerLiteral && expr.value < 0n) {
    throw new CypherSyntaxError(`Invalid input. '${expr.value}' is not a valid value. Must be a non-negative integer.`, {
      detail: 'NegativeIntegerArgument',
    });
  }
  if (expr.kind === Kind.UnaryOperation && expr.operator === '-' && expr.operand.kind === Kind.IntegerLiteral) {
    throw new CypherSyntaxError(`Invalid input. '-${expr.operand.value}' is not a valid value. Must be a non-negative integer.`, {
      detail: 'NegativeIntegerArgument',
    });
  }
  if (expr.kind === Kind.FloatLiteral) {
    throw new CypherSyntaxError(`Invalid input. '${expr.value}' is not a valid value. Must be a non-negative integer.`, {
      detail: 'InvalidArgumentType',
    });
  }
}

function paging(plan: LogicalOperator, body: ProjectionBody): LogicalOperator {
  if (body.skip) checkPagingExpression(body.skip, 'SKIP');
  if (body.limit) checkPagingExpression(body.limit, 'LIMIT');
  let out = plan;
  if (body.skip) out = { op: 'Skip', input: out, count: body.skip };
  if (body.limit) out = { op: 'Limit', input: out, count: body.limit, exhaustInput: containsWrites(plan) };
  return out;
}

/** Plans a WITH/RETURN body (plus WITH's WHERE) on top of `input`. */
export function planProjection(
  input: LogicalOperator,
  body: ProjectionBody,
  where: Expression | null,
  scope: readonly string[],
  ctx: PlannerContext,
  isReturn: boolean,
): ProjectionPlan {
  const items = projectionItems(body, scope, isReturn);
  const columns = items.map((i) => i.name);
  const narrow = (plan: LogicalOperator): LogicalOperator => ({
    op: 'Projection',
    input: plan,
    items: columns.map((name) => ({ name, expression: variable(name) })),
    keepInput: false,
  });
  const filtered = (plan: LogicalOperator, rewrite = false): LogicalOperator =>
    where ? { op: 'Filter', input: plan, predicate: rewrite ? toColumns(where, items) : where } : plan;
  const order = body.orderBy?.items ?? [];

  if (items.some((i) => containsAggregate(i.expression))) {
    let plan = planAggregation(input, items, ctx);
    if (body.distinct) plan = { op: 'Distinct', input: plan, columns };
    if (order.length > 0) plan = { op: 'Sort', input: plan, keys: sortKeys(order, (e) => toColumns(e, items)) };
    return { plan: filtered(paging(plan, body), true), columns };
  }
  if (body.distinct) {
    let plan: LogicalOperator = { op: 'Projection', input, items, keepInput: false };
    plan = { op: 'Distinct', input: plan, columns };
    if (order.length > 0) plan = { op: 'Sort', input: plan, keys: sortKeys(order, (e) => toColumns(e, items)) };
    return { plan: filtered(paging(plan, body), true), columns };
  }
  if (order.length === 0 && !where) {
    return { plan: paging({ op: 'Projection', input, items, keepInput: false }, body), columns };
  }
  let plan: LogicalOperator = { op: 'Projection', input, items, keepInput: true };
  if (order.length > 0) plan = { op: 'Sort', input: plan, keys: sortKeys(order, (e) => toColumns(e, items)) };
  plan = filtered(paging(plan, body));
  return { plan: narrow(plan), columns };
}

/**
 * Aggregation then a Projection: aggregate calls become generated columns, grouping
 * expressions inside aggregate items are replaced by their grouping columns.
 */
function planAggregation(input: LogicalOperator, items: readonly NamedExpression[], ctx: PlannerContext): LogicalOperator {
  const groupings = items.filter((i) => !containsAggregate(i.expression));
  const aggregates: AggregateItem[] = [];
  const finals: NamedExpression[] = items.map((item) => {
    if (!containsAggregate(item.expression)) return { name: item.name, expression: variable(item.name) };
    const rewritten = substitute(item.expression, (node) => {
      if (isAggregateCall(node)) {
        const existing = aggregates.find((a) => astEqual(a.call, node));
        if (existing) return variable(existing.name);
        const name = ctx.anon('agg');
        aggregates.push({ name, call: node });
        return variable(name);
      }
      const grouping = groupings.find((g) => astEqual(g.expression, node));
      return grouping ? variable(grouping.name) : undefined;
    });
    return { name: item.name, expression: rewritten };
  });
  const aggregation: LogicalOperator = { op: 'Aggregation', input, groupings, aggregates };
  const needsProjection = finals.some((f, i) => f.expression.kind !== Kind.Variable || f.expression.name !== items[i]?.name);
  const plan: LogicalOperator = needsProjection ? { op: 'Projection', input: aggregation, items: finals, keepInput: true } : aggregation;
  return {
    op: 'Projection',
    input: plan,
    items: items.map((i) => ({ name: i.name, expression: variable(i.name) })),
    keepInput: false,
  };
}
