/**
 * Aggregation: hash grouping on the grouping values, one accumulator per aggregate and group.
 *
 * Over a property-column scan (`Aggregation ← Filter* ← NodePropertyScan`, see
 * column-pipeline.ts) the group table is fed straight from the column batches, without a row
 * object per node: from the column arrays themselves when every grouping value and argument is
 * a plain column, else through one reused row. PROFILE keeps the operator-by-operator pipeline
 * so every operator still reports its own rows.
 */
import { estimateRowBytes } from '../../memory/estimate.js';
import { SemanticError } from '../../../errors/index.js';
import { groupKey } from '../../../values/index.js';
import type { CypherValue } from '../../../values/types.js';
import { Kind } from '../../ast/index.js';
import type { Expression } from '../../ast/index.js';
import { lookupFunction } from '../../functions/index.js';
import type { Accumulator } from '../../functions/registry.js';
import type { Aggregation } from '../../planner/logical/aggregation.js';
import type { ExecutionContext } from '../execution-context.js';
import type { Evaluator } from '../expressions/evaluator.js';
import { PAUSE, isSignal } from '../row.js';
import type { Row, RowStream, Signal } from '../row.js';
import { tupleKey } from './blocking-operators.js';
import { columnBatches, columnSource, scanIntoRow } from './column-pipeline.js';
import type { ColumnSource } from './column-pipeline.js';
import type { Mapper, PhysicalOperator } from './physical-operator.js';

interface CompiledAggregate {
  readonly name: string;
  readonly args: readonly Evaluator[];
  readonly create: () => Accumulator;
}

