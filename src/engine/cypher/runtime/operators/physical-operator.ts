/**
 * Physical operators: every operator is a function from an input row stream to an output row
 * stream (pull-based sync generators). Leaves ignore nothing: a scan runs once per input row.
 */
import { CypherSyntaxError } from '../../../errors/index.js';
import type { CypherValue } from '../../../values/types.js';
import type { Expression } from '../../ast/index.js';
import type { LogicalOperator } from '../../planner/logical/logical-operator.js';
import type { ExecutionContext } from '../execution-context.js';
import type { CompileEnv, Evaluator } from '../expressions/evaluator.js';
import { isSignal } from '../row.js';
import { estimateRowBytes } from '../../memory/estimate.js';
import type { Emission, Row, RowStream, Signal } from '../row.js';
import { valueText } from '../../../values/to-string.js';

/** A physical operator: consumes `input`, produces rows lazily. */
export type PhysicalOperator = (ctx: ExecutionContext, input: RowStream) => RowStream;

/** What the per-operator mapping functions need. */
export interface Mapper {
  /** Maps a logical operator (recursively) to its physical operator. */
  map(op: LogicalOperator): PhysicalOperator;
  /** Compiles an expression in the scope visible at `op`'s output. */
  compile(expression: Expression): Evaluator;
  readonly env: CompileEnv;
  /** True under PROFILE: every logical operator keeps its own physical operator (no fusion). */
  readonly profiling: boolean;
  /** Maps a separately planned logical plan with its own compile environment (a constituent's subquery). */
  mapPlan(op: LogicalOperator, env: CompileEnv): PhysicalOperator;
  /**
   * Row counts a LIMIT expects from the node scans below it (set by `mapLimit` before it maps its
   * input, read by the scans): only the size of a scan's first page, never its rows.
   */
  readonly expectedRows: Map<LogicalOperator, Expression>;
}

/** A stream of exactly one row. */
export function* single(row: Row): RowStream {
  yield row;
}

/** A stream over rows held in memory. */
export function* fromRows(rows: Iterable<Row>): RowStream {
  yield* rows;
}

/** Applies `perRow` to each input row, passing pause markers through. */
export function* flatMapRows(input: RowStream, perRow: (row: Row) => Iterable<Emission>): RowStream {
  for (const row of input) {
    if (isSignal(row)) {
      yield row;
      continue;
    }
    yield* perRow(row);
  }
}

/**
 * Pulls every row of `input` into memory, yielding pauses along the way; each row is charged to
 * the statement's memory tracker.
 */
export function* drain(ctx: ExecutionContext, input: RowStream, into: Row[]): Generator<Signal, void, undefined> {
  for (const row of input) {
    if (isSignal(row)) {
      yield row;
      continue;
    }
    ctx.memory.charge(estimateRowBytes(row));
    into.push(row);
  }
}

/** Evaluates a SKIP/LIMIT count: a non-negative integer. */
export function evaluateCount(evaluator: Evaluator, row: Row, ctx: ExecutionContext, clause: string): number {
  const value: CypherValue = evaluator(row, ctx);
  return checkCount(value, clause);
}

/** Validates a SKIP/LIMIT value. */
export function checkCount(value: CypherValue, clause: string): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  if (typeof value === 'bigint' && value >= 0n) return Number(value);
  throw countError(value, clause);
}

function countError(value: CypherValue, clause: string): Error {
  if (typeof value === 'bigint' && value < 0n) {
    return new CypherSyntaxError(`Invalid input. '${value}' is not a valid value. Must be a non-negative integer.`, {
      detail: 'NegativeIntegerArgument',
    });
  }
  return new CypherSyntaxError(`Invalid input for ${clause}: '${valueText(value)}' is not a valid value. Must be a non-negative integer.`, {
    detail: 'InvalidArgumentType',
  });
}
