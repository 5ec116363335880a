/**
 * Who is calling the vector API: the `authorization` metadata (Basic or Bearer, exactly as the
 * HTTP `Authorization` header) or an `x-api-key` / `api-key` metadata entry holding a token (the
 * official Qdrant clients send `api-key`), verified by the same auth service as HTTP and Bolt.
 * With authentication disabled every call runs unrestricted.
 */
import type { AuthService } from '../../engine/auth/index.js';
import { Unauthorized, type SecurityContext } from '../../engine/index.js';
import { authenticateHttp } from '../credentials.js';
import { UNRESTRICTED } from '../http/security-context.js';

/** Metadata names carrying an API key (token). */
const API_KEY_HEADERS = ['x-api-key', 'api-key'] as const;

/** Resolves the SecurityContext of a call; throws Unauthorized without acceptable credentials. */
export async function callSecurityContext(auth: AuthService | null, metadata: Headers, clientIp: string | null): Promise<SecurityContext> {
  if (auth === null) return UNRESTRICTED;
  const authorization = metadata.get('authorization');
  if (authorization !== null) {
    const principal = await authenticateHttp(auth, { authorization }, clientIp);
    if (principal !== null) return principal.context;
  }
  for (const name of API_KEY_HEADERS) {
    const key = metadata.get(name);
    if (key !== null && key !== '') return (await auth.authenticateToken(key, clientIp)).context;
  }
  throw new Unauthorized('Must provide an API key or an Authorization header');
}
