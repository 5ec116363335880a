/**
 * The rewrite passes, in the order they run (Kuzu `optimizer.cpp`). Each reason says why a
 * pass sits where it does.
 */
import type { LogicalOperator } from '../logical/logical-operator.js';
import type { PlannerCatalog } from '../planner-context.js';
import { countFromStore } from './count-from-store.js';
import { selectIdSeeks } from './select-id-seeks.js';
import { pushDownFilters } from './push-down-filters.js';
import { shortestPathPredicates } from './shortest-path-predicates.js';
import { selectIndexSeeks } from './select-index-seeks.js';
import { splitFilters } from './split-filters.js';
import { scanPropertyColumns } from './scan-property-columns.js';
import { exactVectorTopK } from './exact-vector-top-k.js';

/** One named rewrite pass. */
export interface RewritePass {
  readonly name: string;
  readonly reason: string;
  readonly run: (plan: LogicalOperator) => LogicalOperator;
}

/** The pass list for a statement planned against `catalog`. */
export function rewritePasses(catalog: PlannerCatalog): readonly RewritePass[] {
  return [
    {
      name: 'splitFilters',
      reason: 'first: WHERE a AND b must become separate filters before any of them can move on its own',
      run: splitFilters,
    },
    {
      name: 'pushDownFilters',
      reason:
        'after splitting: moves each conjunct right above the operator binding its variables, so property predicates end up adjacent to their label scan',
      run: pushDownFilters,
    },
    {
      name: 'selectIdSeeks',
      reason:
        'after push-down (id predicates must sit on their scan or on the expand of their relationship) and before index selection (a lookup by id beats any property index on the same label scan)',
      run: selectIdSeeks,
    },
    {
      name: 'selectIndexSeeks',
      reason: 'last: needs the pushed-down filters sitting directly on NodeByLabelScan to replace the scan with an index seek',
      run: selectIndexSeeks(catalog),
    },
    {
      name: 'shortestPathPredicates',
      reason: "after push-down: filters on a shortest path's variables then sit right above it and move into the search",
      run: shortestPathPredicates,
    },
    {
      name: 'countFromStore',
      reason:
        'after push-down and index selection: only an ungrouped count directly over a bare scan (no filter left in between) is answered from the store counts',
      run: countFromStore,
    },
    {
      name: 'scanPropertyColumns',
      reason:
        'after countFromStore (a bare count is answered from the store, not scanned) and index selection (only a scan left as a scan reads columns)',
      run: scanPropertyColumns,
    },
    {
      name: 'exactVectorTopK',
      reason:
        'after push-down (an IS NOT NULL filter must sit on its label scan) and last: the row-by-row plan it keeps as its fallback is not visited by later passes',
      run: exactVectorTopK,
    },
  ];
}

/** Runs every pass in order. */
export function rewritePlan(plan: LogicalOperator, catalog: PlannerCatalog): LogicalOperator {
  return rewritePasses(catalog).reduce((p, pass) => pass.run(p), plan);
}
