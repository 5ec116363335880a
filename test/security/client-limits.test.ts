/**
 * Per-client resource limits (issue #24), each setting observed: connections per listener and
 * per IP, slow-header HTTP clients, HTTP results streamed with backpressure (non-reading clients
 * disconnected after write_timeout, a result-size limit), Bolt inbound bytes before
 * authentication, Bolt idle and write timeouts.
 */
import assert from 'node:assert/strict';
import http2 from 'node:http2';
import { connect, type Socket } from 'node:net';
import { describe, test } from 'node:test';
import WebSocket from 'ws';
import { GraphDB } from '../../src/engine/index.js';
import { startBoltServer } from '../../src/server/bolt/index.js';
import { RawBoltClient, SIG } from '../bolt/helpers/bolt-client.js';
import { M, map, open, v } from '../bolt/helpers/conversation.js';
import { eventually } from '../helpers/eventually.js';
import { commit, startTestServer } from '../http/helpers.js';

function portOf(url: string): number {
  return Number(new URL(url).port);
}

/** Opens a raw TCP connection; resolves once connected. */
async function rawConnect(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return socket;
}

function closed(socket: Socket): Promise<void> {
  return socket.destroyed ? Promise.resolve() : new Promise((resolve) => socket.once('close', () => resolve()));
}

/** Resolves true when `socket` is closed by the peer before `ms`, false otherwise. */
async function closedWithin(socket: Socket, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const result = await Promise.race([
    closed(socket).then(() => true),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
  ]);
  clearTimeout(timer);
  return result;
}

const BIG_RESULT =
  "UNWIND range(1, 300000) AS i RETURN i, 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' AS pad";

