/**
 * The vector-API listener over TLS: server certificate verified by the client, and the client
 * certificate modes (`require_verify` refuses connections without a trusted certificate,
 * `request_verify` accepts none but refuses an untrusted one). Certificates in fixtures/ are test
 * material signed by a throwaway CA (valid until 2126).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { ConnectError, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import type { GrpcClientAuthMode } from '../../src/engine/config/types.js';
import { GraphDB } from '../../src/engine/index.js';
import { Collections, Qdrant } from '../../src/server/vectorapi/proto.js';
import { startVectorApiServer, type VectorApiServer } from '../../src/server/vectorapi/index.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
const ca = fixture('ca.pem');
const identities = {
  none: {},
  trusted: { cert: fixture('client.pem'), key: fixture('client.key') },
  stranger: { cert: fixture('stranger.pem'), key: fixture('stranger.key') },
};

async function healthy(port: number, identity: keyof typeof identities): Promise<boolean> {
  const transport = createGrpcTransport({ baseUrl: `https://localhost:${port}`, nodeOptions: { ca, ...identities[identity] } });
  try {
    return (await createClient(Qdrant, transport).healthCheck({})).version !== '';
  } catch (error) {
    if (error instanceof ConnectError) return false;
    throw error;
  }
}

for (const mode of ['require_verify', 'request_verify'] as const satisfies readonly GrpcClientAuthMode[]) {
  describe(`vectorapi TLS, client auth ${mode}`, () => {
    let db: GraphDB;
    let server: VectorApiServer;

    before(async () => {
      db = await GraphDB.open();
      server = await startVectorApiServer({
        host: '127.0.0.1',
        port: 0,
        tls: { cert: fixture('server.pem'), key: fixture('server.key'), ca, clientAuth: mode },
        deps: { engine: { session: (options) => db.session(options) }, auth: null, onInternalError: () => {} },
      });
    });

    after(async () => {
      await server.close();
      await db.close();
    });

    it('accepts a trusted client certificate and refuses an untrusted one', async () => {
      assert.equal(server.tls, true);
      assert.equal(await healthy(server.port, 'trusted'), true);
      assert.equal(await healthy(server.port, 'stranger'), false);
    });

    it(mode === 'require_verify' ? 'refuses a client without a certificate' : 'accepts a client without a certificate', async () => {
      assert.equal(await healthy(server.port, 'none'), mode === 'request_verify');
    });

    it('serves the Qdrant services over TLS', async () => {
      const transport = createGrpcTransport({ baseUrl: `https://localhost:${server.port}`, nodeOptions: { ca, ...identities.trusted } });
      const collections = createClient(Collections, transport);
      assert.deepEqual((await collections.list({})).collections, []);
    });
  });
}
