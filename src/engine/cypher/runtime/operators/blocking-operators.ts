/**
 * Operators that must see all input before emitting: Distinct (streaming but stateful), Sort,
 * Eager. Aggregation lives in aggregation.ts.
 */
import { compare, groupKey } from '../../../values/index.js';
import type { CypherValue } from '../../../values/types.js';
import type { Distinct } from '../../planner/logical/distinct.js';
import type { Eager } from '../../planner/logical/eager.js';
import type { Sort } from '../../planner/logical/sort.js';
import type { ExecutionContext } from '../execution-context.js';
import { isSignal } from '../row.js';
import type { Row } from '../row.js';
import { drain } from './physical-operator.js';
import type { Mapper, PhysicalOperator } from './physical-operator.js';

/** Estimated bytes of a Set entry besides its key's characters. */
const KEY_OVERHEAD = 48;

/** Key of a tuple of values under Cypher equivalence. */
export function tupleKey(values: readonly CypherValue[]): string {
  let key = values.length > 0 ? groupKey(values[0]!) : '';
  for (let i = 1; i < values.length; i++) key += '\u0000' + groupKey(values[i]!);
  return key;
}

/** Distinct: keeps the first row of each equivalence class of `columns`. */
export function mapDistinct(op: Distinct, m: Mapper): PhysicalOperator {
  const input = m.map(op.input);
  return function* (ctx, rows) {
    const seen = new Set<string>();
    for (const row of input(ctx, rows)) {
      if (isSignal(row)) {
        yield row;
        continue;
      }
      const key = tupleKey(op.columns.map((c) => row[c] ?? null));
      if (seen.has(key)) continue;
      ctx.memory.charge(KEY_OVERHEAD + key.length * 2);
      seen.add(key);
      yield row;
    }
  };
}

/** Sort: stable, by Cypher's total order; descending keys reverse it. */
export function mapSort(op: Sort, m: Mapper): PhysicalOperator {
  const input = m.map(op.input);
  const keys = op.keys.map((k) => ({ evaluate: m.compile(k.expression), sign: k.descending ? -1 : 1 }));
  return function* (ctx: ExecutionContext, rows) {
    const all: Row[] = [];
    yield* drain(ctx, input(ctx, rows), all);
    const decorated = all.map((row, index) => ({ row, index, keys: keys.map((k) => k.evaluate(row, ctx)) }));
    decorated.sort((a, b) => {
      for (let i = 0; i < keys.length; i++) {
        const c = compare(a.keys[i] ?? null, b.keys[i] ?? null);
        if (c !== 0) return c * (keys[i]?.sign ?? 1);
      }
      return a.index - b.index;
    });
    for (const d of decorated) yield d.row;
  };
}

/** Eager: materializes all input rows before emitting any. */
export function mapEager(op: Eager, m: Mapper): PhysicalOperator {
  const input = m.map(op.input);
  return function* (ctx, rows) {
    const all: Row[] = [];
    yield* drain(ctx, input(ctx, rows), all);
    yield* all;
  };
}
