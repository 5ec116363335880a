/**
 * NodePropertyScan: per input row, one row per node of the label (or every node) binding the
 * requested property columns. Reads column batches when the reader offers them (decoding only
 * those keys, cached per version in read transactions), else node ids plus one property read
 * per key; both give the same rows in the same (ascending id) order.
 */
import type { CypherValue } from '../../../values/types.js';
import type { NodePropertyScan } from '../../planner/logical/node-property-scan.js';
import type { ExecutionContext } from '../execution-context.js';
import { PAUSE, isSignal } from '../row.js';
import type { Row, RowStream } from '../row.js';
import type { Mapper, PhysicalOperator } from './physical-operator.js';

type MutableRow = Record<string, CypherValue>;

function* fromColumns(ctx: ExecutionContext, row: Row, op: NodePropertyScan, keys: readonly string[]): RowStream {
  const names = op.columns.map((c) => c.name);
  const width = names.length;
  for (const batch of ctx.reader.scanNodeProperties!(op.label, keys)) {
    const columns = batch.columns;
    for (let i = 0; i < batch.count; i++) {
      ctx.stats.dbHits++;
      if (ctx.scheduler.tick()) yield PAUSE;
      const out: MutableRow = { ...row };
      for (let k = 0; k < width; k++) out[names[k]!] = columns[k]![i] ?? null;
      yield out;
    }
  }
}

function* fromNodes(ctx: ExecutionContext, row: Row, op: NodePropertyScan): RowStream {
  const ids = op.label === null ? ctx.reader.allNodeIds() : ctx.reader.nodeIdsByLabel(op.label);
  for (const id of ids) {
    ctx.stats.dbHits++;
    if (ctx.scheduler.tick()) yield PAUSE;
    const out: MutableRow = { ...row };
    for (const column of op.columns) out[column.name] = ctx.accessor.nodeProperty(id, column.key) ?? null;
    yield out;
  }
}

/** Maps NodePropertyScan. */
export function mapNodePropertyScan(op: NodePropertyScan, m: Mapper): PhysicalOperator {
  const input = m.map(op.input);
  const keys = op.columns.map((c) => c.key);
  return function* (ctx, rows) {
    for (const row of input(ctx, rows)) {
      if (isSignal(row)) {
        yield row;
        continue;
      }
      yield* ctx.reader.scanNodeProperties ? fromColumns(ctx, row, op, keys) : fromNodes(ctx, row, op);
    }
  };
}
