/**
 * The bridge between the listeners and the auth service (src/engine/auth): opening it at
 * startup (refusing to start without a valid JWT secret when auth is enabled), reading HTTP
 * credentials (Basic, Bearer, the `graphdb_token` cookie) and the Bolt authenticate callback
 * (basic user+password, basic with an empty principal and a JWT, bearer, none when anonymous
 * access is enabled → viewer). Both listeners end with a Principal from the same service.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Logger } from 'pino';
import { AuthService, MIN_SECRET_BYTES, OidcClient, type Principal, securityAdmin } from '../engine/auth/index.js';
import type { GraphdbConfig } from '../engine/config/index.js';
import { Unauthorized, type GraphDB } from '../engine/index.js';
import type { AuthenticateCallback } from './bolt/options.js';
import type { GraphdbMetrics } from './metrics.js';

/** Name of the cookie `POST /auth/token` sets. */
export const TOKEN_COOKIE = 'graphdb_token';

/** Startup refused because of the JWT secret. */
export class JwtSecretError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JwtSecretError';
  }
}

/** Opens the auth service of a server; null when authentication is disabled. */
export async function openAuthService(
  config: GraphdbConfig,
  graphdb: GraphDB,
  logger: Logger,
  metrics: GraphdbMetrics,
  now?: () => number,
): Promise<AuthService | null> {
  if (!config.auth.enabled) return null;
  const secret = config.auth.jwt_secret;
  if (Buffer.byteLength(secret) < MIN_SECRET_BYTES) {
    throw new JwtSecretError(
      `authentication is enabled but GRAPHDB_JWT_SECRET is ${secret === '' ? 'not set' : 'too short'}: it must be at least ${MIN_SECRET_BYTES} bytes (or use --no-auth)`,
    );
  }
  const service = await AuthService.open({
    systemSession: () => graphdb.session({ database: 'system' }),
    resolveDatabase: (name) => graphdb.databaseServices.resolve(name),
    defaultDatabase: graphdb.defaultDatabase,
    jwtSecret: secret,
    // A member whose system database came from its cluster's log has the cluster's users: it seeds none locally.
    initialCredentials: config.cluster.nats_url.length > 0 && graphdb.systemReplicated ? '' : config.auth.initial_credentials,
    audit: (event) =>
      event.type === 'failed_login' || event.type === 'login_locked'
        ? logger.warn(event, 'authentication failed')
        : logger.info(event, 'security event'),
    onRateLimited: () => metrics.rateLimitHits.inc(),
    guard: {
      maxFailuresPerUser: config.auth.max_failed_attempts,
      lockoutMs: config.auth.lock_time,
      windowMs: config.auth.failed_attempts_window,
    },
    maxTokenSeconds: Math.max(1, Math.floor(config.auth.token_max_lifetime / 1000)),
    verifiedCacheMaxBytes: config.dbms.memory.auth_cache.max_size,
    clusterTokensNeverExpire: config.auth.cluster_tokens_never_expire,
    ...(now === undefined ? {} : { now }),
    ...(config.auth.oauth_issuer !== '' ? { oidc: { client: oidcClient(config), defaultRole: config.auth.oauth_default_role } } : {}),
  });
  graphdb.setSecurityAdministration((security) => securityAdmin(service, security));
  // Users, roles and privileges another cluster member changed take effect here too.
  graphdb.onSystemReplicated(() => service.store.reload(false));
  return service;
}

function oidcClient(config: GraphdbConfig): OidcClient {
  const { auth } = config;
  if (auth.oauth_client_id === '' || auth.oauth_redirect_uri === '') {
    throw new Error('GRAPHDB_OAUTH_ISSUER needs GRAPHDB_OAUTH_CLIENT_ID and GRAPHDB_OAUTH_REDIRECT_URI');
  }
  return new OidcClient({
    issuer: auth.oauth_issuer,
    clientId: auth.oauth_client_id,
    clientSecret: auth.oauth_client_secret,
    redirectUri: auth.oauth_redirect_uri,
    scopes: auth.oauth_scopes,
  });
}

/** Credentials found in an HTTP request. */
export type HttpCredentials =
  | { readonly kind: 'none' }
  | { readonly kind: 'basic'; readonly username: string; readonly password: string }
  | { readonly kind: 'token'; readonly token: string }
  | { readonly kind: 'malformed'; readonly reason: string };

function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator > 0 && part.slice(0, separator).trim() === name) return decodeURIComponent(part.slice(separator + 1).trim());
  }
  return null;
}

/** Reads the Authorization header, falling back to the `graphdb_token` cookie. */
export function httpCredentials(headers: IncomingHttpHeaders): HttpCredentials {
  const header = headers.authorization;
  if (header === undefined) {
    const cookie = cookieValue(headers.cookie, TOKEN_COOKIE);
    return cookie ? { kind: 'token', token: cookie } : { kind: 'none' };
  }
  const space = header.indexOf(' ');
  const scheme = (space < 0 ? header : header.slice(0, space)).toLowerCase();
  const value = space < 0 ? '' : header.slice(space + 1).trim();
  if (scheme === 'bearer') return value === '' ? { kind: 'malformed', reason: 'empty bearer token' } : { kind: 'token', token: value };
  if (scheme !== 'basic') return { kind: 'malformed', reason: `unsupported scheme ${scheme}` };
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  if (separator < 0) return { kind: 'malformed', reason: 'malformed basic credentials' };
  return { kind: 'basic', username: decoded.slice(0, separator), password: decoded.slice(separator + 1) };
}

/**
 * Authenticates an HTTP request: null without credentials; throws Unauthorized, TokenExpired or
 * AuthenticationRateLimit for credentials that are not accepted (the service audits them).
 */
export async function authenticateHttp(service: AuthService, headers: IncomingHttpHeaders, ip: string | null): Promise<Principal | null> {
  const credentials = httpCredentials(headers);
  switch (credentials.kind) {
    case 'none':
      return null;
    case 'basic':
      return service.authenticatePassword(credentials.username, credentials.password, ip);
    case 'token':
      return service.authenticateToken(credentials.token, ip);
    case 'malformed':
      service.recordFailedLogin(null, ip, credentials.reason);
      throw new Unauthorized(`The client is unauthorized due to authentication failure: ${credentials.reason}.`);
  }
}

/**
 * The Bolt authenticate callback over the auth service. The connection's peer IP goes to the
 * service so failed logins are audited with it and the per-IP login limits apply to Bolt too.
 */
export function boltAuthenticator(service: AuthService, allowAnonymous: boolean): AuthenticateCallback {
  return async (scheme, principal, credentials, _token, clientIp) => {
    if (scheme === 'none') {
      if (allowAnonymous) return service.contextFor(null, ['viewer']);
      throw new Unauthorized('Anonymous access is disabled.');
    }
    if (scheme === 'bearer' && credentials) return (await service.authenticateToken(credentials, clientIp)).context;
    if (scheme === 'basic' && credentials !== null) {
      if (principal === null || principal === '') return (await service.authenticateToken(credentials, clientIp)).context;
      return (await service.authenticatePassword(principal, credentials, clientIp)).context;
    }
    throw new Unauthorized(`Unsupported authentication scheme '${scheme}'.`);
  };
}
