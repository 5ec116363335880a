/**
 * NodeByDynamicLabelScan: evaluates the dynamic label once per input row and scans the label
 * store instead of every node.
 */
import { NodeRef } from '../../../values/types.js';
import type { NodeByDynamicLabelScan } from '../../planner/logical/node-by-dynamic-label-scan.js';
import { dynamicNames } from '../expressions/dynamic-labels.js';
import type { ExecutionContext } from '../execution-context.js';
import { PAUSE, extendRow, isSignal } from '../row.js';
import type { Mapper, PhysicalOperator } from './physical-operator.js';

function* idsFor(names: readonly string[], any: boolean, ctx: ExecutionContext): Iterable<bigint> {
  if (!any) {
    yield* names.length === 0 ? ctx.reader.allNodeIds() : ctx.reader.nodeIdsByLabel(names[0]!);
    return;
  }
  const seen = new Set<bigint>();
  for (const name of new Set(names)) {
    for (const id of ctx.reader.nodeIdsByLabel(name)) {
      if (seen.has(id)) continue;
      seen.add(id);
      yield id;
    }
  }
}

/** NodeByDynamicLabelScan. */
export function mapNodeByDynamicLabelScan(op: NodeByDynamicLabelScan, m: Mapper): PhysicalOperator {
  const input = m.map(op.input);
  const labels = m.compile(op.labels);
  return function* (ctx, rows) {
    for (const row of input(ctx, rows)) {
      if (isSignal(row)) {
        yield row;
        continue;
      }
      const names = dynamicNames(labels(row, ctx), 'label');
      for (const id of idsFor(names, op.any, ctx)) {
        ctx.stats.dbHits++;
        if (ctx.scheduler.tick()) yield PAUSE;
        yield extendRow(row, op.variable, new NodeRef(id));
      }
    }
  };
}
