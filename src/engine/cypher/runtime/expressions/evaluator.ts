/**
 * Compiled expressions: each AST expression becomes a closure once, at plan mapping time, and
 * is then called per row (Kuzu's expression evaluators).
 */
import type { CypherValue } from '../../../values/types.js';
import type { Expression, PathPattern, Query, ShortestPath, SubqueryPattern } from '../../ast/index.js';
import type { ExecutionContext } from '../execution-context.js';
import type { Row, RowStream } from '../row.js';
import type { PlannerContext } from '../../planner/planner-context.js';

/** A compiled expression. */
export type Evaluator = (row: Row, ctx: ExecutionContext) => CypherValue;

/** Runs a nested plan for one outer row (subquery expressions, pattern predicates). */
export type NestedPlan = (row: Row, ctx: ExecutionContext) => RowStream;

/** A scalar function as the runtime calls it. */
export interface ResolvedFunction {
  readonly call: (args: readonly CypherValue[], ctx: ExecutionContext) => CypherValue;
}

/** What compiling an expression needs from the planner and the function registry. */
export interface CompileEnv {
  /** Resolves a (lower-cased, dotted) function name, or throws the unknown-function error. */
  resolveFunction(name: string): ResolvedFunction;
  /** Plans a subquery body (EXISTS/COUNT/COLLECT) correlated with the given outer variables. */
  planSubquery(body: Query | SubqueryPattern, outer: readonly string[]): { plan: NestedPlan; columns: readonly string[] };
  /** Plans a pattern (pattern expression / comprehension) as a MATCH over the outer variables. */
  planPattern(
    pattern: PathPattern | ShortestPath,
    where: Expression | null,
    outer: readonly string[],
    pathVariable: string | null,
  ): NestedPlan;
  /** Variables in scope at this point (for correlation). */
  readonly scope: readonly string[];
  /** The same environment over another planning context (a constituent's catalog, composite databases). */
  forPlanner?(planner: PlannerContext): CompileEnv;
}
