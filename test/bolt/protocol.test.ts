import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BoltServer } from '../../src/server/bolt/index.js';
import type { WireValue } from '../../src/server/bolt/packstream/unpacker.js';
import { RawBoltClient, SIG } from './helpers/bolt-client.js';
import { expect, M, map, meta, open, v } from './helpers/conversation.js';
import type { FakeEngineLog } from './helpers/fake-engine.js';
import { startFakeServer } from './helpers/server.js';

describe('Bolt state machine (scripted conversations)', () => {
  let server: BoltServer;
  let log: FakeEngineLog;
  before(async () => {
    ({ server, log } = await startFakeServer());
  });
  after(() => server.close());

  it('HELLO reports server and connection id; nothing runs before LOGON', async () => {
    const client = await RawBoltClient.connect(server.port);
    await client.handshake([v(5, 8)]);
    client.startMessages();
    client.send(M.HELLO, [map({ user_agent: 'raw/1' })]);
    const hello = meta(await expect(client, SIG.SUCCESS));
    assert.equal(hello.get('server'), 'Neo4j/5.26.0');
    assert.match(hello.get('connection_id') as string, /^bolt-\d+$/);
    client.send(M.RUN, ['ONE', map({}), map({})]);
    const failure = meta(await expect(client, SIG.FAILURE));
    assert.equal(failure.get('neo4j_code'), 'Neo.ClientError.Request.Invalid');
    await client.waitClosed();
  });

  it('streams in batches with PULL n / has_more, then the summary', async () => {
    const client = await open(server.port, [5, 8]);
    client.send(M.RUN, ['RANGE', map({ n: 5n }), map({})]);
    const run = meta(await expect(client, SIG.SUCCESS));
    assert.deepEqual(run.get('fields'), ['i', 'text']);
    assert.equal(typeof run.get('t_first'), 'bigint');
    assert.equal(run.get('db'), 'neo4j');
    client.send(M.PULL, [map({ n: 2n })]);
    assert.deepEqual((await expect(client, SIG.RECORD)).fields[0], [0n, 'row number 0 with some padding text']);
    await expect(client, SIG.RECORD);
    assert.equal(meta(await expect(client, SIG.SUCCESS)).get('has_more'), true);
    client.send(M.PULL, [map({ n: -1n })]);
    for (let i = 0; i < 3; i++) await expect(client, SIG.RECORD);
    const summary = meta(await expect(client, SIG.SUCCESS));
    assert.equal(summary.get('type'), 'r');
    assert.equal(summary.get('db'), 'neo4j');
    assert.equal(summary.has('has_more'), false);
    const statuses = summary.get('statuses') as Map<string, WireValue>[];
    assert.equal(statuses[0].get('gql_status'), '00000');
    client.close();
  });

  it('DISCARD drops the rest and ends the stream', async () => {
    const client = await open(server.port, [5, 4]);
    client.send(M.RUN, ['RANGE', map({ n: 10n }), map({})]);
    await expect(client, SIG.SUCCESS);
    client.send(M.DISCARD, [map({ n: -1n })]);
    const summary = meta(await expect(client, SIG.SUCCESS));
    assert.equal(summary.get('type'), 'r');
    client.send(M.RUN, ['ONE', map({}), map({})]);
    await expect(client, SIG.SUCCESS);
    client.close();
  });

  it('after a FAILURE every pipelined message is IGNORED until RESET', async () => {
    const client = await open(server.port, [5, 8]);
    client.send(M.RUN, ['FAIL Neo.ClientError.Statement.SyntaxError', map({}), map({})]);
    client.send(M.PULL, [map({ n: -1n })]);
    client.send(M.RUN, ['ONE', map({}), map({})]);
    client.send(M.PULL, [map({ n: -1n })]);
    const failure = meta(await expect(client, SIG.FAILURE));
    assert.equal(failure.get('neo4j_code'), 'Neo.ClientError.Statement.SyntaxError');
    assert.equal(failure.get('gql_status'), '42001');
    assert.ok((failure.get('diagnostic_record') as Map<string, WireValue>).has('OPERATION'));
    await expect(client, SIG.IGNORED);
    await expect(client, SIG.IGNORED);
    await expect(client, SIG.IGNORED);
    client.send(M.RESET);
    await expect(client, SIG.SUCCESS);
    client.send(M.RUN, ['ONE', map({}), map({})]);
    client.send(M.PULL, [map({ n: -1n })]);
    await expect(client, SIG.SUCCESS);
    assert.deepEqual((await expect(client, SIG.RECORD)).fields[0], [1n]);
    await expect(client, SIG.SUCCESS);
    client.close();
  });

  it('failure metadata has code/message before 5.7', async () => {
    const client = await open(server.port, [5, 6]);
    client.send(M.RUN, ['FAIL Neo.ClientError.Statement.TypeError', map({}), map({})]);
    const failure = meta(await expect(client, SIG.FAILURE));
    assert.equal(failure.get('code'), 'Neo.ClientError.Statement.TypeError');
    assert.equal(failure.get('message'), 'Scripted failure Neo.ClientError.Statement.TypeError');
    assert.equal(failure.has('gql_status'), false);
    client.close();
  });

  it('explicit transactions: qids, PULL by qid, COMMIT with a bookmark', async () => {
    const client = await open(server.port, [5, 8]);
    client.send(M.BEGIN, [map({ bookmarks: ['bm:0'], tx_timeout: 5000n, mode: 'r', tx_metadata: map({ app: 'test' }) })]);
    assert.equal(meta(await expect(client, SIG.SUCCESS)).get('db'), 'neo4j');
    const options = () => log.runs.at(-1)!.options!;
    client.send(M.RUN, ['RANGE', map({ n: 3n }), map({})]);
    assert.equal(meta(await expect(client, SIG.SUCCESS)).get('qid'), 0n);
    assert.deepEqual(options().bookmarks, ['bm:0']);
    assert.equal(options().mode, 'READ');
    assert.equal(options().timeoutMs, 5000);
    assert.equal(options().metadata?.get('app'), 'test');
    client.send(M.RUN, ['ONE', map({}), map({})]);
    assert.equal(meta(await expect(client, SIG.SUCCESS)).get('qid'), 1n);
    client.send(M.PULL, [map({ n: -1n, qid: 0n })]);
    for (let i = 0; i < 3; i++) await expect(client, SIG.RECORD);
    assert.equal(meta(await expect(client, SIG.SUCCESS)).has('bookmark'), false);
    client.send(M.PULL, [map({ n: -1n })]);
    assert.deepEqual((await expect(client, SIG.RECORD)).fields[0], [1n]);
    await expect(client, SIG.SUCCESS);
    const commits = log.commits;
    client.send(M.COMMIT);
    assert.match(meta(await expect(client, SIG.SUCCESS)).get('bookmark') as string, /^bm:\d+$/);
    assert.equal(log.commits, commits + 1);
    client.close();
  });

  it('ROLLBACK and RESET both end a transaction without committing', async () => {
    const client = await open(server.port, [5, 0]);
    const rollbacks = log.rollbacks;
    client.send(M.BEGIN, [map({})]);
    await expect(client, SIG.SUCCESS);
    client.send(M.ROLLBACK);
    await expect(client, SIG.SUCCESS);
    client.send(M.BEGIN, [map({})]);
    await expect(client, SIG.SUCCESS);
    client.send(M.RUN, ['RANGE', map({ n: 3n }), map({})]);
    await expect(client, SIG.SUCCESS);
    client.send(M.RESET);
    await expect(client, SIG.SUCCESS);
    assert.equal(log.rollbacks, rollbacks + 2);
    client.close();
  });

  it('a message invalid in the current state fails, RESET recovers', async () => {
    const client = await open(server.port, [5, 8]);
    client.send(M.COMMIT);
    const failure = meta(await expect(client, SIG.FAILURE));
    assert.equal(failure.get('neo4j_code'), 'Neo.ClientError.Request.Invalid');
    assert.match(failure.get('message') as string, /COMMIT.*READY/);
    client.send(M.RUN, ['ONE', map({}), map({})]);
    await expect(client, SIG.IGNORED);
    client.send(M.RESET);
    await expect(client, SIG.SUCCESS);
    client.close();
  });

  it('RESET interrupts a running stream without producing the whole result', async () => {
    const client = await open(server.port, [5, 8]);
    const before = log.produced;
    client.send(M.RUN, ['RANGE', map({ n: 5_000_000n }), map({})]);
    client.send(M.PULL, [map({ n: -1n })]);
    await expect(client, SIG.SUCCESS);
    await expect(client, SIG.RECORD);
    client.send(M.RESET);
    let response = await client.next();
    while (response.signature === SIG.RECORD) response = await client.next();
    assert.equal(response.signature, SIG.IGNORED);
    await expect(client, SIG.SUCCESS);
    assert.ok(log.produced - before < 1_000_000, `produced ${log.produced - before}`);
    client.send(M.RUN, ['ONE', map({}), map({})]);
    await expect(client, SIG.SUCCESS);
    client.close();
  });

  it('without an authenticate callback the engine gets no security context (its default applies)', async () => {
    const client = await open(server.port, [5, 8]);
    client.send(M.RUN, ['ONE', map({}), map({ db: 'fresh' })]);
    await expect(client, SIG.SUCCESS);
    assert.equal('security' in log.sessions.at(-1)!, false);
    client.close();
  });

  it('ROUTE names this server as router, reader and writer', async () => {
    const client = await RawBoltClient.connect(server.port);
    await client.handshake([v(5, 8)]);
    client.startMessages();
    client.send(M.HELLO, [map({ user_agent: 'raw/1', routing: map({ address: 'db.example:7687' }) })]);
    await expect(client, SIG.SUCCESS);
    client.send(M.LOGON, [map({ scheme: 'none' })]);
    await expect(client, SIG.SUCCESS);
    client.send(M.ROUTE, [map({ address: 'db.example:7687' }), [], map({ db: 'neo4j' })]);
    const rt = meta(await expect(client, SIG.SUCCESS)).get('rt') as Map<string, WireValue>;
    assert.equal(rt.get('db'), 'neo4j');
    assert.equal(rt.get('ttl'), 300n);
    const servers = rt.get('servers') as Map<string, WireValue>[];
    assert.deepEqual(
      servers.map((s) => s.get('role')),
      ['ROUTE', 'READ', 'WRITE'],
    );
    assert.deepEqual(servers[0].get('addresses'), ['db.example:7687']);
    client.close();
  });

  it('TELEMETRY (5.4+) is acknowledged; LOGOFF returns to authentication', async () => {
    const { server: authServer, log: authLog } = await startFakeServer({
      authenticate: (_scheme, principal) => ({ username: principal, roles: ['editor'] }),
    });
    const client = await open(authServer.port, [5, 8]);
    client.send(M.TELEMETRY, [1n]);
    await expect(client, SIG.SUCCESS);
    client.send(M.LOGOFF);
    await expect(client, SIG.SUCCESS);
    client.send(M.LOGON, [map({ scheme: 'basic', principal: 'other', credentials: 'x' })]);
    await expect(client, SIG.SUCCESS);
    client.send(M.RUN, ['ONE', map({}), map({})]);
    await expect(client, SIG.SUCCESS);
    assert.equal(authLog.sessions.at(-1)?.security?.username, 'other');
    client.close();
    await authServer.close();
  });

  it('notifications: a list before 5.5, GQL statuses after, filtered by severity and category', async () => {
    const old = await open(server.port, [5, 4]);
    old.send(M.RUN, ['NOTIFY', map({}), map({})]);
    old.send(M.PULL, [map({ n: -1n })]);
    await expect(old, SIG.SUCCESS);
    await expect(old, SIG.RECORD);
    const listed = meta(await expect(old, SIG.SUCCESS)).get('notifications') as Map<string, WireValue>[];
    assert.equal(listed[0].get('code'), 'Neo.ClientNotification.Statement.CartesianProduct');
    assert.equal(listed[0].get('category'), 'GENERIC');
    old.send(M.RUN, ['NOTIFY', map({}), map({ notifications_minimum_severity: 'OFF' })]);
    old.send(M.PULL, [map({ n: -1n })]);
    await expect(old, SIG.SUCCESS);
    await expect(old, SIG.RECORD);
    assert.equal(meta(await expect(old, SIG.SUCCESS)).has('notifications'), false);
    old.close();

    const client = await open(server.port, [5, 8]);
    const statusesOf = async (extra: Record<string, unknown>): Promise<Map<string, WireValue>[]> => {
      client.send(M.RUN, ['NOTIFY', map({}), map(extra)]);
      client.send(M.PULL, [map({ n: -1n })]);
      await expect(client, SIG.SUCCESS);
      await expect(client, SIG.RECORD);
      return meta(await expect(client, SIG.SUCCESS)).get('statuses') as Map<string, WireValue>[];
    };
    const all = await statusesOf({});
    assert.deepEqual(
      all.map((s) => s.get('gql_status')),
      ['00000', '01N42'],
    );
    assert.equal(all[1].get('neo4j_code'), 'Neo.ClientNotification.Statement.CartesianProduct');
    assert.equal((all[1].get('diagnostic_record') as Map<string, WireValue>).get('_severity'), 'WARNING');
    assert.equal((await statusesOf({ notifications_disabled_classifications: ['GENERIC'] })).length, 1);
    assert.equal((await statusesOf({ notifications_minimum_severity: 'WARNING' })).length, 2);
    client.close();
  });

  it('GOODBYE closes the connection', async () => {
    const client = await open(server.port, [5, 8]);
    client.send(M.GOODBYE);
    await client.waitClosed();
  });

  it('a malformed message gets a FAILURE and the connection closes', async () => {
    const client = await open(server.port, [5, 8]);
    client.socket.write(Buffer.from([0x00, 0x03, 0xb1, 0x10, 0xc4, 0x00, 0x00]));
    const failure = meta(await expect(client, SIG.FAILURE));
    assert.equal(failure.get('neo4j_code'), 'Neo.ClientError.Request.InvalidFormat');
    await client.waitClosed();
  });

  it('an unknown message signature is a protocol error', async () => {
    const client = await open(server.port, [5, 0]);
    client.send(M.TELEMETRY, [1n]);
    await expect(client, SIG.FAILURE);
    await client.waitClosed();
  });
});
