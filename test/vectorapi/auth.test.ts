/**
 * The vector-API listener as `graphdb serve` starts it (startServer with vectorapi.grpc_enabled):
 * credentials from `authorization` (Basic), `api-key` (the official client's `apiKey`) and
 * `x-api-key` metadata, verified by the auth service; RBAC per call (a viewer reads but cannot
 * write or manage collections); the startup refusal of plaintext gRPC on a public address.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Code } from '@connectrpc/connect';
import { Distance, QdrantClient } from '@qdrant/js-client-grpc';
import { DEFAULT_CONFIG } from '../../src/engine/config/index.js';
import type { GraphdbConfig } from '../../src/engine/config/types.js';
import { SecurityConfigurationError } from '../../src/server/index.js';
import { checkVectorApiTransport, parseListenAddress } from '../../src/server/vectorapi/index.js';
import { commit, request, startTestServer, type TestServer } from '../http/helpers.js';
import { grpcCode, point, vectorsConfig } from './helpers.js';

const ADMIN = 'admin:admin-secret-1';
const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`;

describe('vectorapi authentication and RBAC', () => {
  let server: TestServer;
  let url: string;
  let adminToken: string;
  const client = (headers: Record<string, string> = {}, apiKey?: string) =>
    new QdrantClient({ url, checkCompatibility: false, headers, ...(apiKey === undefined ? {} : { apiKey }) });

  before(async () => {
    server = await startTestServer({
      'auth.enabled': true,
      'auth.initial_credentials': ADMIN,
      'vectorapi.grpc_enabled': true,
      'vectorapi.grpc_listen_addr': '127.0.0.1:0',
    });
    assert.ok(server.server.vectorApi !== null, 'startServer started the gRPC listener');
    url = `http://127.0.0.1:${server.server.vectorApi.port}`;
    const account = await request(`${server.url}/api/v1/service-accounts`, {
      method: 'POST',
      headers: { authorization: basic(ADMIN) },
      json: { id: 'vic', secret: 'vic-secret-1', role: 'viewer' },
    });
    assert.equal(account.status, 201, account.text);
    const token = await request(`${server.url}/auth/api-token`, { method: 'POST', headers: { authorization: basic(ADMIN) }, json: {} });
    assert.equal(token.status, 200, token.text);
    adminToken = token.body.access_token;
  });

  after(async () => {
    await server.stop();
  });

  it('refuses calls without or with wrong credentials; HealthCheck stays public', async () => {
    assert.equal(await grpcCode(client().api('collections').list({})), Code.Unauthenticated);
    assert.equal(
      await grpcCode(
        client({ authorization: basic('vic:wrong') })
          .api('collections')
          .list({}),
      ),
      Code.Unauthenticated,
    );
    assert.equal(await grpcCode(client({ 'x-api-key': 'not-a-token' }).api('collections').list({})), Code.Unauthenticated);
    assert.equal((await client().api('service').healthCheck({})).version, '1.18.0');
  });

  it('an admin API key manages collections and writes; a viewer reads but may not write', async () => {
    const originalWarn = console.warn;
    console.warn = () => {};
    const admin = client({}, adminToken);
    console.warn = originalWarn;
    await admin.api('collections').create({ collectionName: 'secure', vectorsConfig: vectorsConfig(2, Distance.Euclid) });
    await admin
      .api('points')
      .upsert({ collectionName: 'secure', points: [point(1, [0, 0], { tag: 'a' }), point(2, [3, 4], { tag: 'b' })] });

    const byHeader = client({ 'x-api-key': adminToken });
    assert.equal((await byHeader.api('points').count({ collectionName: 'secure' })).result?.count, 2n);

    const viewer = client({ authorization: basic('vic:vic-secret-1') });
    const hits = await viewer.api('points').search({ collectionName: 'secure', vector: [3, 3], limit: 1n });
    assert.equal(hits.result[0]?.id?.pointIdOptions.value, 2n);
    assert.equal(hits.result[0]?.score, 1);
    assert.equal(
      await grpcCode(viewer.api('points').upsert({ collectionName: 'secure', points: [point(3, [1, 1])] })),
      Code.PermissionDenied,
    );
    assert.equal(
      await grpcCode(
        viewer.api('points').delete({ collectionName: 'secure', points: { pointsSelectorOneOf: { case: 'points', value: { ids: [] } } } }),
      ),
      Code.PermissionDenied,
    );
    assert.equal(
      await grpcCode(viewer.api('collections').create({ collectionName: 'mine', vectorsConfig: vectorsConfig(2, Distance.Dot) })),
      Code.PermissionDenied,
    );
    assert.equal(await grpcCode(viewer.api('collections').delete({ collectionName: 'secure' })), Code.PermissionDenied);
    assert.equal((await admin.api('points').count({ collectionName: 'secure' })).result?.count, 2n, 'refused writes changed nothing');
  });
});

describe('vectorapi collections database and role database allowlists', () => {
  let server: TestServer;
  let url: string;
  const admin = { authorization: basic(ADMIN) };

  before(async () => {
    server = await startTestServer({
      'auth.enabled': true,
      'auth.initial_credentials': ADMIN,
      'vectorapi.grpc_enabled': true,
      'vectorapi.grpc_listen_addr': '127.0.0.1:0',
      'vectorapi.database': 'vectors',
    });
    url = `http://127.0.0.1:${server.server.vectorApi!.port}`;
    const created = await commit(server.url, ['CREATE DATABASE vectors'], 'system', admin);
    assert.deepEqual(created.body.errors, []);
    const role = await request(`${server.url}/admin/roles`, {
      method: 'POST',
      headers: admin,
      json: { name: 'graphonly', permissions: ['read', 'write', 'delete', 'schema'], databases: ['graphdb'] },
    });
    assert.equal(role.status, 201, role.text);
    const user = await request(`${server.url}/admin/users`, {
      method: 'POST',
      headers: admin,
      json: { username: 'gina', password: 'gina-secret-1', roles: ['graphonly'] },
    });
    assert.equal(user.status, 201, user.text);
  });

  after(async () => {
    await server.stop();
  });

  it('stores collections in the configured database and denies roles not allowed on it', async () => {
    const asAdmin = new QdrantClient({ url, checkCompatibility: false, headers: admin });
    await asAdmin.api('collections').create({ collectionName: 'elsewhere', vectorsConfig: vectorsConfig(2, Distance.Dot) });
    await asAdmin.api('points').upsert({ collectionName: 'elsewhere', points: [point(1, [1, 1], { tag: 'x' })] });
    const inVectors = await commit(server.url, ['MATCH (p:Qdrant_elsewhere) RETURN p.tag'], 'vectors', admin);
    assert.deepEqual(
      inVectors.body.results[0].data.map((d: { row: unknown[] }) => d.row),
      [['x']],
    );
    const inDefault = await commit(server.url, ['MATCH (p:Qdrant_elsewhere) RETURN count(p)'], 'graphdb', admin);
    assert.deepEqual(inDefault.body.results[0].data[0].row, [0]);

    const gina = new QdrantClient({ url, checkCompatibility: false, headers: { authorization: basic('gina:gina-secret-1') } });
    assert.equal(await grpcCode(gina.api('points').count({ collectionName: 'elsewhere' })), Code.PermissionDenied);
    assert.equal(await grpcCode(gina.api('collections').list({})), Code.PermissionDenied);
  });
});

describe('vectorapi transport policy', () => {
  const config = (vectorapi: Partial<GraphdbConfig['vectorapi']>, authEnabled = true): GraphdbConfig => ({
    ...DEFAULT_CONFIG,
    auth: { ...DEFAULT_CONFIG.auth, enabled: authEnabled },
    vectorapi: { ...DEFAULT_CONFIG.vectorapi, grpc_enabled: true, ...vectorapi },
  });

  it('parses listen addresses', () => {
    assert.deepEqual(parseListenAddress(':6334'), { host: '127.0.0.1', port: 6334 });
    assert.deepEqual(parseListenAddress('0.0.0.0:6334'), { host: '0.0.0.0', port: 6334 });
    assert.deepEqual(parseListenAddress('127.0.0.1:0'), { host: '127.0.0.1', port: 0 });
    assert.deepEqual(parseListenAddress('[::1]:7000'), { host: '::1', port: 7000 });
    assert.throws(() => parseListenAddress('localhost'), SecurityConfigurationError);
  });

  it('refuses plaintext gRPC on a public address with auth on, allows loopback, TLS or auth off', () => {
    assert.throws(() => checkVectorApiTransport(config({ grpc_listen_addr: '0.0.0.0:6334' })), /plaintext gRPC/);
    checkVectorApiTransport(config({ grpc_listen_addr: ':6334' }));
    assert.throws(() => checkVectorApiTransport(config({ grpc_listen_addr: '10.0.0.5:6334' })), SecurityConfigurationError);
    checkVectorApiTransport(config({ grpc_listen_addr: '127.0.0.1:6334' }));
    checkVectorApiTransport(config({ grpc_listen_addr: ':6334' }, false));
    checkVectorApiTransport(config({ grpc_listen_addr: ':6334', grpc_tls_enabled: true, grpc_tls_cert: 'c.pem', grpc_tls_key: 'k.pem' }));
    assert.throws(() => checkVectorApiTransport(config({ grpc_listen_addr: ':6334', grpc_tls_enabled: true })), /CERT/);
    assert.throws(
      () =>
        checkVectorApiTransport(
          config({ grpc_tls_enabled: true, grpc_tls_cert: 'c', grpc_tls_key: 'k', grpc_tls_client_auth_mode: 'require_verify' }),
        ),
      /CLIENT_CA/,
    );
    checkVectorApiTransport({ ...config({ grpc_listen_addr: ':6334' }), vectorapi: { ...DEFAULT_CONFIG.vectorapi } });
  });
});
