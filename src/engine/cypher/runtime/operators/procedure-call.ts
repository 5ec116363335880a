/**
 * CALL of a registered procedure: arguments evaluated per row, one output row per record.
 */
import { ArgumentError, ProcedureNotFound } from '../../../errors/index.js';
import type { CypherValue } from '../../../values/types.js';
import type { ProcedureCall } from '../../planner/logical/procedure-call.js';
import { PAUSE } from '../row.js';
import type { Mapper, PhysicalOperator } from './physical-operator.js';

/** ProcedureCall. */
export function mapProcedureCall(op: ProcedureCall, m: Mapper): PhysicalOperator {
  const input = m.map(op.input);
  const args = op.args?.map((a) => m.compile(a)) ?? null;
  return function* (ctx, rows) {
    const procedure = ctx.admin.procedure(op.name);
    if (!procedure) throw new ProcedureNotFound(op.name);
    for (const row of input(ctx, rows)) {
      if (row === PAUSE) {
        yield row;
        continue;
      }
      const values: CypherValue[] = args
        ? args.map((a) => a(row, ctx))
        : procedure.inputs.map((field) => {
            const v = ctx.parameters.get(field.name);
            if (v === undefined) throw new ArgumentError(`Procedure ${op.name} is missing parameter ${field.name}`);
            return v;
          });
      if (values.length !== procedure.inputs.length) {
        throw new ArgumentError(`Procedure call does not provide the required number of arguments: got ${values.length} expected ${procedure.inputs.length}`, {
          detail: 'InvalidNumberOfArguments',
        });
      }
      let found = false;
      for (const record of procedure.call(values, ctx)) {
        found = true;
        const out: Record<string, CypherValue> = { ...row };
        if (op.yieldAll) for (const field of procedure.outputs) out[field.name] = record.get(field.name) ?? null;
        for (const y of op.yields) out[y.variable] = record.get(y.field) ?? null;
        yield out;
      }
      if (!found && op.optional) {
        const out: Record<string, CypherValue> = { ...row };
        for (const y of op.yields) out[y.variable] = null;
        yield out;
      }
    }
  };
}
