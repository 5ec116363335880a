/**
 * Credential checks shared by the HTTP and Bolt edges. Today the only account is the initial
 * user from `GRAPHDB_AUTH=user:secret` (role admin); the user store of the auth issue replaces
 * `verifyPassword` here, and both edges follow.
 */
import { timingSafeEqual } from 'node:crypto';
import type { AuthSettings } from '../engine/config/types.js';
import type { SecurityContext } from '../engine/session/types.js';

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The security context of a correct username and password, or null. */
export function verifyPassword(auth: AuthSettings, username: string, password: string): SecurityContext | null {
  if (auth.initial_credentials === '') return null;
  if (!safeEqual(`${username}:${password}`, auth.initial_credentials)) return null;
  return { username, roles: ['admin'] };
}
