/**
 * Operators that must see all input before emitting: Aggregation, Distinct (streaming but
 * stateful), Sort, Eager.
 */
import { SemanticError } from '../../../errors/index.js';
import { compare, groupKey } from '../../../values/index.js';
import type { CypherValue } from '../../../values/types.js';
import { Kind } from '../../ast/index.js';
import type { Expression } from '../../ast/index.js';
import { lookupFunction } from '../../functions/index.js';
import type { Accumulator } from '../../functions/registry.js';
import type { Aggregation } from '../../planner/logical/aggregation.js';
import type { Distinct } from '../../planner/logical/distinct.js';
import type { Eager } from '../../planner/logical/eager.js';
import type { Sort } from '../../planner/logical/sort.js';
import type { ExecutionContext } from '../execution-context.js';
import type { Evaluator } from '../expressions/evaluator.js';
import { PAUSE, isSignal } from '../row.js';
import type { Row } from '../row.js';
import { drain } from './physical-operator.js';
import type { Mapper, PhysicalOperator } from './physical-operator.js';

/** Key of a tuple of values under Cypher equivalence. */
export function tupleKey(values: readonly CypherValue[]): string {
  return values.map(groupKey).join('\u0000');
}

interface CompiledAggregate {
  readonly name: string;
  readonly args: readonly Evaluator[];
  readonly create: () => Accumulator;
}

class CountStarAccumulator implements Accumulator {
  private n = 0n;
  add(): void {
    this.n++;
  }
  result(): CypherValue {
    return this.n;
  }
}

function compileAggregate(name: string, call: Expression, m: Mapper): CompiledAggregate {
  if (call.kind === Kind.CountStar) return { name, args: [], create: () => new CountStarAccumulator() };
  if (call.kind !== Kind.FunctionCall) throw new SemanticError('Not an aggregate function call');
  const fn = lookupFunction([...call.namespace, call.name].join('.'));
  if (!fn || fn.kind !== 'aggregate') throw new SemanticError(`Unknown aggregate function ${call.name}`);
  const distinct = call.distinct;
  return { name, args: call.args.map((a) => m.compile(a)), create: () => fn.createAccumulator(distinct) };
}

/** Aggregation: hash grouping on the grouping values. */
export function mapAggregation(op: Aggregation, m: Mapper): PhysicalOperator {
  const input = m.map(op.input);
  const groupings = op.groupings.map((g) => [g.name, m.compile(g.expression)] as const);
  const aggregates = op.aggregates.map((a) => compileAggregate(a.name, a.call, m));
  return function* (ctx, rows) {
    const groups = new Map<string, { row: Record<string, CypherValue>; accs: Accumulator[] }>();
    for (const row of input(ctx, rows)) {
      if (isSignal(row)) {
        yield row;
        continue;
      }
      const keys = groupings.map(([, evaluate]) => evaluate(row, ctx));
      const key = tupleKey(keys);
      let group = groups.get(key);
      if (!group) {
        const out: Record<string, CypherValue> = {};
        groupings.forEach(([name], i) => (out[name] = keys[i] ?? null));
        group = { row: out, accs: aggregates.map((a) => a.create()) };
        groups.set(key, group);
      }
      aggregates.forEach((a, i) => group.accs[i]?.add(a.args.map((arg) => arg(row, ctx)), ctx));
      if (ctx.scheduler.tick()) yield PAUSE;
    }
    if (groups.size === 0 && groupings.length === 0) {
      groups.set('', { row: {}, accs: aggregates.map((a) => a.create()) });
    }
    for (const group of groups.values()) {
      aggregates.forEach((a, i) => (group.row[a.name] = group.accs[i]?.result() ?? null));
      yield group.row;
    }
  };
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
    yield* drain(input(ctx, rows), all);
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
    yield* drain(input(ctx, rows), all);
    yield* all;
  };
}
