/**
 * JWTs (HS256, jose) for access tokens (`/auth/token`), API tokens (`/auth/api-token`), cluster
 * tokens (`/api/v1/auth/cluster-token`, no expiry unless requested) and OAuth logins. Every token
 * has a random `jti`; revocation records the `jti` (see AuthStore.revokeToken). Verification
 * checks the signature, algorithm, issuer, expiry and revocation; any failure is Unauthorized
 * (an expired token is TokenExpired).
 */
import { randomUUID } from 'node:crypto';
import { StatusCodes, Unauthorized, graphError } from '../errors/index.js';

/** Kinds of tokens. */
export type TokenType = 'access' | 'api' | 'cluster';

/** Claims graphdb puts in its tokens. */
export interface TokenClaims {
  /** Username, or the node id of a cluster token. */
  readonly sub: string;
  readonly typ: TokenType;
  readonly jti: string;
  /** Role of a cluster token (users' roles are looked up at verification time). */
  readonly role?: string;
  /** Seconds since the epoch; absent = never expires. */
  readonly exp?: number;
  readonly iat: number;
}

/** A freshly signed token. */
export interface IssuedToken {
  readonly token: string;
  readonly claims: TokenClaims;
}

const ISSUER = 'graphdb';

const ALGORITHM = 'HS256';

/** Minimum secret length in bytes (spec rule 2). */
export const MIN_SECRET_BYTES = 32;

/** Signs and verifies graphdb tokens with one shared secret. */
export class TokenService {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly isRevoked: (jti: string) => boolean,
    private readonly now: () => number = Date.now,
  ) {
    const key = new TextEncoder().encode(secret);
    if (key.length < MIN_SECRET_BYTES) throw new Error(`the JWT secret must be at least ${MIN_SECRET_BYTES} bytes`);
    this.key = key;
  }

  /** Signs a token; `expiresInSeconds` null means no expiry. */
  async issue(subject: string, type: TokenType, expiresInSeconds: number | null, role?: string): Promise<IssuedToken> {
    const iat = Math.floor(this.now() / 1000);
    const jti = randomUUID();
    const claims: TokenClaims = {
      sub: subject,
      typ: type,
      jti,
      iat,
      ...(role !== undefined ? { role } : {}),
      ...(expiresInSeconds !== null ? { exp: iat + expiresInSeconds } : {}),
    };
    const payload: Record<string, unknown> = { typ: type, ...(role !== undefined ? { role } : {}) };
    // jose (46 modules) loads with the first token signed or verified rather than at start-up.
    const { SignJWT } = await import('jose');
    let jwt = new SignJWT(payload)
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(subject)
      .setJti(jti)
      .setIssuer(ISSUER)
      .setIssuedAt(iat);
    if (claims.exp !== undefined) jwt = jwt.setExpirationTime(claims.exp);
    return { token: await jwt.sign(this.key), claims };
  }

  /** Verifies a token; throws Unauthorized (or TokenExpired) when it is not acceptable. */
  async verify(token: string): Promise<TokenClaims> {
    const { errors: joseErrors, jwtVerify } = await import('jose');
    let payload;
    try {
      ({ payload } = await jwtVerify(token, this.key, {
        algorithms: [ALGORITHM],
        issuer: ISSUER,
        currentDate: new Date(this.now()),
      }));
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw graphError(StatusCodes.TokenExpired, 'The token has expired.');
      throw new Unauthorized('The token is invalid.');
    }
    const { sub, jti, typ, role, exp, iat } = payload;
    if (typeof sub !== 'string' || typeof jti !== 'string' || (typ !== 'access' && typ !== 'api' && typ !== 'cluster')) {
      throw new Unauthorized('The token is invalid.');
    }
    if (this.isRevoked(jti)) throw new Unauthorized('The token has been revoked.');
    return {
      sub,
      jti,
      typ,
      iat: typeof iat === 'number' ? iat : 0,
      ...(typeof role === 'string' ? { role } : {}),
      ...(typeof exp === 'number' ? { exp } : {}),
    };
  }
}
