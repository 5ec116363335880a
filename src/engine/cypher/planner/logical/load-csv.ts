import type { Expression } from '../../ast/index.js';
import type { LogicalOperator } from './logical-operator.js';

/** LOAD CSV from a local file: one row per record (a list, or a map WITH HEADERS). */
export interface LoadCsv {
  readonly op: 'LoadCsv';
  readonly input: LogicalOperator;
  readonly source: Expression;
  readonly variable: string;
  readonly withHeaders: boolean;
  readonly fieldTerminator: string;
}
