/**
 * Aggregating functions: count, sum, avg, min, max, collect, stDev, stDevP, percentileCont,
 * percentileDisc. Nulls are skipped; DISTINCT skips first arguments equivalent to one seen before.
 */
import { CypherTypeError } from '../../errors/index.js';
import { checkedInteger } from '../../values/arithmetic.js';
import { groupKey } from '../../values/group-key.js';
import { typeName } from '../../values/kinds.js';
import { compare } from '../../values/ordering.js';
import { addDurations, divideDuration, ZERO_DURATION } from '../../values/temporal/duration.js';
import { CypherDuration, type CypherValue } from '../../values/types.js';
import { aggregate, asNumber, badArgument } from './define.js';
import { estimateValueBytes } from '../memory/estimate.js';
import type { Accumulator, AggregateFunction, FunctionContext } from './registry.js';

/** Estimated bytes of one number kept by an accumulator (a list slot holding a heap number). */
const NUMBER_BYTES = 24;

/** Estimated bytes of a Set entry besides its key's characters. */
const KEY_OVERHEAD = 48;

/** Wraps an accumulator so only non-null (and, with DISTINCT, unseen) first arguments reach it. */
function filtered(distinct: boolean, inner: Accumulator): Accumulator {
  if (!distinct) {
    return {
      add(args: readonly CypherValue[], ctx: FunctionContext) {
        const v = args[0];
        if (v !== null && v !== undefined) inner.add(args, ctx);
      },
      result: () => inner.result(),
    };
  }
  const seen = new Set<string>();
  return {
    add(args: readonly CypherValue[], ctx: FunctionContext) {
      const v = args[0];
      if (v === null || v === undefined) return;
      const key = groupKey(v);
      if (seen.has(key)) return;
      ctx.memory?.charge(KEY_OVERHEAD + key.length * 2);
      seen.add(key);
      inner.add(args, ctx);
    },
    result: () => inner.result(),
  };
}

function notNumeric(fn: string, v: CypherValue): CypherTypeError {
  return new CypherTypeError(`${fn}() can only handle numerical values, duration, and null. Got ${typeName(v)}`, {
    detail: 'InvalidArgumentType',
  });
}

/** Magnitude below which adding two integers as JS numbers stays exact. */
const EXACT_LIMIT = 2 ** 52;

/**
 * Running sum of numbers or durations: exact INTEGER until a FLOAT arrives, then FLOAT. While
 * the total stays small it is a JS number (exact below 2^53, no overflow possible); from the
 * first large value on it is a bigint checked after every addition, as Neo4j checks each step.
 */
class Summer {
  private smallSum = 0;
  private bigSum = 0n;
  private floatSum = 0;
  private sawFloat = false;
  private durationSum: CypherDuration | null = null;
  private sawNumber = false;
  count = 0;

  constructor(private readonly fn: string) {}

  add(v: CypherValue): void {
    this.count++;
    if (typeof v === 'bigint') {
      this.sawNumber = true;
      // Number(v) is exact below 2^52 in magnitude, and rounding never moves a larger value below it.
      const n = Number(v);
      if (this.sawFloat) {
        this.floatSum += n;
      } else if (this.bigSum === 0n && n < EXACT_LIMIT && n > -EXACT_LIMIT && this.smallSum < EXACT_LIMIT && this.smallSum > -EXACT_LIMIT) {
        this.smallSum += n;
      } else {
        this.bigSum = checkedInteger(this.bigSum + BigInt(this.smallSum) + v);
        this.smallSum = 0;
      }
    } else if (typeof v === 'number') {
      this.sawNumber = true;
      if (!this.sawFloat) {
        this.sawFloat = true;
        this.floatSum = Number(this.bigSum) + this.smallSum;
      }
      this.floatSum += v;
    } else if (v instanceof CypherDuration) {
      this.durationSum = addDurations(this.durationSum ?? ZERO_DURATION, v);
    } else {
      throw notNumeric(this.fn, v);
    }
    if (this.sawNumber && this.durationSum !== null) throw notNumeric(this.fn, v);
  }

  sum(): CypherValue {
    if (this.durationSum !== null) return this.durationSum;
    return this.sawFloat ? this.floatSum : checkedInteger(this.bigSum + BigInt(this.smallSum));
  }
}

function numbersAccumulator(fn: string, finish: (values: number[]) => CypherValue, distinct: boolean): Accumulator {
  const values: number[] = [];
  return filtered(distinct, {
    add: ([v], ctx) => {
      ctx.memory?.charge(NUMBER_BYTES);
      values.push(asNumber(fn, v!));
    },
    result: () => finish(values),
  });
}

function standardDeviation(values: number[], sample: boolean): number {
  const n = values.length;
  if (n < 2) return 0;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const squares = values.reduce((a, b) => a + (b - mean) ** 2, 0);
  return Math.sqrt(squares / (sample ? n - 1 : n));
}

