import type { Direction } from '../../../storage/graph-store.js';
import type { Expression } from '../../ast/index.js';
import type { LogicalOperator } from './logical-operator.js';

/**
 * shortestPath / allShortestPaths between two bound nodes by breadth-first search; binds the
 * path (and the relationship list when named). `predicate` filters whole candidate paths.
 */
export interface ShortestPath {
  readonly op: 'ShortestPath';
  readonly input: LogicalOperator;
  readonly from: string;
  readonly to: string;
  readonly pathVariable: string;
  readonly relationshipVariable: string | null;
  readonly direction: Direction;
  readonly types: readonly string[];
  readonly min: number;
  readonly max: number;
  readonly all: boolean;
  readonly predicate: Expression | null;
}
