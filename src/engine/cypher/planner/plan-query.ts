/**
 * Per-clause planning of queries (Kuzu `src/planner/plan/`): each clause extends the plan
 * built so far; UNION plans both branches over the same input.
 */
import { hoistEncodes } from './hoist-encode.js';
import { CypherSyntaxError } from '../../errors/index.js';
import { Kind } from '../ast/index.js';
import type { CallProcedure, CallSubquery, Clause, Expression, Query, SingleQuery, Use } from '../ast/index.js';
import type { LogicalOperator } from './logical/logical-operator.js';
import { planPattern } from './plan-match.js';
import { planProjection } from './plan-projection.js';
import { planUpdate } from './plan-updates.js';
import { argument } from './planner-context.js';
import type { PlannerContext, PlanState } from './planner-context.js';

/** A planned query: root operator, result columns, whether it writes. */
export interface QueryPlan {
  readonly plan: LogicalOperator;
  readonly columns: readonly string[];
  readonly updating: boolean;
}

/**
 * Plans a (possibly UNION) query whose outer scope is `scope`. With `rowsWithoutReturn` a query
 * that ends without RETURN keeps its rows (the bodies of EXISTS { } and COUNT { } subqueries).
 */
export function planQuery(query: Query, scope: readonly string[], ctx: PlannerContext, rowsWithoutReturn = false): QueryPlan {
  if (query.kind === Kind.Union) {
    const left = query.left.kind === Kind.Union ? planQuery(query.left, scope, ctx, rowsWithoutReturn) : planPart(query.left, scope, ctx);
    const right = planPart(query.right, scope, ctx);
    return {
      plan: { op: 'Union', left: left.plan, right: right.plan, all: query.all, columns: left.columns },
      columns: left.columns,
      updating: left.updating || right.updating,
    };
  }
  return planSingle(query, scope, ctx, rowsWithoutReturn);
}

function planSingle(query: SingleQuery, scope: readonly string[], ctx: PlannerContext, rowsWithoutReturn: boolean): QueryPlan {
  const initial: PlanState = { plan: argument(scope), scope, updated: false, readGraph: false };
  let columns: string[] = [];
  const run = (clauses: readonly Clause[], state: PlanState): PlanState =>
    clauses.reduce((s, clause) => {
      const next = planClause(clause, s, ctx, run);
      if (clause.kind === Kind.Return) columns = [...next.scope];
      return next;
    }, state);
  const final = run(query.clauses, initial);
  const last = query.clauses[query.clauses.length - 1];
  const returns = last?.kind === Kind.Return || (last?.kind === Kind.CallProcedure && isStandaloneCall(query));
  if (last?.kind === Kind.CallProcedure && returns) columns = final.scope.filter((v) => !scope.includes(v));
  const produces = returns && (last?.kind === Kind.Return || columns.length > 0);
  // EXISTS { MATCH ... } and COUNT { MATCH ... } count the rows of a query without RETURN.
  const keepRows = rowsWithoutReturn && !returns;
  const plan: LogicalOperator = produces || keepRows ? final.plan : { op: 'EmptyResult', input: final.plan };
  return { plan, columns: produces ? columns : [], updating: final.updated };
}

/** The `USE` clause a (sub)query starts with (directly, or after an importing WITH), if any. */
export function leadingUse(query: Query): Use | null {
  if (query.kind !== Kind.SingleQuery) return null;
  const [first, second] = query.clauses;
  if (first?.kind === Kind.Use) return first;
  return first?.kind === Kind.With && second?.kind === Kind.Use ? second : null;
}

/**
 * A UNION part; one that starts with `USE graph` becomes a graph subquery over the argument row,
 * so that on a composite database each part runs on its own constituent.
 */
function planPart(query: SingleQuery, scope: readonly string[], ctx: PlannerContext): QueryPlan {
  const planned = planSingle(query, scope, ctx, false);
  const use = leadingUse(query);
  if (use === null) return planned;
  const plan: LogicalOperator = {
    op: 'SubqueryApply',
    input: argument(scope),
    inner: planned.plan,
    returns: planned.columns,
    optional: false,
    batchSize: null,
    graph: { expression: use.graph, query, scope, writes: planned.updating },
  };
  return { ...planned, plan };
}

function isStandaloneCall(query: SingleQuery): boolean {
  return query.clauses.length === 1 && query.clauses[0]?.kind === Kind.CallProcedure;
}

