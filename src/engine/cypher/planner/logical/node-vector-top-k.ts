import type { Expression } from '../../ast/index.js';
import type { LogicalOperator } from './logical-operator.js';

/**
 * The exact-kNN plan (rewrite/exact-vector-top-k.ts): binds `variable` to the nodes of `label`
 * that `ORDER BY vector.similarity.<similarity>(variable.property, query) DESC LIMIT count` keeps,
 * in that order, answered by a candidate scan over a VECTOR index's in-memory vectors and the
 * candidates re-scored with `score` itself. Where the index cannot give exactly the rows the
 * row-by-row plan gives (runtime/operators/node-vector-top-k.ts lists when), it runs `fallback`:
 * that plan, label scan, filter and sort on `score`.
 */
export interface NodeVectorTopK {
  readonly op: 'NodeVectorTopK';
  readonly input: LogicalOperator;
  readonly variable: string;
  readonly label: string;
  readonly property: string;
  readonly similarity: 'cosine' | 'euclidean';
  /** The ORDER BY key: the similarity call as written. */
  readonly score: Expression;
  /** The query vector argument (a parameter or a literal, the same for every row). */
  readonly query: Expression;
  /** The LIMIT count. */
  readonly count: Expression;
  /** True when `WHERE variable.property IS NOT NULL` filtered the scan. */
  readonly requireProperty: boolean;
  /** The row-by-row plan over the same input (not a child slot: plan printing and rewrites skip it). */
  readonly fallback: LogicalOperator;
}
