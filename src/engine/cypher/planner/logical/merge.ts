import type { PatternPart, SetItem } from '../../ast/index.js';
import type { LogicalOperator } from './logical-operator.js';

/**
 * MERGE: runs `match` (the whole pattern as a MATCH) per input row; if it finds rows, applies
 * `onMatch` to each, else creates the whole pattern once and applies `onCreate`.
 */
export interface Merge {
  readonly op: 'Merge';
  readonly input: LogicalOperator;
  readonly part: PatternPart;
  readonly match: LogicalOperator;
  readonly onCreate: readonly SetItem[];
  readonly onMatch: readonly SetItem[];
}
