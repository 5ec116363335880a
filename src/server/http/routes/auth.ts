/**
 * Route group of authentication: `POST /auth/token` (public; JSON `{username, password}` →
 * access token, also the `graphdb_token` cookie), `POST /auth/logout` (revokes the token used),
 * `GET /auth/me`, `POST /auth/api-token` (admin), `POST /api/v1/auth/cluster-token` (admin; no
 * expiry unless `expires_in` is given) and service accounts under `/api/v1/service-accounts`
 * (admin; create, get, patch). Registered by the server assembly only when auth is enabled.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { AuthService, type IssuedToken } from '../../../engine/auth/index.js';
import { ClientError, StatusCodes, Unauthorized } from '../../../engine/index.js';
import { TOKEN_COOKIE, httpCredentials } from '../../credentials.js';

const admin = { auth: 'admin' } as const;
const authenticated = { auth: 'authenticated' } as const;
const publicRoute = { auth: 'public' } as const;
const anyObject = { type: 'object', additionalProperties: true } as const;
const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'string' } } } as const;

/** Default lifetime of API tokens: 90 days. */
const API_TOKEN_SECONDS = 90 * 24 * 3600;

function invalid(message: string): ClientError {
  return new ClientError(StatusCodes.InvalidRequest, message);
}

function body(request: FastifyRequest): Record<string, unknown> {
  const value = request.body;
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function optionalString(fields: Record<string, unknown>, key: string): string | undefined {
  const value = fields[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value === '') throw invalid(`'${key}' must be a non-empty string.`);
  return value;
}

function requiredString(fields: Record<string, unknown>, key: string): string {
  const value = optionalString(fields, key);
  if (value === undefined) throw invalid(`'${key}' is required.`);
  return value;
}

/** `expires_in` in seconds: a positive integer, or undefined when absent. */
function expiresIn(fields: Record<string, unknown>): number | undefined {
  const raw = fields.expires_in;
  if (raw === undefined || raw === null) return undefined;
  // The HTTP JSON parser reads integers exactly (bigint).
  const value = typeof raw === 'bigint' ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0)
    throw invalid("'expires_in' must be a positive number of seconds.");
  return value;
}

function tokenBody(issued: IssuedToken): Record<string, unknown> {
  const { exp } = issued.claims;
  return {
    access_token: issued.token,
    token_type: 'Bearer',
    expires_in: exp === undefined ? null : exp - issued.claims.iat,
    expires_at: exp === undefined ? null : new Date(exp * 1000).toISOString(),
  };
}

function accountView(user: { username: string; roles: readonly string[]; suspended: boolean }): Record<string, unknown> {
  return { id: user.username, role: user.roles[0] ?? null, roles: user.roles, disabled: user.suspended };
}

