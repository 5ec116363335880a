/**
 * Maps graphdb errors to gRPC status codes, once, for every vector-API call, through the shared
 * table of error-mapping.ts: authentication to UNAUTHENTICATED, RBAC to PERMISSION_DENIED, other
 * client errors (wrong dimensions, malformed filters, Cypher argument and type errors) to
 * INVALID_ARGUMENT, write conflicts to ABORTED, other transient errors to UNAVAILABLE, login
 * throttling to RESOURCE_EXHAUSTED; unknown collections are NOT_FOUND and existing ones
 * ALREADY_EXISTS. Database errors and anything unexpected become INTERNAL with a generic message
 * (the detail goes to the log).
 */
import { Code, ConnectError } from '@connectrpc/connect';
import { CollectionAlreadyExists, CollectionNotFound, toGraphError } from '../../engine/index.js';
import { errorMapping } from '../error-mapping.js';

/** The gRPC error for a thrown value. */
export function toConnectError(error: unknown, onInternal: (error: unknown) => void): ConnectError {
  if (error instanceof ConnectError) return error;
  if (error instanceof CollectionNotFound) return new ConnectError(error.message, Code.NotFound);
  if (error instanceof CollectionAlreadyExists) return new ConnectError(error.message, Code.AlreadyExists);
  const graphError = toGraphError(error);
  const code = errorMapping(graphError).grpcCode;
  if (code !== Code.Internal) return new ConnectError(graphError.message, code);
  onInternal(error);
  return new ConnectError('Internal error', Code.Internal);
}
