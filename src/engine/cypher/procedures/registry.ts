/**
 * The procedure registry behind `CALL name(args) YIELD ...`, `SHOW PROCEDURES` and
 * `dbms.procedures()`.
 *
 * How the engine uses it:
 * ```ts
 * const registry = createProcedureRegistry();          // builtins; one per database/engine
 * const proc = registry.lookup('db.labels');           // case-sensitive namespaced name, or undefined
 * if (!proc) throw new ProcedureNotFound(name);
 * const args = prepareArguments(proc, rawArgs);         // defaults, arity and type checks, INTEGER->FLOAT
 * for (const row of proc.call(args, ctx)) { ... }      // row[i] is the value of proc.outputs[i]
 * ```
 * A procedure with no outputs (`:: ()`) is VOID: the calling row passes through unchanged.
 * Tests and extensions add procedures with `registry.register(def)` / `registry.unregister(name)`;
 * the search work adds `db.index.fulltext.queryNodes` and `db.index.vector.queryNodes` that way.
 */
import type { ImportFiles } from '../../files/import-files.js';
import { CypherSyntaxError, CypherTypeError, ProcedureNotFound } from '../../errors/index.js';
import { isNode, isPath, isRelationship, typeName, isList, isMap } from '../../values/kinds.js';
import type { CypherValue, EntityAccessor } from '../../values/types.js';
import type { GraphReader, GraphWriter } from '../../storage/graph-store.js';
import type { FunctionRegistry } from '../functions/registry.js';
import type { AdminHooks } from '../runtime/admin-hooks.js';
import type { ExecutionContext } from '../runtime/execution-context.js';
import type { Signal } from '../runtime/row.js';
import { valueText } from '../../values/to-string.js';

/** A parameter or output column: a name and a Neo4j type text such as `STRING?` or `LIST? OF INTEGER?`. */
export interface ProcedureField {
  readonly name: string;
  readonly type: string;
  /** Default for an omitted trailing argument (inputs only). */
  readonly default?: CypherValue;
}

/** Access mode, as SHOW PROCEDURES reports it. */
export type ProcedureMode = 'READ' | 'WRITE' | 'SCHEMA' | 'DBMS';

/** What a procedure may read. */
export interface ProcedureContext {
  /** The transaction's view of the database (catalog, nodes, relationships). */
  readonly reader: GraphReader;
  readonly accessor: EntityAccessor;
  /** The function library (for `dbms.functions`). */
  readonly functions: FunctionRegistry;
  /** The registry itself (for `dbms.procedures`). */
  readonly procedures: ProcedureRegistry;
  /** The current database's name. */
  readonly databaseName: string;
  /** Files and URLs a procedure may read or write (APOC load/import/export use it). */
  readonly files: ImportFiles;
  /** Throws when the statement must stop (transaction timeout or TERMINATE TRANSACTION). */
  checkAlive(): void;
  /** The transaction's writer (WRITE and SCHEMA procedures); null in a read transaction. */
  readonly writer?: GraphWriter | null;
  /** Engine services (settings, current user, caches) when the engine runs the call. */
  readonly admin?: AdminHooks;
  /**
   * The running statement (writer, parameters, clock, nested queries); absent only when a
   * procedure is called outside a statement (tests of the registry).
   */
  readonly execution?: ExecutionContext;
}

/** A procedure. */
export interface ProcedureDefinition {
  /** Namespaced name, e.g. `db.labels`. */
  readonly name: string;
  readonly inputs: readonly ProcedureField[];
  readonly outputs: readonly ProcedureField[];
  readonly mode: ProcedureMode;
  readonly description: string;
  /**
   * Rows, each aligned with `outputs`. A long-running procedure may interleave signals: PAUSE
   * (yield the event loop) and COMMIT (commit the batch so far, auto-commit statements only).
   */
  call(args: readonly CypherValue[], ctx: ProcedureContext): Iterable<readonly CypherValue[] | Signal>;
}

/** A set of procedures by name. */
export class ProcedureRegistry {
  /**
   * What the planner checks of the procedure called `name` (arity, outputs, mode); throws
   * ProcedureNotFound for unknown names.
   */
  plannerSignature(name: string): { inputs: string[]; required: number; outputs: string[]; mode: ProcedureMode } {
    const procedure = this.procedures.get(name);
    if (!procedure) throw new ProcedureNotFound(name);
    return {
      inputs: procedure.inputs.map((i) => i.name),
      required: procedure.inputs.filter((i) => i.default === undefined).length,
      outputs: procedure.outputs.map((o) => o.name),
      mode: procedure.mode,
    };
  }

  private readonly procedures = new Map<string, ProcedureDefinition>();

  /** Adds (or replaces) a procedure. */
  register(def: ProcedureDefinition): void {
    this.procedures.set(def.name, def);
  }

  /** Removes a procedure; returns whether it existed. */
  unregister(name: string): boolean {
    return this.procedures.delete(name);
  }

