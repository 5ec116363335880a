/**
 * Which auto-commit statements a read worker may run: queries (no command) that write nothing,
 * call no procedure, load no file, are not EXPLAINed or PROFILEd, and call only built-in
 * functions the engine has not replaced (a worker knows the built-ins only). The answer depends
 * on the statement alone, so it is kept per compiled statement.
 */
import { Kind } from '../../cypher/ast/index.js';
import type { Statement } from '../../cypher/ast/index.js';
import { BREAK, visit } from '../../cypher/ast/visitor.js';
import { lookupFunction } from '../../cypher/functions/index.js';
import type { FunctionRegistry } from '../../cypher/functions/registry.js';

const REFUSED = new Set<Kind>([
  Kind.Create,
  Kind.Merge,
  Kind.Set,
  Kind.Remove,
  Kind.Delete,
  Kind.Foreach,
  Kind.CallProcedure,
  Kind.LoadCsv,
]);

/** Namespaces of built-in functions that use services of the engine's own thread. */
const ENGINE_NAMESPACES = ['genai.'];

const known = new WeakMap<Statement, boolean>();

/** True when a read worker can run `statement` exactly as the engine would. */
export function workerEligible(statement: Statement, functions: FunctionRegistry): boolean {
  let eligible = known.get(statement);
  if (eligible === undefined) {
    eligible = check(statement, functions);
    known.set(statement, eligible);
  }
  return eligible;
}

function check(statement: Statement, functions: FunctionRegistry): boolean {
  if (statement.explain !== null) return false;
  if (statement.body.kind !== Kind.SingleQuery && statement.body.kind !== Kind.Union) return false;
  let eligible = true;
  visit(statement, {
    enter(node) {
      if (REFUSED.has(node.kind)) eligible = false;
      else if (node.kind === Kind.FunctionCall) {
        const name = [...node.namespace, node.name].join('.');
        const builtin = lookupFunction(name);
        const lower = name.toLowerCase();
        if (builtin === undefined || functions.lookup(name) !== builtin || ENGINE_NAMESPACES.some((ns) => lower.startsWith(ns)))
          eligible = false;
      }
      return eligible ? undefined : BREAK;
    },
  });
  return eligible;
}