function percentileArgument(fn: string, v: CypherValue): number {
  const p = asNumber(fn, v);
  if (!(p >= 0 && p <= 1)) {
    throw badArgument(`Invalid input '${p}' is not a valid argument, must be a number in the range 0.0 to 1.0`, 'NumberOutOfRange');
  }
  return p;
}

function percentileAccumulator(fn: string, distinct: boolean, continuous: boolean): Accumulator {
  const values: (bigint | number)[] = [];
  let percentile: number | null = null;
  return filtered(distinct, {
    add: ([v, p], ctx) => {
      percentile ??= percentileArgument(fn, p ?? null);
      asNumber(fn, v!);
      ctx.memory?.charge(NUMBER_BYTES + 16);
      values.push(v as bigint | number);
    },
    result: () => {
      if (values.length === 0 || percentile === null) return null;
      const sorted = [...values].sort((a, b) => compare(a, b));
      const n = sorted.length;
      if (continuous) {
        const index = percentile * (n - 1);
        const lower = Math.floor(index);
        const upper = Math.ceil(index);
        if (lower === upper || lower === n - 1) return Number(sorted[lower]!);
        return Number(sorted[lower]!) * (upper - index) + Number(sorted[upper]!) * (index - lower);
      }
      if (percentile === 1 || n === 1) return sorted[n - 1]!;
      const floatIndex = percentile * n;
      let index = Math.trunc(floatIndex);
      if (floatIndex === index && index !== 0) index -= 1;
      return sorted[index]!;
    },
  });
}

function extremum(distinct: boolean, pickFirst: (c: number) => boolean): Accumulator {
  let best: CypherValue = null;
  return filtered(distinct, {
    add: ([v]) => {
      if (best === null || pickFirst(compare(v!, best))) best = v!;
    },
    result: () => best,
  });
}

/** The aggregating functions. */
export const aggregateFunctions: readonly AggregateFunction[] = [
  aggregate(
    'count',
    { min: 0, max: 1, category: 'Aggregating', description: 'Number of non-null values (or rows, without argument).' },
    (distinct) => {
      let n = 0;
      if (distinct) {
        const counting = filtered(true, { add: () => void n++, result: () => BigInt(n) });
        return { add: (args, ctx) => (args.length === 0 ? void n++ : counting.add(args, ctx)), result: () => BigInt(n) };
      }
      return {
        add: (args) => {
          if (args.length === 0 || (args[0] !== null && args[0] !== undefined)) n++;
        },
        result: () => BigInt(n),
      };
    },
  ),
  aggregate('sum', { category: 'Aggregating', description: 'Sum of numbers or durations.' }, (distinct) => {
    const summer = new Summer('sum');
    return filtered(distinct, { add: ([v]) => summer.add(v!), result: () => summer.sum() });
  }),
  aggregate('avg', { category: 'Aggregating', description: 'Average of numbers or durations.' }, (distinct) => {
    const summer = new Summer('avg');
    return filtered(distinct, {
      add: ([v]) => summer.add(v!),
      result: () => {
        if (summer.count === 0) return null;
        const sum = summer.sum();
        if (sum instanceof CypherDuration) return divideDuration(sum, summer.count);
        return Number(sum) / summer.count;
      },
    });
  }),
  aggregate('min', { category: 'Aggregating', description: 'The smallest value.' }, (distinct) => extremum(distinct, (c) => c < 0)),
  aggregate('max', { category: 'Aggregating', description: 'The largest value.' }, (distinct) => extremum(distinct, (c) => c > 0)),
  aggregate('collect', { category: 'Aggregating', description: 'A list of the non-null values.' }, (distinct) => {
    const values: CypherValue[] = [];
    return filtered(distinct, {
      add: ([v], ctx) => {
        ctx.memory?.charge(estimateValueBytes(v!));
        values.push(v!);
      },
      result: () => values,
    });
  }),
  aggregate('stDev', { category: 'Aggregating', description: 'Sample standard deviation.' }, (distinct) =>
    numbersAccumulator('stDev', (xs) => standardDeviation(xs, true), distinct),
  ),
  aggregate('stDevP', { category: 'Aggregating', description: 'Population standard deviation.' }, (distinct) =>
    numbersAccumulator('stDevP', (xs) => standardDeviation(xs, false), distinct),
  ),
  aggregate('percentileCont', { min: 2, category: 'Aggregating', description: 'Interpolated percentile.' }, (distinct) =>
    percentileAccumulator('percentileCont', distinct, true),
  ),
  aggregate('percentileDisc', { min: 2, category: 'Aggregating', description: 'Nearest-rank percentile.' }, (distinct) =>
    percentileAccumulator('percentileDisc', distinct, false),
  ),
];
