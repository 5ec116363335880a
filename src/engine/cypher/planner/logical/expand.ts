import type { Direction } from '../../../storage/graph-store.js';
import type { MapLiteral, Parameter } from '../../ast/index.js';
import type { LogicalOperator } from './logical-operator.js';

/**
 * Follows relationships from the bound node `from`. With `into`, `to` is already bound and
 * only relationships reaching it qualify (Neo4j's `Expand(Into)`). With `length`, the
 * relationship variable binds a list (variable-length pattern) and `properties` must hold on
 * every hop.
 */
export interface Expand {
  readonly op: 'Expand';
  readonly input: LogicalOperator;
  readonly from: string;
  readonly relationship: string;
  readonly to: string;
  readonly direction: Direction;
  readonly types: readonly string[];
  readonly into: boolean;
  readonly length: { readonly min: number; readonly max: number } | null;
  readonly properties: MapLiteral | Parameter | null;
}
