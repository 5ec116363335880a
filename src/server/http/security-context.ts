/**
 * The one place where a request gets its SecurityContext. Routes declare their access level in
 * `config.auth` ('public', 'authenticated' or 'admin'); this hook resolves credentials (HTTP
 * Basic, Bearer JWT or the `graphdb_token` cookie, through the auth service) and refuses
 * requests that lack them (401) or lack the admin permission on admin routes (403).
 */
import type { FastifyRequest } from 'fastify';
import type { AuthService } from '../../engine/auth/index.js';
import type { AuthSettings } from '../../engine/config/index.js';
import { Forbidden, GraphError, Unauthorized, type SecurityContext } from '../../engine/index.js';
import { authenticateHttp } from '../credentials.js';

/** Access level of a route. */
export type AccessLevel = 'public' | 'authenticated' | 'admin';

/** The context of a request when authentication is disabled: full access. */
export const UNRESTRICTED: SecurityContext = Object.freeze({ username: null, roles: Object.freeze(['admin']) });

/** The context of an anonymous request on a public route: no statement may run with it. */
export const ANONYMOUS: SecurityContext = Object.freeze({
  username: null,
  roles: Object.freeze([]),
  authorize(database: string, permission: string): void {
    throw new Forbidden(`Permission denied: '${permission}' on database '${database}' needs authentication.`);
  },
});

/** Resolves and enforces access for a route of the given level. */
export async function securityContextFor(
  request: FastifyRequest,
  level: AccessLevel,
  settings: AuthSettings,
  auth: AuthService | null,
): Promise<SecurityContext> {
  if (!settings.enabled) return UNRESTRICTED;
  if (auth === null) {
    if (level === 'public') return ANONYMOUS;
    throw new Unauthorized();
  }
  let context: SecurityContext | null;
  try {
    context = (await authenticateHttp(auth, request.headers, request.clientIp || null))?.context ?? null;
  } catch (error) {
    if (level === 'public' && error instanceof GraphError) return ANONYMOUS;
    throw error;
  }
  if (context === null) {
    if (level === 'public') return ANONYMOUS;
    throw new Unauthorized();
  }
  if (level === 'admin' && !auth.isAdmin(context)) {
    throw new Forbidden('Permission denied: this endpoint requires the admin role.');
  }
  return context;
}
