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

/** Called for credentials that were presented but rejected (a security audit event). */
export type FailedLoginReporter = (username: string | null, reason: string) => void;

/** The outcome of reading a request's credentials. */
type Credentials =
  | { readonly kind: 'none' }
  | { readonly kind: 'valid'; readonly context: SecurityContext }
  | { readonly kind: 'invalid'; readonly username: string | null; readonly reason: string };

/** Reads and checks the credentials of a request. */
export function authenticate(request: FastifyRequest, auth: AuthSettings): Credentials {
  const header = request.headers.authorization;
  if (header === undefined) return { kind: 'none' };
  const [scheme, token] = header.split(' ', 2);
  if (scheme?.toLowerCase() !== 'basic') return { kind: 'invalid', username: null, reason: `unsupported scheme ${scheme ?? ''}` };
  const decoded = Buffer.from(token ?? '', 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  if (separator < 0) return { kind: 'invalid', username: null, reason: 'malformed basic credentials' };
  const username = decoded.slice(0, separator);
  const context = verifyPassword(auth, username, decoded.slice(separator + 1));
  return context === null ? { kind: 'invalid', username, reason: 'wrong username or password' } : { kind: 'valid', context };
}

/** Resolves and enforces access for a route of the given level. */
export function securityContextFor(
  request: FastifyRequest,
  level: AccessLevel,
  auth: AuthSettings,
  reportFailure: FailedLoginReporter = () => {},
): SecurityContext {
  if (!auth.enabled) return UNRESTRICTED;
  const credentials = authenticate(request, auth);
  if (credentials.kind === 'invalid') reportFailure(credentials.username, credentials.reason);
  if (credentials.kind !== 'valid') {
    if (level === 'public') return ANONYMOUS;
    throw new Unauthorized();
  }
  const { context } = credentials;
  if (level === 'admin' && !context.roles.includes('admin')) {
    throw new Forbidden('Permission denied: this endpoint requires the admin role.');
  }
  return context;
}
