/**
 * Declaring APOC procedures and functions from their documented signature text, so each entry
 * is a few lines:
 *
 * ```ts
 * proc('apoc.meta.stats() :: (labelCount :: INTEGER, ...)', 'READ', 'Returns ...', function* (args, c) { ... });
 * fn('apoc.coll.sum(coll :: LIST<NUMBER>) :: FLOAT', 'Returns ...', ([coll]) => ...);
 * agg('apoc.agg.product(value :: NUMBER) :: NUMBER', 'Returns ...', () => accumulator);
 * ```
 * Parameters may carry defaults as APOC prints them (`config = {} :: MAP`). Errors raised with
 * {@link apocFailure} (and any unexpected error) reach the client in Neo4j's form:
 * `Failed to invoke procedure `name`: Caused by: java.lang.RuntimeException: <message>`
 * (`Neo.ClientError.Procedure.ProcedureCallFailed`), `function` for functions.
 */
import { ClientError, StatusCodes, GraphError, graphError } from '../../../errors/index.js';
import { typeName } from '../../../values/kinds.js';
import type { CypherValue } from '../../../values/types.js';
import { aggregate, scalar } from '../../functions/define.js';
import type { Accumulator, AggregateFunction, FunctionContext, ScalarFunction } from '../../functions/registry.js';
import { requireWriter, type ExecutionContext } from '../../runtime/execution-context.js';
import type { Signal } from '../../runtime/row.js';
import type { GraphReader, GraphWriter } from '../../../storage/graph-store.js';
import {
  fieldSignature,
  valueMatchesType,
  type ProcedureContext,
  type ProcedureDefinition,
  type ProcedureField,
  type ProcedureMode,
} from '../registry.js';

/** An error APOC raises; the Java exception class names the kind (as APOC's messages do). */
export class ApocFailure extends Error {
  constructor(
    message: string,
    readonly javaClass = 'java.lang.RuntimeException',
  ) {
    super(message);
    this.name = 'ApocFailure';
  }
}

/** A failure with APOC's message (`java.lang.RuntimeException` unless told otherwise). */
export function apocFailure(message: string, javaClass?: string): ApocFailure {
  return new ApocFailure(message, javaClass);
}

/** An `IllegalArgumentException` as APOC raises for bad arguments. */
export function illegalArgument(message: string): ApocFailure {
  return new ApocFailure(message, 'java.lang.IllegalArgumentException');
}

/** Longest string or list an APOC function generates from a requested size (64 Mi characters or elements). */
export const MAX_GENERATED_LENGTH = 64 * 1024 * 1024;

/** A requested generated length (negative is 0); refused past MAX_GENERATED_LENGTH instead of exhausting memory. */
export function generatedLength(count: number, what: string): number {
  const n = Math.max(0, count);
  if (!(n <= MAX_GENERATED_LENGTH)) throw illegalArgument(`The ${what} would be longer than ${MAX_GENERATED_LENGTH} (requested ${count})`);
  return Math.floor(n);
}

/** Wraps `error` as Neo4j reports a failed procedure or function call. */
export function invocationError(kind: 'procedure' | 'function', name: string, error: unknown): GraphError {
  if (error instanceof GraphError && !(error instanceof ApocFailure)) {
    if (error.code === StatusCodes.ProcedureCallFailed || error.classification === 'TransientError') return error;
    if (!error.message.startsWith('Failed to invoke')) {
      return new ClientError(StatusCodes.ProcedureCallFailed, `Failed to invoke ${kind} \`${name}\`: Caused by: ${error.message}`, {
        cause: error,
      });
    }
    return error;
  }
  const javaClass = error instanceof ApocFailure ? error.javaClass : 'java.lang.RuntimeException';
  const message = error instanceof Error ? error.message : String(error);
  return new ClientError(StatusCodes.ProcedureCallFailed, `Failed to invoke ${kind} \`${name}\`: Caused by: ${javaClass}: ${message}`, {
    cause: error,
  });
}

/** A parsed `name(params) :: (outputs)` or `name(params) :: TYPE`. */
interface ParsedSignature {
  readonly name: string;
  readonly inputs: ProcedureField[];
  readonly outputs: ProcedureField[];
  readonly returnType: string;
}

/** Splits on commas outside brackets, braces and quotes. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote !== null) {
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if ('([{<'.includes(ch)) depth++;
    else if (')]}>'.includes(ch)) depth--;
    else if (ch === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (text.slice(start).trim() !== '') parts.push(text.slice(start));
  return parts.map((p) => p.trim());
}

/** A default as APOC prints it: `{}`, `[]`, `null`, booleans, numbers, quoted strings, small maps. */
export function parseDefault(text: string): CypherValue {
  const t = text.trim();
  if (t === 'null') return null;
  if (t === 'NaN') return NaN;
  if (t === 'true' || t === 'false') return t === 'true';
  if (/^-?\d+$/.test(t)) return BigInt(t);
  if (/^-?\d*\.\d+(e-?\d+)?$/i.test(t)) return Number(t);
  if (/^'.*'$|^".*"$/s.test(t)) return t.slice(1, -1);
  if (t.startsWith('[')) return splitTopLevel(t.slice(1, -1)).map(parseDefault);
  if (t.startsWith('{')) {
    const map = new Map<string, CypherValue>();
    for (const entry of splitTopLevel(t.slice(1, -1))) {
      const colon = entry.indexOf(':');
      map.set(entry.slice(0, colon).trim(), parseDefault(entry.slice(colon + 1)));
    }
    return map;
  }
  throw new Error(`unsupported default in an APOC signature: ${text}`);
}