/** `count(*)`: a number while counting (a bigint increment would allocate per row). */
class CountStarAccumulator implements Accumulator {
  private n = 0;
  add(): void {
    this.n++;
  }
  result(): CypherValue {
    return BigInt(this.n);
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

/** One group: its output row (grouping values, then aggregate results) and its accumulators. */
interface Group {
  readonly row: Record<string, CypherValue>;
  readonly accs: Accumulator[];
}

/** What a group table is built from (compiled once per plan). */
interface GroupSpec {
  readonly names: readonly string[];
  readonly keys: readonly Evaluator[];
  readonly aggregates: readonly CompiledAggregate[];
}

/** Estimated bytes of a group's map entry, and of each accumulator. */
const GROUP_OVERHEAD = 96;

/**
 * The groups of one Aggregation run. Groups are emitted in the order they were first seen. A
 * single string grouping value is its own hash key (no key string is built); any other tuple is
 * keyed by `tupleKey` (Cypher grouping equivalence). Argument arrays are reused across rows
 * (accumulators never keep them).
 */
class GroupTable {
  private readonly groups = new Map<string, Group>();
  private readonly stringGroups = new Map<string, Group>();
  private readonly order: Group[] = [];
  private readonly values: CypherValue[];
  private readonly argumentArrays: CypherValue[][];

  constructor(private readonly spec: GroupSpec) {
    this.values = new Array<CypherValue>(spec.names.length).fill(null);
    this.argumentArrays = spec.aggregates.map((a) => new Array<CypherValue>(a.args.length).fill(null));
  }

  /** Adds one input row to its group. */
  add(row: Row, ctx: ExecutionContext): void {
    const { keys, aggregates } = this.spec;
    const values = this.values;
    for (let i = 0; i < keys.length; i++) values[i] = keys[i]!(row, ctx);
    const group = this.currentGroup(ctx);
    for (let a = 0; a < aggregates.length; a++) {
      const evaluators = aggregates[a]!.args;
      const args = this.argumentArrays[a]!;
      for (let j = 0; j < evaluators.length; j++) args[j] = evaluators[j]!(row, ctx);
      group.accs[a]!.add(args, ctx);
    }
  }

  /** Adds the `i`-th entry of column batches: grouping values from `keys`, arguments from `args`. */
  addColumns(keys: readonly ColumnValues[], args: readonly (readonly ColumnValues[])[], i: number, ctx: ExecutionContext): void {
    const values = this.values;
    for (let k = 0; k < keys.length; k++) values[k] = keys[k]![i] ?? null;
    const group = this.currentGroup(ctx);
    for (let a = 0; a < args.length; a++) {
      const columns = args[a]!;
      const argumentArray = this.argumentArrays[a]!;
      for (let j = 0; j < columns.length; j++) argumentArray[j] = columns[j]![i] ?? null;
      group.accs[a]!.add(argumentArray, ctx);
    }
  }

  /** The group of the grouping values in `this.values` (created when new). */
  private currentGroup(ctx: ExecutionContext): Group {
    const values = this.values;
    const first = values[0];
    let group: Group | undefined;
    if (values.length === 1 && typeof first === 'string') {
      group = this.stringGroups.get(first);
      if (group === undefined) this.stringGroups.set(first, (group = this.newGroup(ctx)));
      return group;
    }
    const key = values.length === 1 ? groupKey(first ?? null) : tupleKey(values);
    group = this.groups.get(key);
    if (group === undefined) this.groups.set(key, (group = this.newGroup(ctx)));
    return group;
  }

  /** The result rows (one group for an ungrouped aggregation over no rows). */
  results(): Row[] {
    if (this.order.length === 0 && this.spec.names.length === 0) this.newGroup();
    const { aggregates } = this.spec;
    for (const group of this.order) {
      for (let a = 0; a < aggregates.length; a++) group.row[aggregates[a]!.name] = group.accs[a]!.result();
    }
    return this.order.map((g) => g.row);
  }

  private newGroup(ctx?: ExecutionContext): Group {
    const { names, aggregates } = this.spec;
    const row: Record<string, CypherValue> = {};
    for (let i = 0; i < names.length; i++) row[names[i]!] = this.values[i] ?? null;
    ctx?.memory.charge(estimateRowBytes(row) + GROUP_OVERHEAD * (1 + aggregates.length));
    const group = { row, accs: aggregates.map((a) => a.create()) };
    this.order.push(group);
    return group;
  }
}

type ColumnValues = readonly (CypherValue | undefined)[];

/**
 * Where grouping values and aggregate arguments sit in the scan's column batches, when every
 * one of them is a plain column (`p.city` rewritten to a column variable) and no filter is
 * left; null otherwise.
 */
interface DirectColumns {
  readonly keys: readonly number[];
  readonly args: readonly (readonly number[])[];
}

function directColumns(op: Aggregation, source: ColumnSource): DirectColumns | null {
  if (source.filters.length > 0) return null;
  const names = source.scan.columns.map((c) => c.name);
  const indexOf = (e: Expression): number => (e.kind === Kind.Variable ? names.indexOf(e.name) : -1);
  const keys = op.groupings.map((g) => indexOf(g.expression));
  const args = op.aggregates.map((a) => (a.call.kind === Kind.FunctionCall ? a.call.args.map(indexOf) : []));
  return keys.includes(-1) || args.some((list) => list.includes(-1)) ? null : { keys, args };
}

function* aggregateColumns(
  ctx: ExecutionContext,
  rows: RowStream,
  source: ColumnSource,
  direct: DirectColumns | null,
  table: GroupTable,
): Generator<Signal, void, undefined> {
  for (const inputRow of source.input(ctx, rows)) {
    if (isSignal(inputRow)) {
      yield inputRow;
      continue;
    }
    if (direct === null) {
      yield* scanIntoRow(ctx, source, inputRow, (row) => table.add(row, ctx));
      continue;
    }
    for (const batch of columnBatches(ctx, source.scan)) {
      const keys = direct.keys.map((k) => batch.columns[k]!);
      const args = direct.args.map((list) => list.map((k) => batch.columns[k]!));
      for (let i = 0; i < batch.count; i++) {
        table.addColumns(keys, args, i, ctx);
        if (ctx.scheduler.tick()) yield PAUSE;
      }
    }
  }
}

/** Maps Aggregation (fused with a property-column scan below it unless profiling). */
export function mapAggregation(op: Aggregation, m: Mapper): PhysicalOperator {
  const spec: GroupSpec = {
    names: op.groupings.map((g) => g.name),
    keys: op.groupings.map((g) => m.compile(g.expression)),
    aggregates: op.aggregates.map((a) => compileAggregate(a.name, a.call, m)),
  };
  const source = m.profiling ? null : columnSource(op.input, m);
  if (source !== null) {
    const direct = directColumns(op, source);
    return function* (ctx, rows) {
      const table = new GroupTable(spec);
      yield* aggregateColumns(ctx, rows, source, direct, table);
      yield* table.results();
    };
  }
  const input = m.map(op.input);
  return function* (ctx, rows) {
    const table = new GroupTable(spec);
    for (const row of input(ctx, rows)) {
      if (isSignal(row)) {
        yield row;
        continue;
      }
      table.add(row, ctx);
      if (ctx.scheduler.tick()) yield PAUSE;
    }
    yield* table.results();
  };
}
