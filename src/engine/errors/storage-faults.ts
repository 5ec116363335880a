/**
 * Storage faults (errors of the SQLite layer, recognised by their `SQLITE_*` result code) as
 * specific Neo4j status codes with a message saying what happened and what to do, instead of
 * `Neo.DatabaseError.General.UnknownError`:
 *
 * | SQLite result code | Neo4j code | retry? |
 * |---|---|---|
 * | `SQLITE_FULL` (disk or page limit full) | `Neo.DatabaseError.Transaction.TransactionCommitFailed` | after freeing space |
 * | `SQLITE_IOERR*` | `Neo.DatabaseError.Transaction.TransactionLogError` | no |
 * | `SQLITE_BUSY*`, `SQLITE_LOCKED*` | `Neo.TransientError.General.DatabaseUnavailable` | yes (drivers retry) |
 * | `SQLITE_NOMEM` | `Neo.TransientError.General.OutOfMemoryError` | yes |
 * | `SQLITE_READONLY*` | `Neo.ClientError.General.ForbiddenOnReadOnlyDatabase` | no |
 * | `SQLITE_CORRUPT*`, `SQLITE_NOTADB` | `Neo.DatabaseError.General.StorageDamageDetected` | no |
 * | `SQLITE_CANTOPEN*` | `Neo.TransientError.General.DatabaseUnavailable` | yes |
 */
import { DatabaseError, GraphError, graphError } from './graph-error.js';
import { StatusCodes } from './status-codes.js';

/** The `SQLITE_*` code of a storage error, or null. */
export function sqliteCode(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : null;
}

/** The GraphError of a storage fault, or null when `error` is not one. */
export function storageFault(error: unknown): GraphError | null {
  const code = sqliteCode(error);
  if (code === null) return null;
  const detail = `${error instanceof Error ? error.message : String(error)} (${code})`;
  const options = { cause: error };
  if (code === 'SQLITE_FULL') {
    return new DatabaseError(
      StatusCodes.TransactionCommitFailed,
      `The storage is full: ${detail}. Nothing of the failed transaction was written; free disk space (or raise the database size limit) and retry.`,
      options,
    );
  }
  if (code.startsWith('SQLITE_IOERR')) {
    return new DatabaseError(
      StatusCodes.TransactionLogError,
      `A storage I/O error occurred: ${detail}. The transaction was rolled back; check the disk and the server log.`,
      options,
    );
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED') || code.startsWith('SQLITE_CANTOPEN')) {
    return graphError(
      StatusCodes.DatabaseUnavailable,
      `The storage is temporarily unavailable: ${detail}. Retry the transaction.`,
      options,
    );
  }
  if (code === 'SQLITE_NOMEM') {
    return graphError(StatusCodes.OutOfMemoryError, `The storage ran out of memory: ${detail}. Retry the transaction.`, options);
  }
  if (code.startsWith('SQLITE_READONLY')) {
    return graphError(StatusCodes.ForbiddenOnReadOnlyDatabase, `The storage is read-only: ${detail}.`, options);
  }
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') {
    return new DatabaseError(StatusCodes.StorageDamageDetected, `Storage damage detected: ${detail}. Restore from a backup.`, options);
  }
  return null;
}
