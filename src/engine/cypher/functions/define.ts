/**
 * Small helpers to declare functions and check their arguments.
 */
import { ArgumentError, CypherTypeError } from '../../errors/index.js';
import { typeName, isList } from '../../values/kinds.js';
import type { CypherValue } from '../../values/types.js';
import type { AggregateFunction, FunctionContext, ScalarFunction } from './registry.js';

/** Options of `scalar()`; `args` is the signature's parameter list text. */
export interface ScalarOptions {
  readonly min?: number;
  readonly max?: number;
  readonly category: string;
  readonly description?: string;
  readonly signature?: string;
  readonly deterministic?: boolean;
  readonly argumentTypes?: readonly (readonly string[])[];
  /** When true (default), any null argument returns null without calling `impl`. */
  readonly nullIn?: boolean;
}

/** Declares a scalar function taking `min..max` arguments (defaults: one argument). */
export function scalar(
  name: string,
  options: ScalarOptions,
  impl: (args: readonly CypherValue[], ctx: FunctionContext) => CypherValue,
): ScalarFunction {
  const min = options.min ?? 1;
  const max = options.max ?? min;
  const nullIn = options.nullIn ?? true;
  return {
    kind: 'scalar',
    name,
    minArgs: min,
    maxArgs: max,
    category: options.category,
    description: options.description ?? `${name} function.`,
    signature: options.signature ?? `${name}(${min === 0 ? '' : '...'})`,
    deterministic: options.deterministic ?? true,
    argumentTypes: options.argumentTypes,
    call: nullIn ? (args, ctx) => (args.some((a) => a === null) ? null : impl(args, ctx)) : impl,
  };
}

/** Declares an aggregate function. */
export function aggregate(
  name: string,
  options: Omit<ScalarOptions, 'deterministic' | 'nullIn'>,
  createAccumulator: AggregateFunction['createAccumulator'],
): AggregateFunction {
  const min = options.min ?? 1;
  return {
    kind: 'aggregate',
    name,
    minArgs: min,
    maxArgs: options.max ?? min,
    category: options.category,
    description: options.description ?? `${name} aggregation.`,
    signature: options.signature ?? `${name}(...)`,
    argumentTypes: options.argumentTypes,
    createAccumulator,
  };
}

/** A TypeError for an argument of the wrong type (`InvalidArgumentType`). */
export function wrongType(fn: string, value: CypherValue, expected: string): CypherTypeError {
  return new CypherTypeError(`Type mismatch: expected ${expected} but was ${typeName(value)} (in ${fn}())`, {
    detail: 'InvalidArgumentType',
  });
}

/** A TypeError for a value a conversion function cannot accept (`InvalidArgumentValue`). */
export function invalidValue(fn: string, value: CypherValue): CypherTypeError {
  return new CypherTypeError(`Invalid input for function '${fn}()': Expected a String, Number or Boolean, got: ${typeName(value)}`, {
    detail: 'InvalidArgumentValue',
  });
}

/** An ArgumentError (`detail` defaults to `InvalidArgumentValue`). */
export function badArgument(message: string, detail = 'InvalidArgumentValue'): ArgumentError {
  return new ArgumentError(message, { detail });
}

/** The argument as a string, or a TypeError. */
export function asString(fn: string, v: CypherValue): string {
  if (typeof v !== 'string') throw wrongType(fn, v, 'String');
  return v;
}

/** The argument as a JS number (INTEGER or FLOAT), or a TypeError. */
export function asNumber(fn: string, v: CypherValue): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  throw wrongType(fn, v, 'Number');
}

/** The argument as an INTEGER, or a TypeError. Floats are truncated when `allowFloat`. */
export function asInteger(fn: string, v: CypherValue, allowFloat = false): bigint {
  if (typeof v === 'bigint') return v;
  if (allowFloat && typeof v === 'number' && Number.isFinite(v)) return BigInt(Math.trunc(v));
  throw wrongType(fn, v, 'Integer');
}

/** The argument as a list, or a TypeError. */
export function asList(fn: string, v: CypherValue): readonly CypherValue[] {
  if (!isList(v)) throw wrongType(fn, v, 'List');
  return v;
}
