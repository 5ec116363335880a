/**
 * Credentials of a WebSocket subscription connection: graphql-ws has no request headers per
 * operation, so the `Authorization` value travels in the connection params and is checked by the
 * same code as an HTTP request's header (`securityContextFor`: Basic, Bearer JWT, lockout, audit).
 */
import type { FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { AuthService } from '../../engine/auth/index.js';
import type { AuthSettings } from '../../engine/config/index.js';
import type { SecurityContext } from '../../engine/index.js';
import { securityContextFor } from '../http/security-context.js';

/** The `Authorization` value of connection params (`Authorization` or `authorization`). */
export function authorizationParam(params: Readonly<Record<string, unknown>> | undefined | null): string | undefined {
  if (params === undefined || params === null) return undefined;
  const value = params.Authorization ?? params.authorization;
  return typeof value === 'string' ? value : undefined;
}

/** The SecurityContext of a WebSocket connection; rejects with Unauthorized like an HTTP request. */
export function connectionSecurity(
  upgrade: IncomingMessage,
  authorization: string | undefined,
  settings: AuthSettings,
  auth: AuthService | null,
): Promise<SecurityContext> {
  const headers: IncomingMessage['headers'] = { ...upgrade.headers };
  delete headers.authorization;
  if (authorization !== undefined) headers.authorization = authorization;
  const request = { headers, raw: upgrade, url: upgrade.url ?? '', method: 'GET', clientIp: upgrade.socket.remoteAddress ?? '' };
  return securityContextFor(request as unknown as FastifyRequest, 'authenticated', settings, auth);
}