describe('HTTP listener', () => {
  test('database.max_connections and server.limits.max_connections_per_ip close extra connections at once', async () => {
    const server = await startTestServer({ 'database.max_connections': 3, 'server.limits.max_connections_per_ip': 2 });
    try {
      const port = portOf(server.url);
      const first = await rawConnect(port);
      const second = await rawConnect(port);
      const third = await rawConnect(port);
      assert.ok(await closedWithin(third, 5000), 'the third connection from one IP is closed');
      assert.ok(!first.destroyed && !second.destroyed);
      first.destroy();
      second.destroy();
      await Promise.all([closed(first), closed(second)]);
    } finally {
      await server.stop();
    }
  });

  test('server.limits.headers_timeout closes a slow-header (slowloris) client', async () => {
    const server = await startTestServer({ 'server.limits.headers_timeout': 400 });
    try {
      const socket = await rawConnect(portOf(server.url));
      socket.write('GET /health HTTP/1.1\r\nHost: x\r\n');
      const trickle = setInterval(() => socket.writable && socket.write('X-A: b\r\n'), 50);
      const started = Date.now();
      await closed(socket);
      clearInterval(trickle);
      assert.ok(Date.now() - started < 10_000, 'closed long before the 60 s node default');
    } finally {
      await server.stop();
    }
  });

  test('a client that does not read a large result is disconnected after server.limits.write_timeout', async () => {
    const server = await startTestServer({ 'server.limits.write_timeout': 500 });
    try {
      const socket = await rawConnect(portOf(server.url));
      const body = JSON.stringify({ statements: [{ statement: BIG_RESULT }] });
      socket.write(
        `POST /db/graphdb/tx/commit HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      socket.once('data', () => socket.pause());
      // A paused client cannot see the close: watch the server's side of the connection.
      const listener = server.server.app!.server;
      const connections = () => new Promise<number>((resolve) => listener.getConnections((_e, n) => resolve(n)));
      await eventually(
        async () => ((await connections()) === 0 ? true : undefined),
        'the server to close the non-reading connection',
        30_000,
      );
      socket.destroy();
      const after = await commit(server.url, ['RETURN 1 AS one']);
      assert.deepEqual(after.body.results[0].data[0].row, [1]);
    } finally {
      await server.stop();
    }
  });

  test('results stream (the first bytes arrive before the statement ends) and server.limits.http_max_result_bytes fails a larger one', async () => {
    const server = await startTestServer({ 'server.limits.http_max_result_bytes': 1_000_000 });
    try {
      const response = await commit(server.url, [BIG_RESULT]);
      assert.equal(response.status, 200);
      assert.equal(response.body.errors[0].code, 'Neo.TransientError.Request.ResourceExhaustion');
      assert.match(response.body.errors[0].message, /http_max_result_bytes/);
      assert.ok(response.text.length <= 1_000_000 + 10_000, `${response.text.length} bytes`);
      const small = await commit(server.url, ['UNWIND range(1, 3) AS i RETURN i']);
      assert.deepEqual(small.body.errors, []);
      assert.equal(small.body.results[0].data.length, 3);
    } finally {
      await server.stop();
    }
  });
});

describe('gRPC listener', () => {
  test('max_connections_per_ip and idle_timeout apply to the vector-API gRPC listener', async () => {
    const server = await startTestServer({
      'vectorapi.grpc_enabled': true,
      'vectorapi.grpc_listen_addr': '127.0.0.1:0',
      'server.limits.max_connections_per_ip': 1,
      'server.limits.idle_timeout': 300,
    });
    try {
      const port = server.server.vectorApi!.port;
      const session = http2.connect(`http://127.0.0.1:${port}`);
      session.on('error', () => undefined);
      await new Promise<void>((resolve) => session.once('connect', () => resolve()));
      const second = await rawConnect(port);
      assert.ok(await closedWithin(second, 5000), 'a second connection from the address is closed');
      await new Promise<void>((resolve) => session.once('close', () => resolve()));
      assert.ok(session.destroyed || session.closed, 'the idle HTTP/2 session is closed');
    } finally {
      await server.stop();
    }
  });
});

describe('GraphQL WebSocket', () => {
  test('an inbound message larger than server.body_limit closes the socket (1009)', async () => {
    const server = await startTestServer({ 'server.body_limit': 2048 });
    try {
      const ws = new WebSocket(`${server.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', reject);
      });
      ws.send(JSON.stringify({ type: 'connection_init', payload: { pad: 'z'.repeat(10_000) } }));
      const code = await new Promise<number>((resolve) => ws.once('close', (closeCode) => resolve(closeCode)));
      assert.equal(code, 1009);
    } finally {
      await server.stop();
    }
  });
});

describe('Bolt listener', () => {
  async function boltServer(limits: Parameters<typeof startBoltServer>[0]['limits'], authenticate = true) {
    const db = await GraphDB.open({ search: false });
    const server = await startBoltServer({
      port: 0,
      host: '127.0.0.1',
      engine: db,
      limits,
      ...(authenticate ? { authenticate: () => ({ username: 'neo4j', roles: ['admin'] }) } : {}),
    });
    return {
      server,
      close: async () => {
        await server.close();
        await db.close();
      },
    };
  }

  test('server.limits.bolt_unauthenticated_max_bytes: a big message before LOGON gets FAILURE and a close', async () => {
    const { server, close } = await boltServer({ unauthenticatedMaxBytes: 4096 });
    try {
      const client = await RawBoltClient.connect(server.port);
      await client.handshake([v(5, 4)]);
      client.startMessages();
      client.send(M.HELLO, [map({ user_agent: 'x'.repeat(20_000) })]);
      const response = await client.next();
      assert.equal(response.signature, SIG.FAILURE);
      assert.match(String((response.fields[0] as Map<string, unknown>).get('message')), /bolt_unauthenticated_max_bytes/);
      await client.waitClosed();
    } finally {
      await close();
    }
  });

  test('the same message after authentication is accepted', async () => {
    const { server, close } = await boltServer({ unauthenticatedMaxBytes: 4096 });
    try {
      const client = await open(server.port, [5, 4]);
      client.send(M.RUN, [`RETURN '${'y'.repeat(20_000)}' AS s`, map({}), map({})]);
      client.send(M.PULL, [map({ n: -1n })]);
      assert.equal((await client.next()).signature, SIG.SUCCESS);
      assert.equal((await client.next()).signature, SIG.RECORD);
      client.close();
    } finally {
      await close();
    }
  });

  test('server.limits.bolt_max_inbound_bytes: 300 pipelined requests over a 1 KiB budget are all answered, in order', async () => {
    const { server, close } = await boltServer({ maxInboundBytes: 1024 });
    try {
      const client = await open(server.port, [5, 4]);
      for (let i = 0; i < 150; i++) {
        client.send(M.RUN, [`RETURN ${i} AS i, '${'p'.repeat(40)}' AS pad`, map({}), map({})]);
        client.send(M.PULL, [map({ n: -1n })]);
      }
      for (let i = 0; i < 150; i++) {
        assert.equal((await client.next()).signature, SIG.SUCCESS);
        const record = await client.next();
        assert.equal(record.signature, SIG.RECORD);
        assert.equal((record.fields[0] as unknown[])[0], BigInt(i));
        assert.equal((await client.next()).signature, SIG.SUCCESS);
      }
      client.close();
    } finally {
      await close();
    }
  });

  test('server.limits.idle_timeout closes an idle connection', async () => {
    const { server, close } = await boltServer({ idleTimeoutMs: 300 });
    try {
      const client = await open(server.port, [5, 4]);
      const started = Date.now();
      await client.waitClosed();
      assert.ok(Date.now() - started >= 250);
    } finally {
      await close();
    }
  });

  test('server.limits.write_timeout disconnects a client that does not read its records', async () => {
    const { server, close } = await boltServer({ writeTimeoutMs: 500 });
    try {
      const client = await open(server.port, [5, 4]);
      client.socket.pause();
      client.send(M.RUN, [BIG_RESULT, map({}), map({})]);
      client.send(M.PULL, [map({ n: -1n })]);
      const socket = client.socket;
      let serverClosed = false;
      socket.once('end', () => (serverClosed = true));
      await new Promise<void>((resolve) => {
        const check = setInterval(() => {
          if (server.connectionCount === 0) {
            clearInterval(check);
            resolve();
          }
        }, 50);
      });
      assert.equal(server.connectionCount, 0);
      client.close();
      void serverClosed;
    } finally {
      await close();
    }
  });

  test('database.max_connections and max_connections_per_ip apply to Bolt', async () => {
    const { server, close } = await boltServer({ maxConnections: 2, maxConnectionsPerIp: 1 }, false);
    try {
      const first = await rawConnect(server.port);
      const second = await rawConnect(server.port);
      assert.ok(await closedWithin(second, 5000));
      assert.ok(!first.destroyed);
      first.destroy();
    } finally {
      await close();
    }
  });
});
