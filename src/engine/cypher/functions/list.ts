/**
 * List functions: range, size, head, last, tail, reverse, coalesce.
 */
import { checkedInteger } from '../../values/arithmetic.js';
import { CypherVector, type CypherValue } from '../../values/types.js';
import { asInteger, asList, badArgument, scalar, wrongType } from './define.js';
import type { FunctionContext, ScalarFunction } from './registry.js';
import { SLOT_BYTES } from '../memory/estimate.js';
import { isList } from '../../values/kinds.js';

const MAX_RANGE_LENGTH = 100_000_000n;

/** The start, step and element count of `range(start, end, step?)`. */
export interface RangeSpec {
  readonly start: bigint;
  readonly step: bigint;
  readonly count: bigint;
}

/** Validates `range()` arguments (non-null) and counts its elements. */
export function rangeSpec(args: readonly CypherValue[]): RangeSpec {
  const start = asInteger('range', args[0]!);
  const end = asInteger('range', args[1]!);
  const step = args.length > 2 ? asInteger('range', args[2]!) : 1n;
  if (step === 0n) throw badArgument("Invalid input for function 'range()': step argument to range() can't be 0", 'NumberOutOfRange');
  const count = (end - start) / step + 1n;
  return { start, step, count: count < 0n ? 0n : count };
}

/** The elements of a range, one at a time (UNWIND consumes `range()` this way, holding none). */
export function* rangeElements(spec: RangeSpec): Generator<bigint> {
  for (let i = 0n, v = spec.start; i < spec.count; i++, v += spec.step) yield checkedInteger(v);
}

/** Estimated bytes of one element of a materialised range (a list slot and a bigint). */
const RANGE_ELEMENT_BYTES = SLOT_BYTES + 24;

function range(args: readonly CypherValue[], ctx: FunctionContext): CypherValue {
  const spec = rangeSpec(args);
  if (spec.count === 0n) return [];
  if (spec.count > MAX_RANGE_LENGTH) throw badArgument(`range() would produce ${spec.count} elements`, 'NumberOutOfRange');
  ctx.memory?.charge(Number(spec.count) * RANGE_ELEMENT_BYTES);
  const out: bigint[] = [];
  for (const value of rangeElements(spec)) out.push(value);
  return out;
}

/** The list functions. */
export const listFunctions: readonly ScalarFunction[] = [
  scalar(
    'range',
    {
      min: 2,
      max: 3,
      category: 'List',
      description: 'A list of integers from start to end (inclusive) by step.',
      argumentTypes: [['Integer']],
    },
    range,
  ),
  scalar(
    'size',
    {
      category: 'Scalar',
      description: 'Number of elements in a list or characters in a string.',
      argumentTypes: [['String', 'List', 'Vector']],
    },
    ([v]) => {
      if (typeof v === 'string') return BigInt(v.length);
      if (Array.isArray(v)) return BigInt(v.length);
      if (v instanceof CypherVector) return BigInt(v.dimension);
      throw wrongType('size', v!, 'String or List');
    },
  ),
  scalar('head', { category: 'Scalar', description: 'The first element of a list.', argumentTypes: [['List']] }, ([v]) => {
    const list = asList('head', v!);
    return list.length === 0 ? null : list[0]!;
  }),
  scalar('last', { category: 'Scalar', description: 'The last element of a list.', argumentTypes: [['List']] }, ([v]) => {
    const list = asList('last', v!);
    return list.length === 0 ? null : list[list.length - 1]!;
  }),
  scalar('tail', { category: 'List', description: 'All but the first element of a list.', argumentTypes: [['List']] }, ([v]) =>
    asList('tail', v!).slice(1),
  ),
  scalar('reverse', { category: 'List', description: 'A string or list in reverse order.', argumentTypes: [['String', 'List']] }, ([v]) => {
    if (typeof v === 'string') return [...v].reverse().join('');
    if (v !== undefined && isList(v)) return [...v].reverse();
    throw wrongType('reverse', v!, 'String or List');
  }),
  scalar(
    'coalesce',
    { min: 1, max: Infinity, nullIn: false, category: 'Scalar', description: 'The first non-null argument.' },
    (args) => args.find((a) => a !== null) ?? null,
  ),
];
