/**
 * `CALL { USE graph ... }` and UNION parts starting with `USE graph` on a composite database: per
 * input row the graph reference is evaluated, the constituent opened through the statement's
 * GraphSource (privileges, the one-written-constituent rule), the subquery planned against that
 * constituent's catalog (once per constituent snapshot) and run on its reader and writer. Entity
 * values leave the subquery materialized, since the outer query has no graph to read them from.
 */
import { ArgumentError } from '../../../errors/index.js';
import type { GraphReader } from '../../../storage/graph-store.js';
import type { GraphSelection } from '../../planner/logical/subquery-apply.js';
import { planQuery } from '../../planner/plan-query.js';
import { PlannerContext } from '../../planner/planner-context.js';
import { rewritePlan } from '../../planner/rewrite/passes.js';
import { accessorFor, type ExecutionContext } from '../execution-context.js';
import { graphReference, type GraphSource } from '../graph-source.js';
import { copyRow, isSignal, type Row, type RowStream } from '../row.js';
import type { Mapper, PhysicalOperator } from './physical-operator.js';
import { single } from './physical-operator.js';

/** Anonymous names of constituent plans start here, clear of the outer plan's. */
const CONSTITUENT_NAME_BASE = 1_000_000;

/** Runs a graph subquery for one outer row; yields the subquery's rows (returns materialized) and signals. */
export type GraphApply = (ctx: ExecutionContext, graphs: GraphSource, row: Row) => RowStream;

/** Compiles the graph selection of a subquery or UNION part. */
export function compileGraphApply(selection: GraphSelection, returns: readonly string[], m: Mapper): GraphApply {
  const reference = graphReference(selection.expression);
  const argument = reference.kind === 'name' ? null : m.compile(reference.argument);
  const plans = new WeakMap<GraphReader, PhysicalOperator>();
  const graphName = (ctx: ExecutionContext, graphs: GraphSource, row: Row): string => {
    if (reference.kind === 'name') return reference.name;
    const value = argument!(row, ctx);
    if (typeof value !== 'string') {
      throw new ArgumentError(`graph.${reference.kind}() expects a STRING, got: ${value === null ? 'NULL' : typeof value}`);
    }
    return reference.kind === 'byName' ? value : graphs.byElementId(value);
  };
  const physicalFor = (ctx: ExecutionContext, reader: GraphReader): PhysicalOperator => {
    let physical = plans.get(reader);
    if (physical === undefined) {
      const planner = new PlannerContext(reader, (name) => ctx.admin.procedures.plannerSignature(name), CONSTITUENT_NAME_BASE);
      const planned = planQuery(selection.query, selection.scope, planner);
      physical = m.mapPlan(rewritePlan(planned.plan, planner.catalog), m.env.forPlanner!(planner));
      plans.set(reader, physical);
    }
    return physical;
  };
  return function* (ctx, graphs, row) {
    const graph = graphs.open(graphName(ctx, graphs, row), selection.query, selection.writes);
    const inner = Object.create(ctx, {
      database: { value: graph.database },
      reader: { value: graph.reader },
      writer: { value: graph.writer },
      accessor: { value: accessorFor(graph.reader) },
      graphs: { value: undefined },
    }) as ExecutionContext;
    for (const out of physicalFor(ctx, graph.reader)(inner, single(row))) {
      if (isSignal(out)) {
        yield out;
        continue;
      }
      const joined = copyRow(out);
      for (const name of returns) joined[name] = graph.materialize(out[name] ?? null);
      yield joined;
    }
  };
}
