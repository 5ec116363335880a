/**
 * NodePropertyScan as an operator of its own (PROFILE, or any consumer other than a fused
 * Aggregation): per input row, one row per node of the label (or every node) binding the
 * requested property columns, in ascending id order.
 */
import type { CypherValue } from '../../../values/types.js';
import type { NodePropertyScan } from '../../planner/logical/node-property-scan.js';
import { PAUSE, copyRow, isSignal } from '../row.js';
import { columnBatches } from './column-pipeline.js';
import type { Mapper, PhysicalOperator } from './physical-operator.js';

/** Maps NodePropertyScan. */
export function mapNodePropertyScan(op: NodePropertyScan, m: Mapper): PhysicalOperator {
  const input = m.map(op.input);
  const names = op.columns.map((c) => c.name);
  return function* (ctx, rows) {
    for (const row of input(ctx, rows)) {
      if (isSignal(row)) {
        yield row;
        continue;
      }
      for (const batch of columnBatches(ctx, op)) {
        for (let i = 0; i < batch.count; i++) {
          if (ctx.scheduler.tick()) yield PAUSE;
          const out: Record<string, CypherValue> = copyRow(row);
          for (let k = 0; k < names.length; k++) out[names[k]!] = batch.columns[k]![i] ?? null;
          yield out;
        }
      }
    }
  };
}
