/**
 * ROUTE through `startServer` (the `graphdb serve` path) over the real engine: a routing table for
 * an existing database or the default one, DatabaseNotFound for a database that does not exist.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { WireValue } from '../../src/server/bolt/packstream/unpacker.js';
import { startTestServer, type TestServer } from '../http/helpers.js';
import { SIG } from './helpers/bolt-client.js';
import { expect, M, map, meta, open } from './helpers/conversation.js';

describe('ROUTE on a served database', () => {
  let server: TestServer;
  let port: number;
  before(async () => {
    server = await startTestServer({ 'server.bolt_enabled': true, 'server.bolt_port': 0, 'server.bolt_address': '127.0.0.1' });
    port = server.server.bolt!.port;
  });
  after(() => server.stop());

  it('answers a routing table for the default database and for a named one', async () => {
    const client = await open(port, [5, 8]);
    client.send(M.ROUTE, [map({ address: `127.0.0.1:${port}` }), [], map({})]);
    const defaultTable = meta(await expect(client, SIG.SUCCESS)).get('rt') as Map<string, WireValue>;
    assert.equal(defaultTable.get('db'), 'graphdb');
    client.send(M.ROUTE, [map({ address: `127.0.0.1:${port}` }), [], map({ db: 'graphdb' })]);
    const named = meta(await expect(client, SIG.SUCCESS)).get('rt') as Map<string, WireValue>;
    assert.deepEqual(
      (named.get('servers') as Map<string, WireValue>[]).map((s) => s.get('role')),
      ['ROUTE', 'READ', 'WRITE'],
    );
    client.close();
  });

  it('fails with DatabaseNotFound for a database that does not exist, and recovers after RESET', async () => {
    const client = await open(port, [5, 8]);
    client.send(M.ROUTE, [map({ address: `127.0.0.1:${port}` }), [], map({ db: 'nosuchdb' })]);
    const failure = meta(await expect(client, SIG.FAILURE));
    assert.equal(failure.get('neo4j_code'), 'Neo.ClientError.Database.DatabaseNotFound');
    assert.match(failure.get('message') as string, /nosuchdb/);
    client.send(M.RESET);
    await expect(client, SIG.SUCCESS);
    client.send(M.RUN, ['RETURN 1 AS x', map({}), map({})]);
    await expect(client, SIG.SUCCESS);
    client.send(M.PULL, [map({ n: -1n })]);
    assert.deepEqual((await expect(client, SIG.RECORD)).fields[0], [1n]);
    await expect(client, SIG.SUCCESS);
    client.close();
  });
});
