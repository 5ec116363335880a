/**
 * Procedures declared by a signature text and backed by a table of rows, as the TCK step
 * `there exists a procedure test.my.proc(in :: INTEGER?) :: (out :: STRING?)` needs:
 *
 * ```ts
 * const def = tableProcedure(parseProcedureSignature(text), header, rows);
 * registry.register(def);            // and registry.unregister(def.name) after the scenario
 * ```
 * A call returns the output columns of every row whose input columns are equivalent to the
 * arguments (a `null` cell matches a null argument, as in `Call4`).
 */
import { CypherSyntaxError } from '../../errors/index.js';
import { equivalent } from '../../values/equality.js';
import type { CypherValue } from '../../values/types.js';
import type { ProcedureDefinition, ProcedureField } from './registry.js';

/** A parsed signature. */
export interface ProcedureSignature {
  readonly name: string;
  readonly inputs: readonly ProcedureField[];
  readonly outputs: readonly ProcedureField[];
}

function parseFields(text: string): ProcedureField[] {
  const body = text.trim();
  if (body === '' || body.toUpperCase() === 'VOID') return [];
  return body.split(',').map((part) => {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*::\s*(.+?)\s*$/.exec(part);
    if (m === null) throw new CypherSyntaxError(`Invalid procedure field: ${part.trim()}`);
    return { name: m[1]!, type: m[2]! };
  });
}

/** Parses `ns.name(in :: TYPE, ...) :: (out :: TYPE, ...)` (a trailing `:` is ignored). */
export function parseProcedureSignature(text: string): ProcedureSignature {
  const m = /^\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\(([^)]*)\)\s*::\s*\(([^)]*)\)\s*:?\s*$/.exec(text);
  if (m === null) throw new CypherSyntaxError(`Invalid procedure signature: ${text}`);
  return { name: m[1]!, inputs: parseFields(m[2]!), outputs: parseFields(m[3]!) };
}

/**
 * A READ procedure answering from `rows` (values in `header` order; the header names input
 * and output columns).
 */
export function tableProcedure(
  signature: ProcedureSignature,
  header: readonly string[],
  rows: readonly (readonly CypherValue[])[],
): ProcedureDefinition {
  const inputIndexes = signature.inputs.map((f) => header.indexOf(f.name));
  const outputIndexes = signature.outputs.map((f) => header.indexOf(f.name));
  return {
    name: signature.name,
    inputs: signature.inputs,
    outputs: signature.outputs,
    mode: 'READ',
    description: `Test procedure ${signature.name}.`,
    call(args) {
      return rows
        .filter((row) => inputIndexes.every((column, i) => column < 0 || equivalent(row[column] ?? null, args[i] ?? null)))
        .map((row) => outputIndexes.map((column) => (column < 0 ? null : (row[column] ?? null))));
    },
  };
}