function parseField(text: string): ProcedureField {
  const m = /^([A-Za-z_][A-Za-z0-9_]*)\s*(?:=\s*(.+?))?\s*::\s*(.+)$/s.exec(text.trim());
  if (m === null) throw new Error(`bad APOC signature field: ${text}`);
  return m[2] === undefined ? { name: m[1]!, type: m[3]!.trim() } : { name: m[1]!, type: m[3]!.trim(), default: parseDefault(m[2]) };
}

function parseSignature(text: string): ParsedSignature {
  const open = text.indexOf('(');
  let depth = 0;
  let close = -1;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) {
      close = i;
      break;
    }
  }
  const name = text.slice(0, open).trim();
  const inputs = splitTopLevel(text.slice(open + 1, close)).map(parseField);
  const rest = text
    .slice(close + 1)
    .replace(/^\s*::\s*/, '')
    .trim();
  if (rest.startsWith('(')) {
    const body = rest.slice(1, -1).trim();
    const outputs = body === '' || body === 'VOID' ? [] : splitTopLevel(body).map(parseField);
    return { name, inputs, outputs, returnType: '' };
  }
  return { name, inputs, outputs: [], returnType: rest };
}

/** The statement-level services an APOC procedure uses. */
export interface ApocContext {
  readonly procedure: ProcedureContext;
  /** The running statement. */
  readonly exec: ExecutionContext;
  readonly reader: GraphReader;
  /** The writer (a clear error when the statement runs read-only). */
  writer(): GraphWriter;
}

/** The running statement behind a function or procedure context (APOC needs the whole statement). */
export function executionOf(ctx: FunctionContext | ProcedureContext): ExecutionContext {
  const exec = 'execution' in ctx ? ctx.execution : 'reader' in ctx ? (ctx as unknown as ExecutionContext) : undefined;
  if (exec === undefined) throw apocFailure('This APOC entry needs a running statement.');
  return exec;
}

function apocContext(ctx: ProcedureContext): ApocContext {
  const exec = executionOf(ctx);
  return {
    procedure: ctx,
    exec,
    get reader() {
      return exec.reader;
    },
    writer: () => requireWriter(exec),
  };
}

/** Rows a procedure body produces (arrays aligned with the outputs, plus signals). */
export type ProcedureRows = Iterable<readonly CypherValue[] | Signal>;

/** Declares an APOC procedure from its signature text. */
export function proc(
  signature: string,
  mode: ProcedureMode,
  description: string,
  body: (args: readonly CypherValue[], c: ApocContext) => ProcedureRows,
): ProcedureDefinition {
  const parsed = parseSignature(signature);
  const name = parsed.name;
  return {
    name,
    inputs: parsed.inputs,
    outputs: parsed.outputs,
    mode,
    description,
    *call(args, ctx) {
      try {
        yield* body(args, apocContext(ctx));
      } catch (error) {
        throw invocationError('procedure', name, error);
      }
    },
  };
}

function checkArguments(name: string, inputs: readonly ProcedureField[], args: readonly CypherValue[]): CypherValue[] {
  return inputs.map((field, i) => {
    const v = i < args.length ? args[i]! : (field.default ?? null);
    if (!valueMatchesType(v, field.type)) {
      throw graphError(
        StatusCodes.TypeError,
        `Type mismatch for argument \`${field.name}\` of ${name}: expected ${field.type} but was ${typeName(v)}`,
        {
          detail: 'InvalidArgumentType',
        },
      );
    }
    return typeof v === 'bigint' && /^FLOAT/i.test(field.type) ? Number(v) : v;
  });
}

/** Options of {@link fn}. */
export interface FunctionOptions {
  /** False for functions with a different result on each call (uuids, random). */
  readonly deterministic?: boolean;
}

/** Declares an APOC scalar function from its signature text; omitted trailing arguments take their defaults. */
export function fn(
  signature: string,
  description: string,
  body: (args: readonly CypherValue[], ctx: FunctionContext) => CypherValue,
  options: FunctionOptions = {},
): ScalarFunction {
  const parsed = parseSignature(signature);
  const required = parsed.inputs.filter((f) => f.default === undefined).length;
  const text = `${parsed.name}(${parsed.inputs.map(fieldSignature).join(', ')}) :: ${parsed.returnType}`;
  return scalar(
    parsed.name,
    {
      min: required,
      max: parsed.inputs.length,
      category: 'APOC',
      description,
      signature: text,
      nullIn: false,
      deterministic: options.deterministic ?? true,
    },
    (args, ctx) => {
      const values = checkArguments(parsed.name, parsed.inputs, args);
      try {
        return body(values, ctx);
      } catch (error) {
        throw invocationError('function', parsed.name, error);
      }
    },
  );
}

/** Declares an APOC aggregation function; `add` receives all arguments of a row (defaults filled in). */
export function agg(signature: string, description: string, create: () => Accumulator): AggregateFunction {
  const parsed = parseSignature(signature);
  const required = parsed.inputs.filter((f) => f.default === undefined).length;
  const text = `${parsed.name}(${parsed.inputs.map(fieldSignature).join(', ')}) :: ${parsed.returnType}`;
  return aggregate(parsed.name, { min: required, max: parsed.inputs.length, category: 'APOC', description, signature: text }, () => {
    const inner = create();
    return {
      add: (args, ctx) => inner.add(checkArguments(parsed.name, parsed.inputs, args), ctx),
      result: () => {
        try {
          return inner.result();
        } catch (error) {
          throw invocationError('function', parsed.name, error);
        }
      },
    };
  });
}
