/**
 * The CompileEnv that connects expression compilation with the planner: functions come from the
 * registry; subquery expressions and pattern predicates are planned on first use, with the
 * variables bound in the evaluating row as their outer scope (cached per set of bound names).
 */
import { StatusCodes, graphError } from '../../errors/index.js';
import { Kind } from '../ast/index.js';
import type { Expression, PathPattern, Pattern, PatternPart, Query, ShortestPath, SubqueryPattern } from '../ast/index.js';
import type { FunctionRegistry } from '../functions/registry.js';
import type { LogicalOperator } from '../planner/logical/logical-operator.js';
import { planPattern } from '../planner/plan-match.js';
import { planQuery } from '../planner/plan-query.js';
import { argument } from '../planner/planner-context.js';
import type { PlannerContext } from '../planner/planner-context.js';
import { rewritePlan } from '../planner/rewrite/passes.js';
import type { CompileEnv, NestedPlan, ResolvedFunction } from './expressions/evaluator.js';
import { mapPlan } from './map-plan.js';
import { single } from './operators/physical-operator.js';
import type { PhysicalOperator } from './operators/physical-operator.js';
import type { Row } from './row.js';

/** A nested plan planned lazily per distinct set of bound variable names. */
function lazyPlan(build: (scope: readonly string[]) => LogicalOperator, env: () => CompileEnv, planner: PlannerContext): NestedPlan {
  const cache = new Map<string, PhysicalOperator>();
  return (row: Row, ctx) => {
    const scope = Object.keys(row);
    const key = scope.join('\u0000');
    let physical = cache.get(key);
    if (!physical) {
      physical = mapPlan(rewritePlan(build(scope), planner.catalog), env(), null);
      cache.set(key, physical);
    }
    return physical(ctx, single(row));
  };
}

function patternQuery(pattern: Pattern, where: Expression | null, scope: readonly string[], planner: PlannerContext): LogicalOperator {
  const planned = planPattern(argument(scope), pattern, scope, planner);
  return where ? { op: 'Filter', input: planned.plan, predicate: where } : planned.plan;
}

/**
 * Builds the compile environment for one statement. `onNestedPlan` is told when an expression
 * needs a nested plan (those are planned at run time against the running transaction's catalog).
 */
export function createCompileEnv(planner: PlannerContext, functions: FunctionRegistry, onNestedPlan?: () => void): CompileEnv {
  const env: CompileEnv = {
    scope: [],
    forPlanner: (other) => createCompileEnv(other, functions),
    resolveFunction(name: string): ResolvedFunction {
      const fn = functions.lookup(name);
      if (!fn) throw graphError(StatusCodes.SyntaxError, `Unknown function '${name}'`, { detail: 'UnknownFunction' });
      if (fn.kind !== 'scalar') {
        throw graphError(StatusCodes.SyntaxError, `Aggregate function ${name} is not allowed here`, { detail: 'InvalidAggregation' });
      }
      return { call: (args, ctx) => fn.call(args, ctx) };
    },
    planSubquery(body: Query | SubqueryPattern, _outer: readonly string[]) {
      onNestedPlan?.();
      if (body.kind === Kind.SubqueryPattern) {
        return {
          plan: lazyPlan(
            (scope) => patternQuery(body.pattern, body.where, scope, planner),
            () => env,
            planner,
          ),
          columns: [],
        };
      }
      const columns = planQuery(body, [], planner, true).columns;
      return {
        plan: lazyPlan(
          (scope) => planQuery(body, scope, planner, true).plan,
          () => env,
          planner,
        ),
        columns,
      };
    },
    planPattern(pattern: PathPattern | ShortestPath, where: Expression | null, _outer: readonly string[], pathVariable: string | null) {
      onNestedPlan?.();
      const part: PatternPart = {
        kind: Kind.PatternPart,
        variable: pathVariable ? { kind: Kind.Variable, name: pathVariable } : null,
        selector: null,
        element: pattern,
      };
      const full: Pattern = { kind: Kind.Pattern, parts: [part] };
      return lazyPlan(
        (scope) => patternQuery(full, where, scope, planner),
        () => env,
        planner,
      );
    },
  };
  return env;
}
