/**
 * apoc.version and apoc.help: the library's version and a searchable list of its entries.
 */
import { KERNEL_VERSION } from '../builtin.js';
import { procedureSignature } from '../registry.js';
import { fn, proc } from './define.js';
import { valueText } from '../../../values/to-string.js';

/** The APOC version reported: the Neo4j version this server answers as (APOC ships per Neo4j version). */
export const APOC_VERSION = KERNEL_VERSION;

/** apoc.version and apoc.help. */
export const helpEntries = [
  fn('apoc.version() :: STRING', 'Returns the APOC version currently installed.', () => APOC_VERSION),
  proc(
    'apoc.help(proc :: STRING) :: (type :: STRING, name :: STRING, text :: STRING, signature :: STRING, roles :: LIST<STRING>, writes :: BOOLEAN, core :: BOOLEAN, isDeprecated :: BOOLEAN)',
    'DBMS',
    'Returns descriptions of the available APOC procedures and functions. If a keyword is provided, it will return only those procedures and functions that have the keyword in their name.',
    function* ([search], c) {
      const needle = valueText(search ?? '').toLowerCase();
      const matches = (name: string) => name.startsWith('apoc.') && name.toLowerCase().includes(needle);
      for (const p of c.procedure.procedures.list()) {
        if (matches(p.name)) yield ['procedure', p.name, p.description, procedureSignature(p), null, p.mode === 'WRITE', true, false];
      }
      for (const f of c.procedure.functions.list()) {
        if (matches(f.name))
          yield [f.kind === 'aggregate' ? 'function' : 'function', f.name, f.description, f.signature, null, false, true, false];
      }
    },
  ),
];
