/**
 * NodeCountFromCountStore / RelationshipCountFromCountStore: one row holding the store's count
 * times the number of input rows, which is what the replaced ungrouped count would produce.
 * RelationshipCountFromDegree: one row holding the sum of the input rows' node degrees.
 */
import type {
  NodeCountFromCountStore,
  RelationshipCountFromCountStore,
  RelationshipCountFromDegree,
} from '../../planner/logical/count-from-store.js';
import { NodeRef } from '../../../values/types.js';
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

/** Maps RelationshipCountFromDegree. */
export function mapCountFromDegree(op: RelationshipCountFromDegree, m: Mapper): PhysicalOperator {
  const input = m.map(op.input);
  const types = op.types.length > 0 ? op.types : undefined;
  return function* (ctx, rows) {
    let count = 0;
    for (const row of input(ctx, rows)) {
      if (isSignal(row)) {
        yield row;
        continue;
      }
      const from = row[op.from];
      if (!(from instanceof NodeRef)) continue;
      ctx.stats.dbHits++;
      count += ctx.reader.degree(from.id, op.direction, types);
    }
    yield { [op.name]: BigInt(count) };
  };
}
