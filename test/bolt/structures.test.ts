/** Graph and temporal structures per version, credentials, the debug trace and shutdown. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Unauthorized } from '../../src/engine/errors/index.js';
import type { BoltServer } from '../../src/server/bolt/index.js';
import { Structure } from '../../src/server/bolt/packstream/structure.js';
import type { WireValue } from '../../src/server/bolt/packstream/unpacker.js';
import { RawBoltClient, SIG } from './helpers/bolt-client.js';
import { expect, M, map, meta, open, v } from './helpers/conversation.js';
import { startFakeServer } from './helpers/server.js';

describe('Bolt 4.4 and graph/temporal structures', () => {
  let server: BoltServer;
  before(async () => {
    ({ server } = await startFakeServer());
  });
  after(() => server.close());

  async function graphRow(version: [number, number], patch: boolean): Promise<WireValue[]> {
    const client = await RawBoltClient.connect(server.port);
    await client.handshake([v(...version)]);
    client.startMessages();
    const hello: Record<string, unknown> = { user_agent: 'raw/1', scheme: 'none' };
    if (patch) hello.patch_bolt = ['utc'];
    client.send(M.HELLO, [map(hello)]);
    const success = meta(await expect(client, SIG.SUCCESS));
    if (patch) assert.deepEqual(success.get('patch_bolt'), ['utc']);
    if (version[0] === 5) {
      client.send(M.LOGON, [map({ scheme: 'none' })]);
      await expect(client, SIG.SUCCESS);
    }
    client.send(M.RUN, ['GRAPH', map({}), map({})]);
    client.send(M.PULL, [map({ n: -1n })]);
    await expect(client, SIG.SUCCESS);
    const row = (await expect(client, SIG.RECORD)).fields[0] as WireValue[];
    client.close();
    return row;
  }

  it('5.x: element ids and UTC DateTime with zone id', async () => {
    const [node, rel, path, dt] = (await graphRow([5, 8], false)) as Structure[];
    assert.equal(node.signature, 0x4e);
    assert.deepEqual(node.fields, [1n, ['Person'], new Map([['name', 'Alice']]), '4:db:1']);
    assert.deepEqual(rel.fields, [7n, 2n, 1n, 'KNOWS', new Map([['since', 2020n]]), '5:db:7', '4:db:2', '4:db:1']);
    assert.equal(path.signature, 0x50);
    // alice -[knows]-> bob, walked against the relationship's direction (2 -> 1).
    assert.deepEqual(path.fields[2], [-1n, 1n]);
    assert.equal((path.fields[1] as Structure[])[0].signature, 0x72);
    assert.equal(dt.signature, 0x69);
    assert.deepEqual(dt.fields, [1717236000n, 0n, 'Europe/Stockholm']);
  });

  it('4.4: no element ids, legacy local-time DateTime; the utc patch switches to UTC', async () => {
    const [node, , , dt] = (await graphRow([4, 4], false)) as Structure[];
    assert.equal(node.fields.length, 3);
    assert.equal(dt.signature, 0x66);
    assert.deepEqual(dt.fields, [1717236000n + 7200n, 0n, 'Europe/Stockholm']);
    const [, , , utc] = (await graphRow([4, 4], true)) as Structure[];
    assert.equal(utc.signature, 0x69);
  });

  it('credentials in HELLO (4.4) or LOGON (5.1+); rejected ones close the connection', async () => {
    const { server: guarded } = await startFakeServer({
      authenticate: (scheme, principal, credentials) => {
        if (scheme === 'basic' && principal === 'neo4j' && credentials === 'secret') return { username: 'neo4j', roles: ['admin'] };
        throw new Unauthorized();
      },
    });
    try {
      const ok = await open(guarded.port, [4, 4]);
      ok.send(M.RUN, ['ONE', map({}), map({})]);
      await expect(ok, SIG.SUCCESS);
      ok.close();
      const bad = await RawBoltClient.connect(guarded.port);
      await bad.handshake([v(4, 4)]);
      bad.startMessages();
      bad.send(M.HELLO, [map({ user_agent: 'raw/1', scheme: 'basic', principal: 'neo4j', credentials: 'wrong' })]);
      const failure = meta(await expect(bad, SIG.FAILURE));
      assert.equal(failure.get('code'), 'Neo.ClientError.Security.Unauthorized');
      await bad.waitClosed();
      const badLogon = await RawBoltClient.connect(guarded.port);
      await badLogon.handshake([v(5, 8)]);
      badLogon.startMessages();
      badLogon.send(M.HELLO, [map({ user_agent: 'raw/1' })]);
      await expect(badLogon, SIG.SUCCESS);
      badLogon.send(M.LOGON, [map({ scheme: 'bearer', credentials: 'not-a-token' })]);
      const logonFailure = meta(await expect(badLogon, SIG.FAILURE));
      assert.equal(logonFailure.get('neo4j_code'), 'Neo.ClientError.Security.Unauthorized');
      await badLogon.waitClosed();
    } finally {
      await guarded.close();
    }
  });
});

describe('debug log', () => {
  it("traces messages in the driver's C:/S: form and never logs credentials", async () => {
    const { server, lines } = await startFakeServer();
    try {
      const client = await open(server.port, [5, 8]);
      client.send(M.RUN, ['ONE', map({ secret: 'param-value' }), map({})]);
      client.send(M.PULL, [map({ n: -1n })]);
      await expect(client, SIG.SUCCESS);
      await expect(client, SIG.RECORD);
      await expect(client, SIG.SUCCESS);
      client.close();
      const trace = lines.join('\n');
      assert.match(trace, /\[bolt-\d+\] C: LOGON \{"scheme":"basic","principal":"neo4j","credentials":"\*\*\*\*\*"\}/);
      assert.match(trace, /C: RUN "ONE" \{\.\.\.\} \{\}/);
      assert.match(trace, /S: SUCCESS \{"fields":\["n"\],"t_first":\d+,"db":"neo4j"\}/);
      assert.match(trace, /S: RECORD \* 1/);
      assert.doesNotMatch(trace, /secret|param-value/);
    } finally {
      await server.close();
    }
  });
});

describe('server shutdown', () => {
  it('close() rolls back open transactions before it resolves', async () => {
    const { server, log } = await startFakeServer();
    const client = await open(server.port, [5, 8]);
    client.send(M.BEGIN, [map({})]);
    await expect(client, SIG.SUCCESS);
    await server.close();
    assert.equal(log.rollbacks, 1);
    assert.equal(server.connectionCount, 0);
    await client.waitClosed();
  });
});

describe('message size limit', () => {
  it('a message beyond maxMessageSize is refused without being buffered', async () => {
    const { server } = await startFakeServer({ maxMessageSize: 1000 });
    try {
      const client = await open(server.port, [5, 8]);
      client.send(M.RUN, ['x'.repeat(2000), map({}), map({})]);
      const failure = meta(await expect(client, SIG.FAILURE));
      assert.equal(failure.get('neo4j_code'), 'Neo.ClientError.Request.InvalidFormat');
      assert.match(failure.get('message') as string, /limit of 1000 bytes/);
      await client.waitClosed();
    } finally {
      await server.close();
    }
  });
});
