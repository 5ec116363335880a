import type { LogicalOperator } from './logical-operator.js';

/** One step of a named path: a node variable, or a relationship (a list for var-length). */
export type PathStep = { readonly node: string } | { readonly relationship: string; readonly list: boolean };

/** Binds `variable` to the path built from already bound variables (`p = (a)-[r]->(b)`). */
export interface ProjectPath {
  readonly op: 'ProjectPath';
  readonly input: LogicalOperator;
  readonly variable: string;
  readonly steps: readonly PathStep[];
}
