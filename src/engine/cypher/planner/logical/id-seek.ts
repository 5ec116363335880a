import type { Direction } from '../../../storage/graph-store.js';
import type { Expression } from '../../ast/index.js';
import type { LogicalOperator } from './logical-operator.js';

/** The ids a seek looks up, evaluated per input row: one value, or every element of a list. */
export type IdSeekSpec = { readonly kind: 'equals'; readonly value: Expression } | { readonly kind: 'in'; readonly list: Expression };

/**
 * Binds `variable` to the nodes whose internal id (`NodeByIdSeek`) or element id
 * (`NodeByElementIdSeek`) is among `ids`, per input row; with `label`, only nodes carrying it.
 * Deleted, missing, foreign and non-integer ids produce no row.
 */
export interface NodeByIdSeek {
  readonly op: 'NodeByIdSeek' | 'NodeByElementIdSeek';
  readonly input: LogicalOperator;
  readonly variable: string;
  readonly label: string | null;
  readonly ids: IdSeekSpec;
}

/**
 * Binds `relationship` and both ends for the relationships whose id or element id is among
 * `ids`. `direction` is the pattern's as seen from `left` (`out`: left is the start node; `in`:
 * left is the end node; `both`: one row per orientation, one for a self-loop). With `types`, the
 * relationship must have one of them; with `leftLabel`, the node bound to `left` must carry it.
 */
export interface RelationshipByIdSeek {
  readonly op:
    | 'DirectedRelationshipByIdSeek'
    | 'UndirectedRelationshipByIdSeek'
    | 'DirectedRelationshipByElementIdSeek'
    | 'UndirectedRelationshipByElementIdSeek';
  readonly input: LogicalOperator;
  readonly relationship: string;
  readonly left: string;
  readonly right: string;
  readonly direction: Direction;
  readonly types: readonly string[];
  readonly leftLabel: string | null;
  readonly ids: IdSeekSpec;
}
