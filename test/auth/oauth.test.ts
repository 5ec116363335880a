import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { request, startTestServer, type TestServer } from '../http/helpers.js';
import { startOidcProvider, type TestOidcProvider } from './oidc-provider.js';

describe('OAuth (OpenID Connect, authorization code + PKCE) against a local provider', () => {
  let provider: TestOidcProvider;
  let t: TestServer;

  before(async () => {
    provider = await startOidcProvider('graphdb-client', 'client-secret');
    t = await startTestServer(
      { 'auth.enabled': true, 'auth.oauth_redirect_uri': 'http://placeholder/auth/oauth/callback' },
      {
        GRAPHDB_AUTH: 'root:rootpw',
        GRAPHDB_OAUTH_ISSUER: provider.issuer,
        GRAPHDB_OAUTH_CLIENT_ID: 'graphdb-client',
        GRAPHDB_OAUTH_CLIENT_SECRET: 'client-secret',
      },
    );
  });
  after(async () => {
    await t.stop();
    await provider.close();
  });

  /** Follows redirect → provider → callback like a browser, returning the callback response. */
  const login = async () => {
    const start = await fetch(`${t.url}/auth/oauth/redirect`, { redirect: 'manual' });
    assert.equal(start.status, 302);
    const authorize = new URL(start.headers.get('location')!);
    assert.equal(authorize.origin, provider.issuer);
    assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
    const approved = await fetch(authorize, { redirect: 'manual' });
    const callback = new URL(approved.headers.get('location')!);
    return { callback, response: await request(`${t.url}/auth/oauth/callback${callback.search}`) };
  };

  it('logs a new user in with the default role and a usable access token and cookie', async () => {
    const { response } = await login();
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.username, 'oidc-alice');
    assert.match(response.headers.get('set-cookie') ?? '', /^graphdb_token=.*; Secure; HttpOnly/);
    const me = await request(`${t.url}/auth/me`, { headers: { authorization: `Bearer ${response.body.access_token}` } });
    assert.deepEqual([me.body.username, me.body.roles], ['oidc-alice', ['viewer']]);
  });

  it('refuses a replayed state, a forged state and an id_token signed by a foreign key', async () => {
    const { callback } = await login();
    assert.equal((await request(`${t.url}/auth/oauth/callback${callback.search}`)).status, 401, 'state is single use');
    assert.equal((await request(`${t.url}/auth/oauth/callback?code=x&state=forged`)).status, 401);
    provider.signWithForeignKey = true;
    try {
      const { response } = await login();
      assert.equal(response.status, 401);
      assert.equal(response.body.errors[0].code, 'Neo.ClientError.Security.Unauthorized');
    } finally {
      provider.signWithForeignKey = false;
    }
  });
});
