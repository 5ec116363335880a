/**
 * Procedures defined by a signature and a table of rows, as the openCypher TCK's
 * `there exists a procedure` steps describe them. Used by the in-process TCK and, when the
 * engine is opened with `testProcedures`, by `CALL tck.registerProcedure(...)` over Bolt.
 */
import { CypherSyntaxError } from '../../errors/index.js';
import { equivalent } from '../../values/index.js';
import type { CypherValue } from '../../values/types.js';
import type { ProcedureDefinition, ProcedureField } from '../procedures/registry.js';
import { valueText } from '../../values/to-string.js';

function fields(text: string): ProcedureField[] {
  if (text.trim() === '') return [];
  return text.split(',').map((field) => {
    const [name = '', type = 'ANY?'] = field.split('::').map((s) => s.trim());
    return { name, type };
  });
}

/**
 * A READ procedure from `name(in :: TYPE, ...) :: (out :: TYPE, ...)`; `header` names the
 * columns of `rows` (inputs and outputs). A call returns the outputs of every row whose input
 * columns are equivalent to the arguments.
 */
export function tableProcedure(
  signature: string,
  header: readonly string[],
  rows: readonly (readonly CypherValue[])[],
): ProcedureDefinition {
  const match = /^([\w.]+)\((.*?)\)\s*::\s*\((.*)\)$/.exec(signature.trim());
  if (!match) throw new CypherSyntaxError(`Invalid procedure signature: ${signature}`);
  const inputs = fields(match[2] ?? '');
  const outputs = fields(match[3] ?? '');
  const column = (name: string): number => header.indexOf(name);
  return {
    name: match[1] ?? '',
    inputs,
    outputs,
    mode: 'READ',
    description: 'A procedure answering from a fixed table',
    call: (args) =>
      rows
        .filter((row) => inputs.every((input, i) => equivalent(row[column(input.name)] ?? null, args[i] ?? null)))
        .map((row) => outputs.map((o) => row[column(o.name)] ?? null)),
  };
}

/** `tck.registerProcedure(signature, columns, rows)`: registers a table procedure. */
export function registrationProcedure(register: (definition: ProcedureDefinition) => void): ProcedureDefinition {
  return {
    name: 'tck.registerProcedure',
    inputs: [
      { name: 'signature', type: 'STRING?' },
      { name: 'columns', type: 'LIST? OF STRING?' },
      { name: 'rows', type: 'LIST? OF ANY?' },
    ],
    outputs: [],
    mode: 'DBMS',
    description: 'Registers a procedure answering from a fixed table (test support).',
    call: ([signature, columns, rows]) => {
      const header = (columns as readonly CypherValue[]).map(valueText);
      register(tableProcedure(valueText(signature ?? null), header, rows as readonly (readonly CypherValue[])[]));
      return [];
    },
  };
}