function planClause(
  written: Clause,
  before: PlanState,
  ctx: PlannerContext,
  run: (clauses: readonly Clause[], state: PlanState) => PlanState,
): PlanState {
  const { clause, state } = hoistEncodes(written, before, ctx);
  switch (clause.kind) {
    case Kind.Match: {
      const input: LogicalOperator = state.updated && !state.readGraph ? { op: 'Eager', input: state.plan } : state.plan;
      if (clause.optional) {
        let inner = planPattern(argument(state.scope), clause.pattern, state.scope, ctx);
        let innerPlan = inner.plan;
        if (clause.where) innerPlan = { op: 'Filter', input: innerPlan, predicate: clause.where };
        inner = { ...inner, plan: innerPlan };
        const plan: LogicalOperator = { op: 'Optional', input, inner: inner.plan, introduced: inner.bound };
        return { ...state, plan, scope: [...state.scope, ...inner.bound], readGraph: true };
      }
      const matched = planPattern(input, clause.pattern, state.scope, ctx);
      const plan: LogicalOperator = clause.where ? { op: 'Filter', input: matched.plan, predicate: clause.where } : matched.plan;
      return { ...state, plan, scope: [...state.scope, ...matched.bound], readGraph: true };
    }
    case Kind.Unwind:
      return {
        ...state,
        plan: { op: 'Unwind', input: state.plan, expression: clause.expression, variable: clause.variable.name },
        scope: [...state.scope, clause.variable.name],
      };
    case Kind.With: {
      const projected = planProjection(afterWrites(state), clause.projection, clause.where, state.scope, ctx, false);
      return { ...state, plan: projected.plan, scope: projected.columns };
    }
    case Kind.Return: {
      const projected = planProjection(afterWrites(state), clause.projection, null, state.scope, ctx, true);
      return { ...state, plan: { op: 'ProduceResults', input: projected.plan, columns: projected.columns }, scope: projected.columns };
    }
    case Kind.Create:
    case Kind.Merge:
    case Kind.Set:
    case Kind.Remove:
    case Kind.Delete:
    case Kind.Foreach:
      return planUpdate(clause, state, ctx, run);
    case Kind.CallSubquery:
      return planCallSubquery(clause, state, ctx);
    case Kind.CallProcedure:
      return planCallProcedure(clause, state, ctx);
    case Kind.LoadCsv:
      return {
        ...state,
        plan: {
          op: 'LoadCsv',
          input: state.plan,
          source: clause.source,
          variable: clause.variable.name,
          withHeaders: clause.withHeaders,
          fieldTerminator: clause.fieldTerminator ?? ',',
        },
        scope: [...state.scope, clause.variable.name],
      };
    case Kind.Finish:
      return state;
    case Kind.Use:
      return state;
  }
}

/** Rows per transaction of `IN TRANSACTIONS` without `OF n ROWS` (Neo4j's default). */
const DEFAULT_BATCH: Expression = { kind: Kind.IntegerLiteral, value: 1000n };

/** Writes must all happen before a projection can drop or limit rows (Cypher's clause-at-a-time semantics). */
function afterWrites(state: PlanState): LogicalOperator {
  return state.updated && state.plan.op !== 'Eager' ? { op: 'Eager', input: state.plan } : state.plan;
}

function planCallSubquery(clause: CallSubquery, state: PlanState, ctx: PlannerContext): PlanState {
  const inner = planQuery(clause.query, state.scope, ctx);
  const returns = inner.columns;
  const use = leadingUse(clause.query);
  const plan: LogicalOperator = {
    op: 'SubqueryApply',
    input: state.plan,
    inner: inner.plan,
    returns,
    optional: clause.optional,
    batchSize: clause.inTransactions ? (clause.inTransactions.batchSize ?? DEFAULT_BATCH) : null,
    ...(use === null ? {} : { graph: { expression: use.graph, query: clause.query, scope: state.scope, writes: inner.updating } }),
  };
  return {
    plan,
    scope: [...state.scope, ...returns.filter((r) => !state.scope.includes(r))],
    updated: state.updated || inner.updating,
    readGraph: true,
  };
}

function planCallProcedure(clause: CallProcedure, state: PlanState, ctx: PlannerContext): PlanState {
  const name = [...clause.namespace, clause.name].join('.');
  const signature = ctx.procedure(name);
  const required = signature.required ?? signature.inputs.length;
  if (clause.args !== null && (clause.args.length < required || clause.args.length > signature.inputs.length)) {
    const expected = required === signature.inputs.length ? `${required}` : `${required} to ${signature.inputs.length}`;
    throw new CypherSyntaxError(
      `Procedure call does not provide the required number of arguments: got ${clause.args.length} argument(s), expected ${expected}.`,
      { detail: 'InvalidNumberOfArguments' },
    );
  }
  const all = clause.yieldStar || clause.yieldItems === null;
  const fields = all ? signature.outputs : (clause.yieldItems ?? []).map((y) => y.field);
  for (const field of fields) {
    if (!signature.outputs.includes(field))
      throw new CypherSyntaxError(`Unknown procedure output: \`${field}\``, { detail: 'UndefinedVariable' });
  }
  const yields = fields.map((field) => {
    const item = clause.yieldItems?.find((y) => y.field === field);
    return { field, variable: item?.alias?.name ?? field };
  });
  const writing = signature.mode === 'WRITE' || signature.mode === 'SCHEMA';
  let plan: LogicalOperator = {
    op: 'ProcedureCall',
    // A writing procedure runs after the rows it consumes were read (Eager), as Neo4j plans it.
    input: writing && state.readGraph && state.plan.op !== 'Eager' ? { op: 'Eager', input: state.plan } : state.plan,
    name,
    args: clause.args,
    yields,
    yieldAll: false,
    optional: clause.optional,
    ...(signature.mode ? { mode: signature.mode } : {}),
  };
  if (clause.where) plan = { op: 'Filter', input: plan, predicate: clause.where };
  const added = yields.map((y) => y.variable);
  const updating = signature.mode === 'WRITE' || signature.mode === 'SCHEMA';
  return { ...state, plan, scope: [...state.scope, ...added], updated: state.updated || updating, readGraph: true };
}
