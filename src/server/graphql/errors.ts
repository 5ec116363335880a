/**
 * GraphQL error mapping, the same on every transport: engine errors (`GraphError`) carry their
 * Neo4j status code in `extensions.code`; validation and limit errors keep their own codes
 * (`GRAPHQL_VALIDATION_FAILED`, `GRAPHQL_QUERY_TOO_DEEP`, ...); request errors (unparsable
 * JSON, wrongly shaped bodies, 4xx errors of fastify/mercurius) are `Neo.ClientError.Request.*`;
 * anything unexpected is reported as `Neo.DatabaseError.General.UnknownError` without internal
 * details.
 */
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { GraphError, StatusCodes } from '../../engine/index.js';

/** Code given to schema validation errors that have none. */
export const VALIDATION_FAILED = 'GRAPHQL_VALIDATION_FAILED';

function codeOf(error: GraphQLError): { code: string; message: string } {
  const original = error.originalError;
  if (original instanceof GraphError) return { code: original.code, message: original.message };
  if (typeof error.extensions.code === 'string') return { code: error.extensions.code, message: error.message };
  if (original === undefined || original instanceof GraphQLError) return { code: VALIDATION_FAILED, message: error.message };
  // Request errors of fastify and mercurius (unparsable JSON, schema validation, media type)
  // carry a 4xx status: bad input is a client error.
  if (original instanceof SyntaxError) return { code: StatusCodes.InvalidFormat, message: error.message };
  const status = (original as { statusCode?: unknown }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return { code: StatusCodes.InvalidRequest, message: error.message };
  return { code: StatusCodes.UnknownError, message: error.message };
}

/** A GraphQL error with `extensions.code` set. */
export function formatError(error: GraphQLError): GraphQLFormattedError {
  const { code, message } = codeOf(error);
  const formatted = error.toJSON();
  return { ...formatted, message, extensions: { ...formatted.extensions, code } };
}

/** Wraps any error as a GraphQLError carrying its code. */
export function toGraphqlError(error: unknown): GraphQLError {
  if (error instanceof GraphQLError) return error;
  const cause = error instanceof Error ? error : new Error(String(error));
  return new GraphQLError(cause.message, { originalError: cause });
}
