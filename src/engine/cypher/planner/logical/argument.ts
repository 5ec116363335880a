/** Leaf: yields the rows handed to the plan (one empty row at top level; the outer row in subqueries). */
export interface Argument {
  readonly op: 'Argument';
  /** Variables bound by the outer scope. */
  readonly variables: readonly string[];
}
