/** The writer of a WRITE or SCHEMA procedure's transaction. */
import { StatusCodes, graphError } from '../../errors/index.js';
import type { GraphWriter } from '../../storage/graph-store.js';
import type { ProcedureContext } from './registry.js';

/** The transaction's writer, or Neo4j's error for a write in a read transaction. */
export function requireProcedureWriter(ctx: ProcedureContext): GraphWriter {
  if (ctx.writer === undefined || ctx.writer === null) {
    throw graphError(
      StatusCodes.ForbiddenDueToTransactionType,
      `Writing in read access mode not allowed. Attempted write to database ${ctx.databaseName}`,
    );
  }
  return ctx.writer;
}
