import { Unauthorized, type SecurityContext } from '../../../../../engine/index.js';
import type { AuthToken } from '../../../options.js';
import { stringOf, type WireMap } from '../../messages.js';
import type { ConnectionState } from '../connection-state.js';

/** Reads the auth token fields of HELLO (4.4/5.0) or LOGON (5.1+). */
export function authTokenOf(extra: WireMap): AuthToken {
  return {
    scheme: stringOf(extra, 'scheme') ?? 'none',
    principal: stringOf(extra, 'principal') ?? null,
    credentials: stringOf(extra, 'credentials') ?? null,
    realm: stringOf(extra, 'realm') ?? null,
  };
}

/**
 * Runs the configured authenticate callback. Without one (no-auth mode) anyone is let in; the
 * returned context only marks the connection as logged on and is not passed to the engine.
 */
export async function authenticate(state: ConnectionState, token: AuthToken): Promise<SecurityContext> {
  const callback = state.services.authenticate;
  if (!callback) return { username: token.principal, roles: ['admin'] };
  try {
    return await callback(token.scheme, token.principal, token.credentials, token, state.services.clientIp);
  } catch (error) {
    if (error instanceof Unauthorized) throw error;
    if (error instanceof Error && 'code' in error && typeof error.code === 'string' && error.code.startsWith('Neo.')) throw error;
    throw new Unauthorized();
  }
}
