import type { Expression } from '../../ast/index.js';
import type { LogicalOperator } from './logical-operator.js';

/** `CALL ns.name(args) YIELD ...`: one output row per procedure record. */
export interface ProcedureCall {
  readonly op: 'ProcedureCall';
  readonly input: LogicalOperator;
  readonly name: string;
  /** null: standalone call without parentheses (arguments come from parameters). */
  readonly args: readonly Expression[] | null;
  /** Output field to variable; all fields when `yieldAll`. */
  readonly yields: readonly { readonly field: string; readonly variable: string }[];
  readonly yieldAll: boolean;
  readonly optional: boolean;
  /** The procedure's access mode (WRITE and SCHEMA need write permission). */
  readonly mode?: 'READ' | 'WRITE' | 'SCHEMA' | 'DBMS';
}
