/**
 * What every vector-API handler shares: authenticate the call, check the permission it needs on
 * the collections database (read, write, delete or schema), open a session with the caller's
 * security context (so every statement is authorized again by the engine), and turn errors into
 * gRPC status codes.
 */
import { createContextKey, type HandlerContext } from '@connectrpc/connect';
import type { AuthService } from '../../engine/auth/index.js';
import { type Permission, PointCollections } from '../../engine/index.js';
import type { ServerEngine } from '../engine-port.js';
import { callSecurityContext } from './auth.js';
import { toConnectError } from './errors.js';

/** Context value carrying the peer address of a call (for auth auditing and throttling). */
export const CLIENT_IP = createContextKey<string | null>(null);

/** Dependencies of the vector-API services. */
export interface VectorApiDependencies {
  readonly engine: Pick<ServerEngine, 'session'>;
  /** Null when authentication is disabled. */
  readonly auth: AuthService | null;
  /** Database holding the collections; undefined = the default database. */
  readonly database?: string;
  /** Logs unexpected errors. */
  readonly onInternalError: (error: unknown) => void;
}

/** Runs one call's work with the caller's collections. */
export async function withCollections<T>(
  deps: VectorApiDependencies,
  context: HandlerContext,
  permission: Permission,
  work: (collections: PointCollections) => Promise<T>,
): Promise<T> {
  try {
    const security = await callSecurityContext(deps.auth, context.requestHeader, context.values.get(CLIENT_IP));
    const session = deps.engine.session({ ...(deps.database === undefined ? {} : { database: deps.database }), security });
    try {
      security.authorize?.(session.database, permission);
      return await work(new PointCollections(session));
    } finally {
      await session.close();
    }
  } catch (error) {
    throw toConnectError(error, deps.onInternalError);
  }
}

/** Seconds elapsed since `start` (the `time` field of every response). */
export function elapsedSeconds(start: number): number {
  return (performance.now() - start) / 1000;
}
