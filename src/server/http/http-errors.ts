/**
 * The one mapping from errors to HTTP responses. Every error body has the Neo4j shape
 * `{errors: [{code, message}]}`; the status is the one error-mapping.ts gives the code.
 */
import { GraphError, StatusCodes, toGraphError } from '../../engine/index.js';
import { errorMapping } from '../error-mapping.js';

/** Neo4j-style error entry. */
export interface ErrorEntry {
  readonly code: string;
  readonly message: string;
}

/** Fastify's own errors (bad JSON, body too large, validation) carry these fields. */
interface FrameworkError {
  readonly code?: string;
  readonly statusCode?: number;
  readonly validation?: unknown;
  readonly message: string;
}

/** An error entry plus the HTTP status it answers with. */
export interface MappedError {
  readonly status: number;
  readonly entry: ErrorEntry;
}

/** Maps any thrown value to a status and a Neo4j error entry. */
export function mapError(error: unknown): MappedError {
  if (error instanceof GraphError) {
    return { status: errorMapping(error).httpStatus, entry: { code: error.code, message: error.message } };
  }
  const framework = error as FrameworkError;
  if (framework !== null && typeof framework === 'object' && typeof framework.statusCode === 'number') {
    if (framework.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return { status: 413, entry: { code: StatusCodes.InvalidRequest, message: `Request body is too large: ${framework.message}` } };
    }
    if (framework.statusCode === 404) {
      return { status: 404, entry: { code: StatusCodes.InvalidRequest, message: framework.message } };
    }
    if (framework.statusCode < 500) {
      const code = framework.validation !== undefined ? StatusCodes.InvalidRequest : StatusCodes.InvalidFormat;
      return { status: framework.statusCode, entry: { code, message: framework.message } };
    }
  }
  const wrapped = toGraphError(error);
  return { status: errorMapping(wrapped).httpStatus, entry: { code: wrapped.code, message: wrapped.message } };
}

/** An error entry for a statement failure reported inside a 200/201 transactional response. */
export function statementErrorEntry(error: unknown): ErrorEntry {
  const wrapped = toGraphError(error);
  return { code: wrapped.code, message: wrapped.message };
}
