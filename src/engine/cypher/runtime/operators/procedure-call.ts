/**
 * CALL of a registered procedure: arguments evaluated per row (or taken from parameters for a
 * standalone call without parentheses), one output row per procedure record.
 */
import { ParameterMissing, ProcedureNotFound } from '../../../errors/index.js';
import type { CypherValue } from '../../../values/types.js';
import { prepareArguments } from '../../procedures/registry.js';
import type { ProcedureContext } from '../../procedures/registry.js';
import type { ProcedureCall } from '../../planner/logical/procedure-call.js';
import type { ExecutionContext } from '../execution-context.js';
import { PAUSE, copyRow, isSignal } from '../row.js';
import type { Mapper, PhysicalOperator } from './physical-operator.js';

/** The context a procedure sees: reader and accessor follow the statement across batch commits. */
function procedureContext(ctx: ExecutionContext): ProcedureContext {
  return {
    get reader() {
      return ctx.reader;
    },
    get accessor() {
      return ctx.accessor;
    },
    functions: ctx.admin.functions,
    procedures: ctx.admin.procedures,
    databaseName: ctx.database,
    files: ctx.files,
    checkAlive: () => ctx.scheduler.checkAlive(),
    get writer() {
      return ctx.writer;
    },
    admin: ctx.admin,
    execution: ctx,
  };
}

/** ProcedureCall. */
export function mapProcedureCall(op: ProcedureCall, m: Mapper): PhysicalOperator {
  const input = m.map(op.input);
  const args = op.args?.map((a) => m.compile(a)) ?? null;
  return function* (ctx, rows) {
    const procedure = ctx.admin.procedures.lookup(op.name);
    if (!procedure) throw new ProcedureNotFound(op.name);
    const outputIndex = new Map(procedure.outputs.map((f, i) => [f.name, i]));
    const pctx = procedureContext(ctx);
    for (const row of input(ctx, rows)) {
      if (isSignal(row)) {
        yield row;
        continue;
      }
      const raw: CypherValue[] = args
        ? args.map((a) => a(row, ctx))
        : procedure.inputs.map((field) => {
            const v = ctx.parameters.get(field.name);
            if (v === undefined) throw new ParameterMissing(field.name);
            return v;
          });
      const values = prepareArguments(procedure, raw);
      if (procedure.outputs.length === 0) {
        for (const record of procedure.call(values, pctx)) {
          if (typeof record === 'symbol') yield record;
          else if (ctx.scheduler.tick()) yield PAUSE;
        }
        yield row;
        continue;
      }
      let found = false;
      for (const record of procedure.call(values, pctx)) {
        if (typeof record === 'symbol') {
          yield record;
          continue;
        }
        if (ctx.scheduler.tick()) yield PAUSE;
        found = true;
        const out: Record<string, CypherValue> = copyRow(row);
        for (const y of op.yields) out[y.variable] = record[outputIndex.get(y.field) ?? -1] ?? null;
        yield out;
      }
      if (!found && op.optional) {
        const out: Record<string, CypherValue> = copyRow(row);
        for (const y of op.yields) out[y.variable] = null;
        yield out;
      }
    }
  };
}
