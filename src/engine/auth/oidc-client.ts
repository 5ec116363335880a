/**
 * OpenID Connect client (authorization code flow with PKCE S256, state and nonce) against one
 * configured issuer: the discovery document gives the authorization, token and JWKS endpoints;
 * the id_token is verified with jose's remote JWKS (signature, issuer, audience, expiry) and its
 * nonce is checked. Pending logins are kept in memory for ten minutes and used once.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { JWTPayload, createRemoteJWKSet } from 'jose';
import { Unauthorized } from '../errors/index.js';

/** Client settings. */
export interface OidcClientOptions {
  readonly issuer: string;
  readonly clientId: string;
  /** Empty for a public client. */
  readonly clientSecret: string;
  readonly redirectUri: string;
  readonly scopes: string;
  readonly now?: () => number;
}

interface Discovery {
  readonly issuer: string;
  readonly authorization_endpoint: string;
  readonly token_endpoint: string;
  readonly jwks_uri: string;
}

interface PendingLogin {
  readonly verifier: string;
  readonly nonce: string;
  readonly expiresAt: number;
}

const PENDING_MS = 10 * 60_000;

function base64url(bytes: Buffer): string {
  return bytes.toString('base64url');
}

/** The verified identity of an OIDC login. */
export interface OidcIdentity {
  readonly subject: string;
  /** `preferred_username`, else `email`, else `sub`. */
  readonly username: string;
  readonly claims: JWTPayload;
}

/** An OIDC relying party. */
export class OidcClient {
  private discovery: Promise<Discovery> | null = null;
  private jwks: ReturnType<typeof createRemoteJWKSet> | null = null;
  private readonly pending = new Map<string, PendingLogin>();
  private readonly now: () => number;

  constructor(private readonly options: OidcClientOptions) {
    this.now = options.now ?? Date.now;
  }

  private async metadata(): Promise<Discovery> {
    this.discovery ??= (async () => {
      const url = `${this.options.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
      const response = await fetch(url);
      if (!response.ok) throw new Error(`OIDC discovery failed: ${response.status} from ${url}`);
      const document = (await response.json()) as Discovery;
      for (const key of ['issuer', 'authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const) {
        if (typeof document[key] !== 'string') throw new Error(`OIDC discovery document lacks ${key}`);
      }
      return document;
    })();
    try {
      return await this.discovery;
    } catch (error) {
      this.discovery = null;
      throw error;
    }
  }

  /** Starts a login: the provider URL to redirect the browser to. */
  async authorizationUrl(): Promise<string> {
    const metadata = await this.metadata();
    const state = base64url(randomBytes(24));
    const nonce = base64url(randomBytes(24));
    const verifier = base64url(randomBytes(48));
    const challenge = base64url(createHash('sha256').update(verifier).digest());
    const at = this.now();
    for (const [key, login] of this.pending) if (login.expiresAt <= at) this.pending.delete(key);
    this.pending.set(state, { verifier, nonce, expiresAt: at + PENDING_MS });
    const url = new URL(metadata.authorization_endpoint);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: this.options.clientId,
      redirect_uri: this.options.redirectUri,
      scope: this.options.scopes,
      state,
      nonce,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }).toString();
    return url.toString();
  }

  /** Finishes a login from the callback's `code` and `state`; throws Unauthorized when it fails. */
  async complete(code: string, state: string): Promise<OidcIdentity> {
    const login = this.pending.get(state);
    this.pending.delete(state);
    if (!login || login.expiresAt <= this.now()) throw new Unauthorized('Unknown or expired OAuth state.');
    const metadata = await this.metadata();
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: this.options.redirectUri,
      client_id: this.options.clientId,
      code_verifier: login.verifier,
    });
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    if (this.options.clientSecret !== '') {
      const credentials = `${encodeURIComponent(this.options.clientId)}:${encodeURIComponent(this.options.clientSecret)}`;
      headers.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
    }
    const response = await fetch(metadata.token_endpoint, { method: 'POST', headers, body: form.toString() });
    if (!response.ok) throw new Unauthorized(`The identity provider refused the authorization code (${response.status}).`);
    const tokens = (await response.json()) as { id_token?: unknown };
    if (typeof tokens.id_token !== 'string') throw new Unauthorized('The identity provider returned no id_token.');
    // jose loads with the first login rather than at start-up.
    const jose = await import('jose');
    this.jwks ??= jose.createRemoteJWKSet(new URL(metadata.jwks_uri));
    let payload: JWTPayload;
    try {
      ({ payload } = await jose.jwtVerify(tokens.id_token, this.jwks, {
        issuer: metadata.issuer,
        audience: this.options.clientId,
        currentDate: new Date(this.now()),
      }));
    } catch {
      throw new Unauthorized('The id_token is invalid.');
    }
    if (payload.nonce !== login.nonce) throw new Unauthorized('The id_token nonce does not match.');
    if (typeof payload.sub !== 'string') throw new Unauthorized('The id_token has no subject.');
    const preferred = payload.preferred_username ?? payload.email;
    return { subject: payload.sub, username: typeof preferred === 'string' && preferred !== '' ? preferred : payload.sub, claims: payload };
  }
}
