/**
 * apoc.agg: aggregation functions (first, last, nth, slice, median, percentiles, statistics,
 * product, min/maxItems, graph).
 */
import { compare } from '../../../values/ordering.js';
import type { CypherValue } from '../../../values/types.js';
import type { Accumulator } from '../../functions/registry.js';
import { agg } from './define.js';
import { listArg, num } from './values.js';
import { collectEntities } from './virtual.js';

function collecting(finish: (values: CypherValue[], extra: readonly CypherValue[]) => CypherValue, skipNull = true): () => Accumulator {
  return () => {
    const values: CypherValue[] = [];
    let extra: readonly CypherValue[] = [];
    return {
      add(args) {
        extra = args.slice(1);
        if (!skipNull || args[0] !== null) values.push(args[0]!);
      },
      result: () => finish(values, extra),
    };
  };
}

function numbers(values: readonly CypherValue[]): number[] {
  return values.map((v) => num(v)).filter((n): n is number => n !== null);
}

/** The value at percentile `p` (nearest rank), as an INTEGER when every input was one. */
function percentile(sorted: readonly number[], p: number, integers: boolean): CypherValue {
  if (sorted.length === 0) return null;
  const rank = Math.max(0, Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1));
  const v = sorted[rank]!;
  return integers ? BigInt(v) : v;
}

const DEFAULT_PERCENTILES = '[0.5, 0.75, 0.9, 0.95, 0.99]';

function percentileList(extra: readonly CypherValue[]): number[] {
  return listArg(extra[0] ?? [0.5, 0.75, 0.9, 0.95, 0.99]).map((p) => num(p) ?? 0);
}

function extremeItems(sign: 1 | -1) {
  return () => {
    let best: CypherValue = null;
    let items: CypherValue[] = [];
    let limit = -1;
    return {
      add(args: readonly CypherValue[]) {
        const [item, value, groupLimit] = args;
        limit = Number(groupLimit ?? -1n);
        if (value === null || value === undefined) return;
        const cmp = best === null ? 1 : sign * compare(value, best);
        if (cmp > 0) {
          best = value;
          items = [item!];
        } else if (cmp === 0 && (limit < 0 || items.length < limit)) items.push(item!);
      },
      result: () =>
        new Map<string, CypherValue>([
          ['items', items],
          ['value', best],
        ]),
    };
  };
}

/** The apoc.agg aggregation functions. */
export const aggEntries = [
  agg(
    'apoc.agg.first(value :: ANY) :: ANY',
    'Returns the first value from the given collection.',
    collecting((vs) => vs[0] ?? null),
  ),
  agg(
    'apoc.agg.last(value :: ANY) :: ANY',
    'Returns the last value from the given collection.',
    collecting((vs) => vs[vs.length - 1] ?? null),
  ),
  agg(
    'apoc.agg.nth(value :: ANY, offset :: INTEGER) :: ANY',
    'Returns the nth value in the given collection (to fetch the last item of an unknown length collection, -1 can be used).',
    collecting((vs, [offset]) => {
      const i = Number(offset ?? 0n);
      return vs[i < 0 ? vs.length + i : i] ?? null;
    }),
  ),
  agg(
    'apoc.agg.slice(value :: ANY, from = 0 :: INTEGER, to = -1 :: INTEGER) :: LIST<ANY>',
    'Returns a subset of non-null values from the given collection (the collection is considered to be zero-indexed).',
    collecting((vs, [from, to]) => {
      const start = Number(from ?? 0n);
      const end = Number(to ?? -1n);
      return end < 0 ? vs.slice(start) : vs.slice(start, end);
    }),
  ),
  agg(
    'apoc.agg.median(value :: ANY) :: ANY',
    'Returns the mathematical median for all non-null `INTEGER` and `FLOAT` values.',
    collecting((vs) => {
      const ns = numbers(vs).sort((a, b) => a - b);
      if (ns.length === 0) return null;
      const mid = Math.floor(ns.length / 2);
      return ns.length % 2 === 1 ? ns[mid]! : (ns[mid - 1]! + ns[mid]!) / 2;
    }),
  ),
  agg(
    `apoc.agg.percentiles(value :: NUMBER, percentiles = ${DEFAULT_PERCENTILES} :: LIST<FLOAT>) :: LIST<ANY>`,
    'Returns the given percentiles over the range of numerical values in the given collection.',
    collecting((vs, extra) => {
      const integers = vs.every((v) => typeof v === 'bigint');
      const sorted = numbers(vs).sort((a, b) => a - b);
      return percentileList(extra).map((p) => percentile(sorted, p, integers));
    }),
  ),
  agg(
    `apoc.agg.statistics(value :: NUMBER, percentiles = ${DEFAULT_PERCENTILES} :: LIST<FLOAT>) :: MAP`,
    'Returns the following statistics on the `INTEGER` and `FLOAT` values in the given collection: percentiles, min, minNonZero, max, total, mean, stdev.',
    collecting((vs, extra) => {
      const integers = vs.every((v) => typeof v === 'bigint');
      const sorted = numbers(vs).sort((a, b) => a - b);
      const out = new Map<string, CypherValue>();
      for (const p of percentileList(extra)) out.set(String(p), percentile(sorted, p, integers));
      const n = sorted.length;
      const mean = n === 0 ? 0 : sorted.reduce((a, b) => a + b, 0) / n;
      const variance = n === 0 ? 0 : sorted.reduce((a, b) => a + (b - mean) ** 2, 0) / n;
      const wrap = (x: number | undefined): CypherValue => (x === undefined ? null : integers ? BigInt(x) : x);
      out.set('min', wrap(sorted[0]));
      out.set('minNonZero', wrap(sorted.find((x) => x !== 0)));
      out.set('max', wrap(sorted[n - 1]));
      out.set('total', BigInt(n));
      out.set('mean', mean);
      out.set('stdev', Math.sqrt(variance));
      return out;
    }),
  ),
  agg(
    'apoc.agg.product(value :: NUMBER) :: NUMBER',
    'Returns the product of all non-null `INTEGER` and `FLOAT` values in the collection.',
    collecting((vs) => {
      if (vs.every((v) => typeof v === 'bigint')) return vs.reduce<bigint>((a, v) => BigInt.asIntN(64, a * v), 1n);
      return numbers(vs).reduce((a, b) => a * b, 1);
    }),
  ),
  agg(
    'apoc.agg.maxItems(items :: ANY, value :: ANY, groupLimit = -1 :: INTEGER) :: ANY',
    'Returns a `MAP` `{items: LIST<ANY>, value: ANY}` where the `value` key is the maximum value present, and `items` represent all items with the same value.',
    extremeItems(1),
  ),
  agg(
    'apoc.agg.minItems(items :: ANY, value :: ANY, groupLimit = -1 :: INTEGER) :: ANY',
    'Returns a `MAP` `{items: LIST<ANY>, value: ANY}` where the `value` key is the minimum value present, and `items` represent all items with the same value.',
    extremeItems(-1),
  ),
  agg(
    'apoc.agg.graph(path :: ANY) :: MAP',
    'Returns all distinct `NODE` and `RELATIONSHIP` values collected into a `MAP` with the keys `nodes` and `relationships`.',
    () => {
      const nodes = new Map<bigint, CypherValue>();
      const rels = new Map<bigint, CypherValue>();
      return {
        add(args) {
          collectEntities(args[0] ?? null, nodes, rels);
        },
        result: () =>
          new Map<string, CypherValue>([
            ['nodes', [...nodes.values()]],
            ['relationships', [...rels.values()]],
          ]),
      };
    },
  ),
];
