/**
 * Planning of updating clauses: CREATE, MERGE, SET, REMOVE, DELETE and FOREACH.
 */
import { Kind } from '../ast/index.js';
import type { Clause, Create, Delete, Foreach, Merge, Remove, SetClause } from '../ast/index.js';
import type { LogicalOperator } from './logical/logical-operator.js';
import { createNeedsEager } from './create-eagerness.js';
import { planPattern } from './plan-match.js';
import { argument } from './planner-context.js';
import type { PlannerContext, PlanState } from './planner-context.js';

/** Variables a CREATE/MERGE pattern part binds. */
function patternVariables(parts: Create['pattern']['parts']): string[] {
  const names: string[] = [];
  for (const part of parts) {
    if (part.variable) names.push(part.variable.name);
    if (part.element.kind !== Kind.PathPattern) continue;
    for (const element of part.element.elements) {
      if (element.kind !== Kind.QuantifiedPath && element.variable) names.push(element.variable.name);
    }
  }
  return names;
}

/** The input of a write clause: Eager when rows came from reading the graph. */
function eagerInput(state: PlanState): LogicalOperator {
  return state.readGraph ? { op: 'Eager', input: state.plan } : state.plan;
}

function withScope(state: PlanState, plan: LogicalOperator, added: readonly string[]): PlanState {
  const scope = [...state.scope, ...added.filter((v) => !state.scope.includes(v))];
  return { plan, scope, updated: true, readGraph: false };
}

/** Plans one updating clause. */
export function planUpdate(
  clause: Create | Merge | SetClause | Remove | Delete | Foreach,
  state: PlanState,
  ctx: PlannerContext,
  planClauses: (clauses: readonly Clause[], state: PlanState) => PlanState,
): PlanState {
  const input = eagerInput(state);
  switch (clause.kind) {
    case Kind.Create: {
      const parts = clause.pattern.parts;
      const streamed = state.readGraph && !createNeedsEager(state.plan, parts, state.scope);
      return withScope(state, { op: 'Create', input: streamed ? state.plan : input, parts }, patternVariables(parts));
    }
    case Kind.Merge: {
      const pattern = { kind: Kind.Pattern, parts: [clause.pattern] } as const;
      const match = planPattern(argument(state.scope), pattern, state.scope, ctx);
      const onCreate = clause.actions.filter((a) => a.on === 'CREATE').flatMap((a) => a.items);
      const onMatch = clause.actions.filter((a) => a.on === 'MATCH').flatMap((a) => a.items);
      const plan: LogicalOperator = { op: 'Merge', input, part: clause.pattern, match: match.plan, onCreate, onMatch };
      return withScope(state, plan, patternVariables([clause.pattern]));
    }
    case Kind.Set:
      return withScope(state, { op: 'SetProperties', input, items: clause.items }, []);
    case Kind.Remove:
      return withScope(state, { op: 'Remove', input, items: clause.items }, []);
    case Kind.Delete:
      return withScope(state, { op: 'Delete', input, expressions: clause.expressions, detach: clause.detach }, []);
    case Kind.Foreach: {
      const innerScope = [...state.scope, clause.variable.name];
      const inner = planClauses(clause.clauses, { plan: argument(innerScope), scope: innerScope, updated: false, readGraph: false });
      const plan: LogicalOperator = { op: 'Foreach', input, variable: clause.variable.name, list: clause.list, inner: inner.plan };
      return withScope(state, plan, []);
    }
  }
}
