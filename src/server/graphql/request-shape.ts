/**
 * The shape of a GraphQL-over-HTTP request, checked before mercurius sees it: a batch (a JSON
 * array), a non-string `query`, non-object `variables` or a non-string `operationName` are
 * client errors (`Neo.ClientError.Request.Invalid`), never internal ones.
 */
import { StatusCodes, GraphError, graphError } from '../../engine/index.js';

function invalid(message: string): GraphError {
  return graphError(StatusCodes.InvalidRequest, message);
}

/** Throws a ClientError unless `body` is one GraphQL request object with well-typed members. */
export function checkGraphqlBody(body: unknown): void {
  if (Array.isArray(body)) throw invalid('Batched GraphQL requests (a JSON array) are not supported: send one request object per POST');
  if (body === null || typeof body !== 'object') throw invalid('A GraphQL request body must be a JSON object with a "query" string');
  const { query, variables, operationName, extensions } = body as Record<string, unknown>;
  if (typeof query !== 'string' && !(query === undefined && extensions !== undefined)) {
    throw invalid(`"query" must be a string, got ${query === null ? 'null' : Array.isArray(query) ? 'an array' : typeof query}`);
  }
  if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) {
    throw invalid(`"variables" must be a JSON object or null, got ${Array.isArray(variables) ? 'an array' : typeof variables}`);
  }
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') {
    throw invalid(`"operationName" must be a string or null, got ${typeof operationName}`);
  }
  if (extensions !== undefined && extensions !== null && (typeof extensions !== 'object' || Array.isArray(extensions))) {
    throw invalid('"extensions" must be a JSON object or null');
  }
}
