/**
 * The fused form of `Filter* ← NodePropertyScan` under an Aggregation. The scan's column
 * batches are read directly: either every row's columns are written into one mutable row that
 * filters and the aggregation's evaluators read (no row object, no generator hop per node), or,
 * when the aggregation only groups by and aggregates plain columns, the aggregation reads the
 * column arrays themselves (aggregation.ts).
 */
import type { CypherValue } from '../../../values/types.js';
import type { NodePropertyColumns } from '../../../storage/graph-store.js';
import type { LogicalOperator } from '../../planner/logical/logical-operator.js';
import type { NodePropertyScan } from '../../planner/logical/node-property-scan.js';
import type { ExecutionContext } from '../execution-context.js';
import type { Evaluator } from '../expressions/evaluator.js';
import { asBoolean } from '../expressions/logic.js';
import { PAUSE, copyRow } from '../row.js';
import type { Row, Signal } from '../row.js';
import type { Mapper, PhysicalOperator } from './physical-operator.js';

/** A NodePropertyScan with the filters right above it, ready to be fused into its consumer. */
export interface ColumnSource {
  /** The scan's input (the scan runs once per input row). */
  readonly input: PhysicalOperator;
  readonly scan: NodePropertyScan;
  /** Filter predicates, bottom first. */
  readonly filters: readonly Evaluator[];
}

/** The column source for `op` when it is `Filter* ← NodePropertyScan`, else null. */
export function columnSource(op: LogicalOperator, m: Mapper): ColumnSource | null {
  const predicates = [];
  let scan = op;
  while (scan.op === 'Filter') {
    predicates.push(scan.predicate);
    scan = scan.input;
  }
  if (scan.op !== 'NodePropertyScan') return null;
  return { input: m.map(scan.input), scan, filters: predicates.reverse().map((p) => m.compile(p)) };
}

/** Rows per batch when the reader offers no column scan and nodes are read one by one. */
const NODE_BATCH = 1024;

/**
 * The scan's column batches: the reader's own (`scanNodeProperties`) or, for a reader without
 * it, batches built from node ids and one property read per key. Counts db hits per node.
 */
export function* columnBatches(ctx: ExecutionContext, scan: NodePropertyScan): Generator<NodePropertyColumns, void, undefined> {
  const keys = scan.columns.map((c) => c.key);
  if (ctx.reader.scanNodeProperties) {
    for (const batch of ctx.reader.scanNodeProperties(scan.label, keys)) {
      ctx.stats.dbHits += batch.count;
      yield batch;
    }
    return;
  }
  const ids = scan.label === null ? ctx.reader.allNodeIds() : ctx.reader.nodeIdsByLabel(scan.label);
  let columns: CypherValue[][] = keys.map(() => []);
  let count = 0;
  for (const id of ids) {
    ctx.stats.dbHits++;
    for (let k = 0; k < keys.length; k++) columns[k]!.push(ctx.accessor.nodeProperty(id, keys[k]!) ?? null);
    if (++count === NODE_BATCH) {
      yield { count, columns };
      columns = keys.map(() => []);
      count = 0;
    }
  }
  if (count > 0) yield { count, columns };
}

/**
 * Runs the fused scan for one input row: writes each node's columns into a copy of the input
 * row (reused for every node), applies the filters and hands passing rows to `sink`, which must
 * not keep the row. Yields only PAUSE.
 */
export function* scanIntoRow(
  ctx: ExecutionContext,
  source: ColumnSource,
  inputRow: Row,
  sink: (row: Row) => void,
): Generator<Signal, void, undefined> {
  const names = source.scan.columns.map((c) => c.name);
  const width = names.length;
  const filters = source.filters;
  const row: Record<string, CypherValue> = copyRow(inputRow);
  for (const name of names) row[name] = null;
  for (const batch of columnBatches(ctx, source.scan)) {
    const columns = batch.columns;
    for (let i = 0; i < batch.count; i++) {
      for (let k = 0; k < width; k++) row[names[k]!] = columns[k]![i] ?? null;
      if (filters.length === 0 || passes(filters, row, ctx)) sink(row);
      if (ctx.scheduler.tick()) yield PAUSE;
    }
  }
}

function passes(filters: readonly Evaluator[], row: Row, ctx: ExecutionContext): boolean {
  for (let f = 0; f < filters.length; f++) if (asBoolean(filters[f]!(row, ctx), 'WHERE') !== true) return false;
  return true;
}
