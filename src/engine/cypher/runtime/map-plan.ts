/**
 * Logical → physical mapping: one function per operator (Kuzu `src/processor/map/`), chosen
 * by a switch here.
 */
import type { LogicalOperator } from '../planner/logical/logical-operator.js';
import type { Expression } from '../ast/index.js';
import type { CompileEnv } from './expressions/evaluator.js';
import { compileExpression } from './expressions/compile-expression.js';
import { mapDistinct, mapEager, mapSort } from './operators/blocking-operators.js';
import { mapAggregation } from './operators/aggregation.js';
import { mapCreate } from './operators/create.js';
import { mapDelete } from './operators/delete.js';
import { mapExpand } from './operators/expand.js';
import { mapForeach, mapMerge, mapOptional, mapSubqueryApply, mapUnion } from './operators/nested.js';
import type { Mapper, PhysicalOperator } from './operators/physical-operator.js';
import { mapProcedureCall } from './operators/procedure-call.js';
import {
  mapEmptyResult,
  mapFilter,
  mapLimit,
  mapProduceResults,
  mapProjectPath,
  mapProjection,
  mapRelationshipUniqueness,
  mapSkip,
  mapUnwind,
} from './operators/row-operators.js';
import { mapNodeByDynamicLabelScan } from './operators/dynamic-label-scan.js';
import { mapAllNodesScan, mapNodeByLabelScan, mapNodeIndexSeek, mapRelationshipIndexSeek } from './operators/scans.js';
import { mapRemove, mapSetProperties } from './operators/set-remove.js';
import { mapShortestPath } from './operators/shortest-path.js';
import { mapLoadCsv } from './operators/load-csv.js';
import { mapCommandCall } from './operators/command-call.js';
import { mapCountFromDegree, mapCountFromStore } from './operators/count-from-store.js';
import { mapNodeByIdSeek, mapRelationshipByIdSeek } from './operators/id-seek.js';
import { mapNodePropertyScan } from './operators/node-property-scan.js';
import { mapNodeVectorTopK } from './operators/node-vector-top-k.js';

/** Per-operator profile counters (PROFILE). */
export interface OperatorStats {
  rows: number;
  dbHits: number;
}

/** Builds the physical plan for a logical plan. `profile` collects rows per operator when set. */
export function mapPlan(root: LogicalOperator, env: CompileEnv, profile: Map<LogicalOperator, OperatorStats> | null): PhysicalOperator {
  const mapper: Mapper = {
    env,
    profiling: profile !== null,
    compile: (expression: Expression) => compileExpression(expression, env),
    map: (op) => (profile ? profiled(op, mapOne(op, mapper), profile) : mapOne(op, mapper)),
    mapPlan: (op, other) => mapPlan(op, other, null),
    expectedRows: new Map(),
  };
  return mapper.map(root);
}

function profiled(op: LogicalOperator, physical: PhysicalOperator, profile: Map<LogicalOperator, OperatorStats>): PhysicalOperator {
  const stats: OperatorStats = { rows: 0, dbHits: 0 };
  profile.set(op, stats);
  // Hits are counted only while this operator (and the children it pulls) runs, never while it
  // is suspended at a yield: otherwise a leaf would be charged with its parents' work.
  return function* (ctx, input) {
    const rows = physical(ctx, input);
    try {
      for (;;) {
        const before = ctx.stats.dbHits;
        const next = rows.next();
        stats.dbHits += ctx.stats.dbHits - before;
        if (next.done) return;
        if (typeof next.value === 'object') stats.rows++;
        yield next.value;
      }
    } finally {
      rows.return(undefined);
    }
  };
}

function mapOne(op: LogicalOperator, m: Mapper): PhysicalOperator {
  switch (op.op) {
    case 'Argument':
      return (_ctx, input) => input;
    case 'AllNodesScan':
      return mapAllNodesScan(op, m);
    case 'NodeByLabelScan':
      return mapNodeByLabelScan(op, m);
    case 'NodeByDynamicLabelScan':
      return mapNodeByDynamicLabelScan(op, m);
    case 'NodePropertyScan':
      return mapNodePropertyScan(op, m);
    case 'NodeVectorTopK':
      return mapNodeVectorTopK(op, m);
    case 'NodeIndexSeek':
      return mapNodeIndexSeek(op, m);
    case 'RelationshipIndexSeek':
      return mapRelationshipIndexSeek(op, m);
    case 'Expand':
      return mapExpand(op, m);
    case 'Filter':
      return mapFilter(op, m);
    case 'RelationshipUniqueness':
      return mapRelationshipUniqueness(op, m);
    case 'ProjectPath':
      return mapProjectPath(op, m);
    case 'Projection':
      return mapProjection(op, m);
    case 'Aggregation':
      return mapAggregation(op, m);
    case 'Distinct':
      return mapDistinct(op, m);
    case 'Sort':
      return mapSort(op, m);
    case 'Skip':
      return mapSkip(op, m);
    case 'Limit':
      return mapLimit(op, m);
    case 'Unwind':
      return mapUnwind(op, m);
    case 'Optional':
      return mapOptional(op, m);
    case 'SubqueryApply':
      return mapSubqueryApply(op, m);
    case 'Union':
      return mapUnion(op, m);
    case 'Create':
      return mapCreate(op, m);
    case 'Merge':
      return mapMerge(op, m);
    case 'SetProperties':
      return mapSetProperties(op, m);
    case 'Remove':
      return mapRemove(op, m);
    case 'Delete':
      return mapDelete(op, m);
    case 'Foreach':
      return mapForeach(op, m);
    case 'ProcedureCall':
      return mapProcedureCall(op, m);
    case 'LoadCsv':
      return mapLoadCsv(op, m);
    case 'Eager':
      return mapEager(op, m);
    case 'ShortestPath':
      return mapShortestPath(op, m);
    case 'ProduceResults':
      return mapProduceResults(op, m);
    case 'EmptyResult':
      return mapEmptyResult(op, m);
    case 'CommandCall':
      return mapCommandCall(op, m);
    case 'NodeCountFromCountStore':
    case 'RelationshipCountFromCountStore':
      return mapCountFromStore(op, m);
    case 'RelationshipCountFromDegree':
      return mapCountFromDegree(op, m);
    case 'NodeByIdSeek':
    case 'NodeByElementIdSeek':
      return mapNodeByIdSeek(op, m);
    case 'DirectedRelationshipByIdSeek':
    case 'UndirectedRelationshipByIdSeek':
    case 'DirectedRelationshipByElementIdSeek':
    case 'UndirectedRelationshipByElementIdSeek':
      return mapRelationshipByIdSeek(op, m);
  }
}
