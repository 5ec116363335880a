/**
 * Effects of authentication and request-limit settings observed over HTTP: `auth.oauth_scopes`
 * and `auth.oauth_default_role` (an OAuth login against a provider started here),
 * `auth.token_max_lifetime` (the lifetime of issued tokens), `auth.failed_attempts_window` (how
 * long failed logins count toward a lock) and `server.limits.request_timeout` (a client that
 * never finishes its request body is answered 408), and `vectorapi.grpc_tls_client_ca` (the CA a
 * gRPC client certificate must chain to).
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ConnectError, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { Qdrant } from '../../src/server/vectorapi/proto.js';
import { startOidcProvider } from '../auth/oidc-provider.js';
import { request, startTestServer } from '../http/helpers.js';

const ROOT = { GRAPHDB_AUTH: 'root:rootpw' };

describe('authentication settings', () => {
  it('auth.oauth_scopes are requested and auth.oauth_default_role is given to a provisioned user', async () => {
    const provider = await startOidcProvider('graphdb-client', 'client-secret');
    const t = await startTestServer(
      { 'auth.enabled': true, 'auth.oauth_redirect_uri': 'http://placeholder/auth/oauth/callback' },
      {
        ...ROOT,
        GRAPHDB_OAUTH_ISSUER: provider.issuer,
        GRAPHDB_OAUTH_CLIENT_ID: 'graphdb-client',
        GRAPHDB_OAUTH_CLIENT_SECRET: 'client-secret',
        GRAPHDB_OAUTH_SCOPES: 'openid email',
        GRAPHDB_OAUTH_DEFAULT_ROLE: 'editor',
      },
    );
    try {
      const start = await fetch(`${t.url}/auth/oauth/redirect`, { redirect: 'manual' });
      const authorize = new URL(start.headers.get('location')!);
      assert.equal(authorize.searchParams.get('scope'), 'openid email');
      const approved = await fetch(authorize, { redirect: 'manual' });
      const callback = new URL(approved.headers.get('location')!);
      const login = await request(`${t.url}/auth/oauth/callback${callback.search}`);
      assert.equal(login.status, 200, login.text);
      const me = await request(`${t.url}/auth/me`, { headers: { authorization: `Bearer ${login.body.access_token}` } });
      assert.deepEqual(me.body.roles, ['editor']);
    } finally {
      await t.stop();
      await provider.close();
    }
  });

  it('auth.token_max_lifetime caps the lifetime of issued tokens', async () => {
    const t = await startTestServer({ 'auth.enabled': true }, { ...ROOT, GRAPHDB_TOKEN_MAX_LIFETIME: '10m' });
    try {
      const issued = await request(`${t.url}/auth/token`, { method: 'POST', json: { username: 'root', password: 'rootpw' } });
      assert.equal(issued.status, 200, issued.text);
      assert.equal(issued.body.expires_in, 600);
    } finally {
      await t.stop();
    }
  });

  it('auth.failed_attempts_window: failures older than the window do not count toward a lock', async () => {
    const attempt = (base: string, password: string) =>
      request(`${base}/auth/token`, { method: 'POST', json: { username: 'root', password } });
    const lockedAfterThreeFailures = async (window: string): Promise<boolean> => {
      const t = await startTestServer(
        { 'auth.enabled': true },
        { ...ROOT, GRAPHDB_AUTH_MAX_FAILED_ATTEMPTS: '2', GRAPHDB_AUTH_FAILED_ATTEMPTS_WINDOW: window },
      );
      try {
        for (let i = 0; i < 3; i++) {
          const before = Date.now();
          assert.notEqual((await attempt(t.url, 'wrong')).status, 200);
          // Each failure is at least 2 ms after the previous one, so a 1 ms window never holds two.
          while (Date.now() - before < 2) await new Promise((resolve) => setImmediate(resolve));
        }
        return (await attempt(t.url, 'rootpw')).status !== 200;
      } finally {
        await t.stop();
      }
    };
    assert.equal(await lockedAfterThreeFailures('15m'), true, 'two failures within the window lock the pair');
    assert.equal(await lockedAfterThreeFailures('1ms'), false, 'failures outside a 1 ms window never accumulate');
  });
});

describe('request limits', () => {
  it('server.limits.request_timeout answers 408 to a client that never finishes its body', async () => {
    const t = await startTestServer({ 'server.limits.headers_timeout': 200, 'server.limits.request_timeout': 400 });
    try {
      const port = Number(new URL(t.url).port);
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () => {
          socket.write(
            'POST /db/graphdb/tx/commit HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"sta',
          );
        });
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
        socket.on('close', () => resolve(text));
        socket.on('error', reject);
      });
      assert.match(answer, /^HTTP\/1\.1 408/);
    } finally {
      await t.stop();
    }
  });
});

describe('vector-API TLS settings', () => {
  it('vectorapi.grpc_tls_client_ca is the CA client certificates must chain to', async () => {
    const fixture = (name: string) => fileURLToPath(new URL(`../vectorapi/fixtures/${name}`, import.meta.url));
    const t = await startTestServer({
      'vectorapi.grpc_enabled': true,
      'vectorapi.grpc_listen_addr': '127.0.0.1:0',
      'vectorapi.grpc_tls_enabled': true,
      'vectorapi.grpc_tls_cert': fixture('server.pem'),
      'vectorapi.grpc_tls_key': fixture('server.key'),
      'vectorapi.grpc_tls_client_ca': fixture('ca.pem'),
      'vectorapi.grpc_tls_client_auth_mode': 'require_verify',
    });
    const healthy = async (client: 'client' | 'stranger'): Promise<boolean> => {
      const transport = createGrpcTransport({
        baseUrl: `https://localhost:${t.server.vectorApi!.port}`,
        nodeOptions: {
          ca: readFileSync(fixture('ca.pem')),
          cert: readFileSync(fixture(`${client}.pem`)),
          key: readFileSync(fixture(`${client}.key`)),
        },
      });
      try {
        return (await createClient(Qdrant, transport).healthCheck({})).version !== '';
      } catch (error) {
        if (error instanceof ConnectError) return false;
        throw error;
      }
    };
    try {
      assert.equal(await healthy('client'), true, 'a certificate signed by the configured CA is accepted');
      assert.equal(await healthy('stranger'), false, 'one signed by another CA is refused');
    } finally {
      await t.stop();
    }
  });
});
