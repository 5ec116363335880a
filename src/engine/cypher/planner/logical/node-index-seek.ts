import type { Expression } from '../../ast/index.js';
import type { LogicalOperator } from './logical-operator.js';

/** The predicate an index seek answers; operands are evaluated per input row. */
export type SeekSpec =
  | { readonly kind: 'equals'; readonly value: Expression }
  | { readonly kind: 'in'; readonly list: Expression }
  | {
      readonly kind: 'range';
      readonly lower: { readonly value: Expression; readonly inclusive: boolean } | null;
      readonly upper: { readonly value: Expression; readonly inclusive: boolean } | null;
    }
  | { readonly kind: 'prefix' | 'contains' | 'suffix'; readonly value: Expression };

/** Binds `variable` to the nodes with `label` whose `property` satisfies `seek`, via an index. */
export interface NodeIndexSeek {
  readonly op: 'NodeIndexSeek';
  readonly input: LogicalOperator;
  readonly variable: string;
  readonly label: string;
  readonly property: string;
  readonly indexName: string;
  readonly seek: SeekSpec;
  /**
   * The `v.p = e` predicate an equality seek was chosen from, folded into the seek: a RANGE
   * index's equality seek returns exactly the entities the predicate holds for when `e` is an
   * INTEGER, STRING or BOOLEAN (one key per value, integers keyed exactly), so the predicate runs
   * only for other values (floats: NaN; temporal and other values whose equality differs from key
   * equality).
   */
  readonly folded?: Expression;
}
