/**
 * The fused form of `Filter* ← NodePropertyScan` under an Aggregation: one mutable row holds the
 * current node's property columns and every passing row is handed to the aggregation's sink
 * directly, so scanning a label costs no row object and no generator hop per node. Only an
 * Aggregation may consume it: the sink must not keep the row (it reads values out of it).
 */
import type { CypherValue } from '../../../values/types.js';
import type { LogicalOperator } from '../../planner/logical/logical-operator.js';
import type { NodePropertyScan } from '../../planner/logical/node-property-scan.js';
import type { ExecutionContext } from '../execution-context.js';
import type { Evaluator } from '../expressions/evaluator.js';
import { asBoolean } from '../expressions/logic.js';
import { PAUSE, isSignal } from '../row.js';
import type { Row, RowStream, Signal } from '../row.js';
import type { Mapper } from './physical-operator.js';

/** Runs the fused scan for every input row, calling `sink` per passing row; yields only signals. */
export type ColumnPipeline = (
  ctx: ExecutionContext,
  rows: RowStream,
  sink: (row: Row) => void,
) => Generator<Signal, void, undefined>;

type MutableRow = Record<string, CypherValue>;

function passes(filters: readonly Evaluator[], row: Row, ctx: ExecutionContext): boolean {
  for (let f = 0; f < filters.length; f++) if (asBoolean(filters[f]!(row, ctx), 'WHERE') !== true) return false;
  return true;
}

function* scanColumns(
  ctx: ExecutionContext,
  scan: NodePropertyScan,
  row: MutableRow,
  filters: readonly Evaluator[],
  sink: (row: Row) => void,
): Generator<Signal, void, undefined> {
  const names = scan.columns.map((c) => c.name);
  const keys = scan.columns.map((c) => c.key);
  const width = names.length;
  for (const batch of ctx.reader.scanNodeProperties!(scan.label, keys)) {
    const columns = batch.columns;
    for (let i = 0; i < batch.count; i++) {
      ctx.stats.dbHits++;
      for (let k = 0; k < width; k++) row[names[k]!] = columns[k]![i] ?? null;
      if (passes(filters, row, ctx)) sink(row);
      if (ctx.scheduler.tick()) yield PAUSE;
    }
  }
}

function* scanNodes(
  ctx: ExecutionContext,
  scan: NodePropertyScan,
  row: MutableRow,
  filters: readonly Evaluator[],
  sink: (row: Row) => void,
): Generator<Signal, void, undefined> {
  const ids = scan.label === null ? ctx.reader.allNodeIds() : ctx.reader.nodeIdsByLabel(scan.label);
  for (const id of ids) {
    ctx.stats.dbHits++;
    for (const column of scan.columns) row[column.name] = ctx.accessor.nodeProperty(id, column.key) ?? null;
    if (passes(filters, row, ctx)) sink(row);
    if (ctx.scheduler.tick()) yield PAUSE;
  }
}

/** The fused pipeline for `op` when it is `Filter* ← NodePropertyScan`, else null. */
export function columnPipeline(op: LogicalOperator, m: Mapper): ColumnPipeline | null {
  const predicates = [];
  let scan = op;
  while (scan.op === 'Filter') {
    predicates.push(scan.predicate);
    scan = scan.input;
  }
  if (scan.op !== 'NodePropertyScan') return null;
  const propertyScan = scan;
  const input = m.map(scan.input);
  const filters = predicates.reverse().map((p) => m.compile(p));
  return function* (ctx, rows, sink) {
    for (const inputRow of input(ctx, rows)) {
      if (isSignal(inputRow)) {
        yield inputRow;
        continue;
      }
      const row: MutableRow = { ...inputRow };
      for (const column of propertyScan.columns) row[column.name] = null;
      yield* ctx.reader.scanNodeProperties
        ? scanColumns(ctx, propertyScan, row, filters, sink)
        : scanNodes(ctx, propertyScan, row, filters, sink);
    }
  };
}
