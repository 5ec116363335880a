import { DatabaseError, GraphError } from './graph-error.js';
import { StatusCodes } from './status-codes.js';
import { storageFault } from './storage-faults.js';

/**
 * Wraps anything thrown into a GraphError: storage faults get their specific codes
 * (storage-faults.ts), anything else becomes DatabaseError.UnknownError.
 */
export function toGraphError(error: unknown): GraphError {
  if (error instanceof GraphError) return error;
  const fault = storageFault(error);
  if (fault !== null) return fault;
  const message = error instanceof Error ? error.message : String(error);
  return new DatabaseError(StatusCodes.UnknownError, message, { cause: error });
}
