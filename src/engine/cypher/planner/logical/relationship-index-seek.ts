import type { Direction } from '../../../storage/graph-store.js';
import type { Expression } from '../../ast/index.js';
import type { LogicalOperator } from './logical-operator.js';

/**
 * Binds `relationship` and its end nodes from a RELATIONSHIP index equality seek on
 * `type(property)`. `direction` is seen from `left` (the node written first): `out` binds
 * left to the start node, `in` to the end node, `both` yields each orientation.
 */
export interface RelationshipIndexSeek {
  readonly op: 'RelationshipIndexSeek';
  readonly input: LogicalOperator;
  readonly relationship: string;
  readonly left: string;
  readonly right: string;
  readonly direction: Direction;
  readonly type: string;
  readonly property: string;
  readonly indexName: string;
  readonly value: Expression;
}
