/**
 * A small but real OpenID Connect provider for tests (node:http + jose): discovery document,
 * JWKS, an authorization endpoint that approves the configured user at once, and a token
 * endpoint that checks the client, redirect URI and PKCE verifier before signing an RS256
 * id_token. Listens on 127.0.0.1, port 0.
 */
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';

/** What the provider signs into id_tokens. */
export interface ProviderUser {
  sub: string;
  preferred_username?: string;
}

/** A running provider. */
export interface TestOidcProvider {
  readonly issuer: string;
  /** The user the next authorization approves. */
  user: ProviderUser;
  /** Signs id_tokens with a key that is not in the JWKS (for negative tests). */
  signWithForeignKey: boolean;
  close(): Promise<void>;
}

interface PendingCode {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly challenge: string;
  readonly nonce: string;
  readonly user: ProviderUser;
}

/** Starts a provider for one client. */
export async function startOidcProvider(clientId: string, clientSecret: string): Promise<TestOidcProvider> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const foreign = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  const codes = new Map<string, PendingCode>();
  let issuer = '';
  const provider: TestOidcProvider = {
    issuer: '',
    user: { sub: 'u-1', preferred_username: 'oidc-alice' },
    signWithForeignKey: false,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const readBody = (request: http.IncomingMessage) =>
    new Promise<string>((resolve) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString()));
      request.on('end', () => resolve(text));
    });
  const json = (response: http.ServerResponse, status: number, value: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(value));
  };

  const handle = async (request: http.IncomingMessage, response: http.ServerResponse): Promise<unknown> => {
    const url = new URL(request.url ?? '/', issuer);
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(response, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
        id_token_signing_alg_values_supported: ['RS256'],
      });
    }
    if (url.pathname === '/jwks') return json(response, 200, { keys: [jwk] });
    if (url.pathname === '/authorize') {
      const q = url.searchParams;
      if (q.get('client_id') !== clientId || q.get('response_type') !== 'code' || q.get('code_challenge_method') !== 'S256') {
        return json(response, 400, { error: 'invalid_request' });
      }
      const code = randomBytes(16).toString('hex');
      codes.set(code, {
        clientId,
        redirectUri: q.get('redirect_uri')!,
        challenge: q.get('code_challenge')!,
        nonce: q.get('nonce')!,
        user: provider.user,
      });
      const target = new URL(q.get('redirect_uri')!);
      target.searchParams.set('code', code);
      target.searchParams.set('state', q.get('state')!);
      response.writeHead(302, { location: target.toString() });
      return response.end();
    }
    if (url.pathname === '/token' && request.method === 'POST') {
      const form = new URLSearchParams(await readBody(request));
      const expectedAuth = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
      if (request.headers.authorization !== expectedAuth) return json(response, 401, { error: 'invalid_client' });
      const pending = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      if (
        !pending ||
        pending.redirectUri !== form.get('redirect_uri') ||
        createHash('sha256').update(verifier).digest('base64url') !== pending.challenge
      ) {
        return json(response, 400, { error: 'invalid_grant' });
      }
      const idToken = await new SignJWT({ nonce: pending.nonce, ...pending.user })
        .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
        .setIssuer(issuer)
        .setAudience(clientId)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(provider.signWithForeignKey ? foreign.privateKey : privateKey);
      return json(response, 200, { access_token: 'opaque', token_type: 'Bearer', id_token: idToken, expires_in: 300 });
    }
    json(response, 404, { error: 'not_found' });
  };
  const server = http.createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  Object.assign(provider, { issuer });
  return provider;
}
