/**
 * The logical plan: a tree of operators, each consuming the rows of its `input`.
 *
 * Terminology:
 * - Plans are *pipelines*: every operator has one `input`, and the leaf is an `Argument`, which
 *   yields the rows handed to the plan (the single empty row for a top-level query, the outer
 *   row for a subquery). A scan therefore runs once per input row, which makes pattern parts,
 *   OPTIONAL MATCH and correlated subqueries all the same shape.
 * - Operators that run a nested plan per row (`Optional`, `SubqueryApply`, `Foreach`, `Merge`)
 *   hold it in `inner`; `Union` holds two complete branches.
 * - Expressions stay AST expressions here; the runtime compiles them once when mapping.
 */
import type { Argument } from './argument.js';
import type { AllNodesScan } from './all-nodes-scan.js';
import type { NodeByLabelScan } from './node-by-label-scan.js';
import type { NodeByDynamicLabelScan } from './node-by-dynamic-label-scan.js';
import type { NodeIndexSeek } from './node-index-seek.js';
import type { RelationshipIndexSeek } from './relationship-index-seek.js';
import type { Expand } from './expand.js';
import type { Filter } from './filter.js';
import type { RelationshipUniqueness } from './relationship-uniqueness.js';
import type { ProjectPath } from './project-path.js';
import type { Projection } from './projection.js';
import type { Aggregation } from './aggregation.js';
import type { Distinct } from './distinct.js';
import type { Sort } from './sort.js';
import type { Skip } from './skip.js';
import type { Limit } from './limit.js';
import type { Unwind } from './unwind.js';
import type { Optional } from './optional.js';
import type { SubqueryApply } from './subquery-apply.js';
import type { Union } from './union.js';
import type { Create } from './create.js';
import type { Merge } from './merge.js';
import type { SetProperties } from './set-properties.js';
import type { Remove } from './remove.js';
import type { Delete } from './delete.js';
import type { Foreach } from './foreach.js';
import type { ProcedureCall } from './procedure-call.js';
import type { LoadCsv } from './load-csv.js';
import type { Eager } from './eager.js';
import type { ShortestPath } from './shortest-path.js';
import type { ProduceResults } from './produce-results.js';
import type { EmptyResult } from './empty-result.js';
import type { CommandCall } from './command-call.js';
import type { NodeCountFromCountStore, RelationshipCountFromCountStore, RelationshipCountFromDegree } from './count-from-store.js';
import type { NodeByIdSeek, RelationshipByIdSeek } from './id-seek.js';
import type { NodePropertyScan } from './node-property-scan.js';
import type { NodeVectorTopK } from './node-vector-top-k.js';

/** Any logical operator. */
export type LogicalOperator =
  | Argument
  | AllNodesScan
  | NodeByLabelScan
  | NodeByDynamicLabelScan
  | NodeIndexSeek
  | RelationshipIndexSeek
  | Expand
  | Filter
  | RelationshipUniqueness
  | ProjectPath
  | Projection
  | Aggregation
  | Distinct
  | Sort
  | Skip
  | Limit
  | Unwind
  | Optional
  | SubqueryApply
  | Union
  | Create
  | Merge
  | SetProperties
  | Remove
  | Delete
  | Foreach
  | ProcedureCall
  | LoadCsv
  | Eager
  | ShortestPath
  | ProduceResults
  | EmptyResult
  | CommandCall
  | NodeCountFromCountStore
  | RelationshipCountFromCountStore
  | RelationshipCountFromDegree
  | NodeByIdSeek
  | RelationshipByIdSeek
  | NodePropertyScan
  | NodeVectorTopK;

/** An operator with an input (every one except the leaves and Union). */
export type UnaryOperator = Exclude<LogicalOperator, Argument | Union | CommandCall>;
