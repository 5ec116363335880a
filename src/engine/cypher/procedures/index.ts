/**
 * Procedures: the registry, the built-ins, and helpers for table-backed test procedures.
 */
import { apocProcedures } from './apoc/index.js';
import { registerBuiltinProcedures } from './builtin.js';
import { ProcedureRegistry } from './registry.js';

export * from './registry.js';
export { builtinProcedures, KERNEL_VERSION } from './builtin.js';

/** A new registry holding the built-in procedures. */
export function createProcedureRegistry(): ProcedureRegistry {
  const registry = new ProcedureRegistry();
  registerBuiltinProcedures(registry);
  for (const procedure of apocProcedures) registry.register(procedure);
  return registry;
}
export { parseProcedureSignature, tableProcedure, type ProcedureSignature } from './table-procedure.js';