  /** The procedure called `name`, or undefined. */
  lookup(name: string): ProcedureDefinition | undefined {
    return this.procedures.get(name);
  }

  /** Every procedure sorted by name. */
  list(): ProcedureDefinition[] {
    return [...this.procedures.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
}

/** A default value as signatures print it (`{}`, `null`, `'ms'`, `[1, 2]`). */
export function defaultText(v: CypherValue): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return `'${v}'`;
  if (Array.isArray(v)) return `[${v.map(defaultText).join(', ')}]`;
  if (isMap(v)) return `{${[...v].map(([k, x]) => `${k}: ${defaultText(x)}`).join(', ')}}`;
  return valueText(v);
}

/** `name :: TYPE`, or `name = default :: TYPE` for a parameter with a default. */
export function fieldSignature(f: ProcedureField): string {
  return f.default === undefined ? `${f.name} :: ${f.type}` : `${f.name} = ${defaultText(f.default)} :: ${f.type}`;
}

/** `name(in :: TYPE, ...) :: (out :: TYPE, ...)` as Neo4j prints signatures. */
export function procedureSignature(def: ProcedureDefinition): string {
  const fields = (fs: readonly ProcedureField[]) => fs.map(fieldSignature).join(', ');
  return `${def.name}(${fields(def.inputs)}) :: (${def.outputs.length === 0 ? 'VOID' : fields(def.outputs)})`;
}

/** True when `v` is a value of the Neo4j type text `type` (`INTEGER?`, `LIST? OF STRING?`, `ANY?`...). */
export function valueMatchesType(v: CypherValue, type: string): boolean {
  if (v === null) return true;
  const t = type.trim().replace(/\?$/, '').toUpperCase();
  const list = /^LIST\??\s+OF\s+(.+)$/.exec(t) ?? /^LIST\s*<\s*(.+?)\s*>$/.exec(t);
  if (list !== null) return isList(v) && v.every((e) => valueMatchesType(e, list[1]!));
  switch (t) {
    case 'ANY':
      return true;
    case 'STRING':
      return typeof v === 'string';
    case 'INTEGER':
      return typeof v === 'bigint';
    case 'FLOAT':
      return typeof v === 'number' || typeof v === 'bigint';
    case 'NUMBER':
      return typeof v === 'number' || typeof v === 'bigint';
    case 'BOOLEAN':
      return typeof v === 'boolean';
    case 'MAP':
      return v instanceof Map;
    case 'LIST':
      return Array.isArray(v);
    case 'NODE':
      return isNode(v);
    case 'RELATIONSHIP':
      return isRelationship(v);
    case 'PATH':
      return isPath(v);
    default:
      return typeName(v).toUpperCase() === t.replace(/\s+/g, '');
  }
}

/**
 * Neo4j's argument coercion: an INTEGER passed for a FLOAT (or NUMBER-less FLOAT list) parameter
 * becomes FLOAT, and a FLOAT with an integral value passed for an INTEGER parameter becomes
 * INTEGER (JavaScript drivers send every number as FLOAT). Anything else is returned unchanged.
 */
export function coerceArgument(v: CypherValue, type: string): CypherValue {
  const t = type.trim().replace(/\?$/, '').toUpperCase();
  if (t === 'FLOAT' && typeof v === 'bigint') return Number(v);
  if (t === 'INTEGER' && typeof v === 'number' && Number.isInteger(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER) return BigInt(v);
  const list = /^LIST\??\s+OF\s+(.+)$/.exec(t) ?? /^LIST\s*<(.+)>$/.exec(t);
  if (list !== null && isList(v)) return v.map((e) => coerceArgument(e, list[1]!));
  return v;
}

/**
 * Checks and completes the arguments of a call: too many or too few (after defaults) raise
 * `InvalidNumberOfArguments`, a value of the wrong type `InvalidArgumentType`; values are
 * coerced first as Neo4j does (`coerceArgument`).
 */
export function prepareArguments(def: ProcedureDefinition, args: readonly CypherValue[]): CypherValue[] {
  const required = def.inputs.filter((f) => f.default === undefined).length;
  if (args.length > def.inputs.length || args.length < required) {
    throw new CypherSyntaxError(
      `Procedure call does not provide the required number of arguments: got ${args.length} argument(s), expected ${required === def.inputs.length ? required : `${required} to ${def.inputs.length}`}. Procedure ${procedureSignature(def)}`,
      { detail: 'InvalidNumberOfArguments' },
    );
  }
  return def.inputs.map((field, i) => {
    const v = coerceArgument(i < args.length ? args[i]! : (field.default ?? null), field.type);
    if (!valueMatchesType(v, field.type)) {
      throw new CypherTypeError(
        `Type mismatch for argument \`${field.name}\` of ${def.name}: expected ${field.type} but was ${typeName(v)}`,
        {
          detail: 'InvalidArgumentType',
        },
      );
    }
    return v;
  });
}