/** The route plugin over an auth service. */
export function authRoutes(auth: AuthService): FastifyPluginAsync {
  const actorOf = (request: FastifyRequest): string | null => request.security.username;

  const setCookie = (reply: FastifyReply, value: string, maxAgeSeconds: number): void => {
    void reply.header(
      'set-cookie',
      `${TOKEN_COOKIE}=${encodeURIComponent(value)}; Path=/; Max-Age=${maxAgeSeconds}; Secure; HttpOnly; SameSite=Strict`,
    );
  };

  return async (app: FastifyInstance) => {
    app.post(
      '/auth/token',
      { config: publicRoute, schema: { summary: 'Exchange username and password for an access token', tags: ['auth'], body: anyObject } },
      async (request, reply) => {
        const fields = body(request);
        const username = requiredString(fields, 'username');
        const password = fields.password;
        if (typeof password !== 'string') throw invalid("'password' is required.");
        await auth.authenticatePassword(username, password, request.clientIp || null);
        const issued = await auth.issueUserToken(username, 'access', auth.accessTokenSeconds, request.clientIp || null);
        setCookie(reply, issued.token, auth.accessTokenSeconds);
        return tokenBody(issued);
      },
    );

    app.get(
      '/auth/oauth/redirect',
      { config: publicRoute, schema: { summary: 'Start an OpenID Connect login (redirects to the identity provider)', tags: ['auth'] } },
      async (_request, reply) => {
        if (!auth.oidc) throw Object.assign(new Error('OAuth is not configured (GRAPHDB_OAUTH_ISSUER).'), { statusCode: 404 });
        return reply.redirect(await auth.oidc.client.authorizationUrl(), 302);
      },
    );

    app.get<{ Querystring: Record<string, string | undefined> }>(
      '/auth/oauth/callback',
      {
        config: publicRoute,
        schema: { summary: 'OpenID Connect callback: verifies the login and returns an access token (also as cookie)', tags: ['auth'] },
      },
      async (request, reply) => {
        if (!auth.oidc) throw Object.assign(new Error('OAuth is not configured (GRAPHDB_OAUTH_ISSUER).'), { statusCode: 404 });
        const { code, state, error } = request.query;
        const ip = request.clientIp || null;
        if (typeof error === 'string' || typeof code !== 'string' || typeof state !== 'string') {
          auth.recordFailedLogin(null, ip, `oauth callback without a code${typeof error === 'string' ? ` (${error})` : ''}`);
          throw new Unauthorized('The OAuth callback carries no authorization code.');
        }
        let identity;
        try {
          identity = await auth.oidc.client.complete(code, state);
        } catch (failure) {
          auth.recordFailedLogin(null, ip, `oauth: ${failure instanceof Error ? failure.message : String(failure)}`);
          throw failure;
        }
        const issued = await auth.externalLogin(identity.username, auth.oidc.defaultRole, ip);
        setCookie(reply, issued.token, auth.accessTokenSeconds);
        return { ...tokenBody(issued), username: identity.username };
      },
    );

    app.post(
      '/auth/logout',
      {
        config: { ...authenticated, leader: true },
        schema: { summary: 'Revoke the token of this request and clear the cookie', tags: ['auth'] },
      },
      async (request, reply) => {
        const credentials = httpCredentials(request.headers);
        let revoked = false;
        if (credentials.kind === 'token') {
          const principal = await auth.authenticateToken(credentials.token, request.clientIp || null);
          if (principal.token) {
            await auth.revokeToken(principal.token, principal.context.username);
            revoked = true;
          }
        }
        setCookie(reply, '', 0);
        return { revoked };
      },
    );

    app.get('/auth/me', { config: authenticated, schema: { summary: 'The current principal', tags: ['auth'] } }, async (request) => {
      const { username, roles } = request.security;
      const definitions = roles.map((name) => auth.store.role(name)).filter((r) => r !== null);
      return {
        username,
        roles,
        admin: auth.isAdmin(request.security),
        permissions: [...new Set(definitions.flatMap((r) => r.permissions))],
        databases: definitions.some((r) => r.databases.length === 0) ? '*' : [...new Set(definitions.flatMap((r) => r.databases))],
      };
    });

    app.post(
      '/auth/api-token',
      { config: admin, schema: { summary: 'Generate an API token for a user', tags: ['auth'], body: anyObject } },
      async (request) => {
        const fields = body(request);
        const username = optionalString(fields, 'username') ?? request.security.username;
        if (username === null) throw invalid("'username' is required.");
        return tokenBody(await auth.issueUserToken(username, 'api', expiresIn(fields) ?? API_TOKEN_SECONDS, request.clientIp || null));
      },
    );

    app.post(
      '/api/v1/auth/cluster-token',
      { config: admin, schema: { summary: 'Mint a cluster token for a node', tags: ['auth'], body: anyObject } },
      async (request) => {
        const fields = body(request);
        const nodeId = requiredString(fields, 'node_id');
        const role = requiredString(fields, 'role');
        const issued = await auth.issueClusterToken(nodeId, role, expiresIn(fields) ?? null, actorOf(request));
        return { ...tokenBody(issued), token: issued.token, node_id: nodeId, role };
      },
    );

    app.post(
      '/api/v1/service-accounts',
      { config: { ...admin, leader: true }, schema: { summary: 'Create a service account', tags: ['auth'], body: anyObject } },
      async (request, reply) => {
        const fields = body(request);
        const id = requiredString(fields, 'id');
        const secret = optionalString(fields, 'secret') ?? AuthService.generateSecret();
        const role = requiredString(fields, 'role');
        const created = await auth.createUser(id, secret, [role], actorOf(request), { serviceAccount: true });
        void reply.status(201);
        return { ...accountView(created), ...(fields.secret === undefined ? { secret } : {}) };
      },
    );

    const account = async (id: string) => {
      const user = await auth.user(id);
      if (!user?.serviceAccount) throw Object.assign(new Error(`Service account '${id}' does not exist.`), { statusCode: 404 });
      return user;
    };

    app.get<{ Params: { id: string } }>(
      '/api/v1/service-accounts/:id',
      { config: admin, schema: { summary: 'A service account', tags: ['auth'], params: idParams } },
      async (request) => accountView(await account(request.params.id)),
    );

    app.patch<{ Params: { id: string } }>(
      '/api/v1/service-accounts/:id',
      {
        config: { ...admin, leader: true },
        schema: { summary: 'Update a service account (role, secret, disabled)', tags: ['auth'], params: idParams, body: anyObject },
      },
      async (request) => {
        const fields = body(request);
        await account(request.params.id);
        const role = optionalString(fields, 'role');
        const secret = optionalString(fields, 'secret');
        const disabled = fields.disabled;
        if (disabled !== undefined && typeof disabled !== 'boolean') throw invalid("'disabled' must be a boolean.");
        const updated = await auth.alterUser(
          request.params.id,
          {
            ...(role !== undefined ? { roles: [role] } : {}),
            ...(secret !== undefined ? { password: secret } : {}),
            ...(disabled !== undefined ? { suspended: disabled } : {}),
          },
          actorOf(request),
        );
        return accountView(updated);
      },
    );
  };
}
