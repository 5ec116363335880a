/**
 * The one place where a request gets its SecurityContext. Routes declare their access level in
 * `config.auth` ('public', 'authenticated' or 'admin'); this hook resolves credentials and
 * refuses requests that lack them. Today: no-auth mode, or HTTP Basic against the initial
 * credentials (`GRAPHDB_AUTH=user:secret`); JWT bearer tokens plug in here.
 */
import type { FastifyRequest } from 'fastify';
import type { AuthSettings } from '../../engine/config/types.js';
import { Forbidden, Unauthorized } from '../../engine/errors/index.js';
import type { SecurityContext } from '../../engine/session/types.js';
import { verifyPassword } from '../credentials.js';

/** Access level of a route. */
export type AccessLevel = 'public' | 'authenticated' | 'admin';

/** The context of a request when authentication is disabled: full access. */
export const UNRESTRICTED: SecurityContext = Object.freeze({ username: null, roles: Object.freeze(['admin']) });

/** The context of an anonymous request on a public route. */
export const ANONYMOUS: SecurityContext = Object.freeze({ username: null, roles: Object.freeze([]) });

/** Resolves the credentials of a request to a SecurityContext, or null when there are none or they are wrong. */
export function authenticate(request: FastifyRequest, auth: AuthSettings): SecurityContext | null {
  const header = request.headers.authorization;
  if (header === undefined) return null;
  const [scheme, token] = header.split(' ', 2);
  if (scheme?.toLowerCase() !== 'basic' || token === undefined) return null;
  const decoded = Buffer.from(token, 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  if (separator < 0) return null;
  return verifyPassword(auth, decoded.slice(0, separator), decoded.slice(separator + 1));
}

/** Resolves and enforces access for a route of the given level. */
export function securityContextFor(request: FastifyRequest, level: AccessLevel, auth: AuthSettings): SecurityContext {
  if (!auth.enabled) return UNRESTRICTED;
  const context = authenticate(request, auth);
  if (context === null) {
    if (level === 'public') return ANONYMOUS;
    throw new Unauthorized();
  }
  if (level === 'admin' && !context.roles.includes('admin')) {
    throw new Forbidden('Permission denied: this endpoint requires the admin role.');
  }
  return context;
}
