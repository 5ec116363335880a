/**
 * Maps graphdb errors to gRPC status codes, once, for every vector-API call: authentication to
 * UNAUTHENTICATED, RBAC to PERMISSION_DENIED, unknown collections to NOT_FOUND, existing ones to
 * ALREADY_EXISTS, bad input (wrong dimensions, malformed filters, Cypher argument and type errors)
 * to INVALID_ARGUMENT, write conflicts to ABORTED, login throttling to RESOURCE_EXHAUSTED.
 * Anything unexpected becomes INTERNAL with a generic message (the detail goes to the log).
 */
import { Code, ConnectError } from '@connectrpc/connect';
import {
  ArgumentError,
  ClientError,
  CypherTypeError,
  GraphError,
  TransientError,
  StatusCodes,
  CollectionAlreadyExists,
  CollectionNotFound,
} from '../../engine/index.js';

const BY_STATUS: ReadonlyMap<string, Code> = new Map([
  [StatusCodes.Unauthorized, Code.Unauthenticated],
  [StatusCodes.TokenExpired, Code.Unauthenticated],
  [StatusCodes.Forbidden, Code.PermissionDenied],
  [StatusCodes.AuthenticationRateLimit, Code.ResourceExhausted],
  [StatusCodes.DatabaseNotFound, Code.NotFound],
]);

/** The gRPC error for a thrown value. */
export function toConnectError(error: unknown, onInternal: (error: unknown) => void): ConnectError {
  if (error instanceof ConnectError) return error;
  if (error instanceof CollectionNotFound) return new ConnectError(error.message, Code.NotFound);
  if (error instanceof CollectionAlreadyExists) return new ConnectError(error.message, Code.AlreadyExists);
  if (error instanceof GraphError) {
    const code = BY_STATUS.get(error.code);
    if (code !== undefined) return new ConnectError(error.message, code);
    if (error instanceof TransientError) return new ConnectError(error.message, Code.Aborted);
    if (error instanceof ArgumentError || error instanceof CypherTypeError || error instanceof ClientError) {
      return new ConnectError(error.message, Code.InvalidArgument);
    }
  }
  onInternal(error);
  return new ConnectError('Internal error', Code.Internal);
}
