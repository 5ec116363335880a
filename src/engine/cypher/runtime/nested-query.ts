/**
 * Cypher run from inside a running statement (APOC's `apoc.cypher.run`, `apoc.periodic.iterate`,
 * `apoc.do.when`, ...): the text is compiled, planned against the statement's own transaction and
 * run with the statement's reader, writer and clock, so its reads see the statement's writes and
 * its writes commit or roll back with it.
 *
 * ```ts
 * const query = prepareNestedQuery(ctx, 'MATCH (n:Person) RETURN n.name AS name');
 * for (const emission of query.run(new Map())) { if (!isSignal(emission)) use(emission.name); }
 * ```
 */
import { StatusCodes, graphError } from '../../errors/index.js';
import type { CypherValue } from '../../values/types.js';
import { compile } from '../query-cache.js';
import { planStatement, type StatementPlan } from '../planner/plan-statement.js';
import { PlannerContext } from '../planner/planner-context.js';
import { createCompileEnv } from './compile-env.js';
import type { ExecutionContext } from './execution-context.js';
import { mapPlan } from './map-plan.js';
import { single, type PhysicalOperator } from './operators/physical-operator.js';
import { EMPTY_ROW, type Emission } from './row.js';

/** A query planned for nested runs; `run` may be called any number of times. */
export interface NestedQuery {
  readonly columns: readonly string[];
  /** True when the query writes (it needs the statement's writer). */
  readonly writes: boolean;
  /** The plan (for callers that check what the query does). */
  readonly plan: StatementPlan;
  /** Rows (and PAUSE/COMMIT signals) of one run with `parameters`. */
  run(parameters: ReadonlyMap<string, CypherValue>): Generator<Emission, void, undefined>;
}

/**
 * Compiles and plans `text` in `ctx`'s transaction. `parameterNames` are the parameters the runs
 * will provide (a query naming others is refused at compile time, as at the top level).
 */
export function prepareNestedQuery(ctx: ExecutionContext, text: string, parameterNames: ReadonlySet<string> = new Set()): NestedQuery {
  const { ast } = compile(text, parameterNames);
  const plan = planStatement(ast, new PlannerContext(ctx.reader, (name) => ctx.admin.procedures.plannerSignature(name)));
  if (plan.admin) {
    throw graphError(
      StatusCodes.InvalidRequest,
      'Database administration commands cannot run inside another statement; run them on their own.',
    );
  }
  let physical: PhysicalOperator | null = null;
  return {
    columns: plan.columns,
    writes: plan.writes,
    plan,
    run(parameters) {
      physical ??= mapPlan(plan.plan, createCompileEnv(plan.context, ctx.admin.functions), null);
      const nested: ExecutionContext = Object.create(ctx, { parameters: { value: parameters } }) as ExecutionContext;
      return physical(nested, single(EMPTY_ROW));
    },
  };
}
