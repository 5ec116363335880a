/**
 * NodeCountFromCountStore / RelationshipCountFromCountStore: one row holding the store's count
 * times the number of input rows, which is what the replaced ungrouped count would produce.
 */
import type { NodeCountFromCountStore, RelationshipCountFromCountStore } from '../../planner/logical/count-from-store.js';
import type { ExecutionContext } from '../execution-context.js';
import { isSignal } from '../row.js';
import type { Mapper, PhysicalOperator } from './physical-operator.js';

function storeCount(ctx: ExecutionContext, op: NodeCountFromCountStore | RelationshipCountFromCountStore): number {
  ctx.stats.dbHits++;
  if (op.op === 'NodeCountFromCountStore') {
    return op.label === null ? ctx.reader.countNodes() : ctx.reader.countNodes(op.label);
  }
  if (op.types.length === 0) return ctx.reader.countRelationships();
  return op.types.reduce((sum, type) => sum + ctx.reader.countRelationships(type), 0);
}

/** Maps either count-store operator. */
export function mapCountFromStore(op: NodeCountFromCountStore | RelationshipCountFromCountStore, m: Mapper): PhysicalOperator {
  const input = m.map(op.input);
  return function* (ctx, rows) {
    let inputRows = 0n;
    for (const row of input(ctx, rows)) {
      if (isSignal(row)) yield row;
      else inputRows++;
    }
    const count = inputRows === 0n ? 0n : inputRows * BigInt(storeCount(ctx, op));
    yield { [op.name]: count };
  };
}
