/** Bolt over WebSocket and over native TLS, on the same port as plain Bolt. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connect as tlsConnect } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import neo4j from 'neo4j-driver';
import WebSocket from 'ws';
import type { BoltServer } from '../../src/server/bolt/index.js';
import { Structure } from '../../src/server/bolt/packstream/structure.js';
import { unpackOne } from '../../src/server/bolt/packstream/unpacker.js';
import { Dechunker } from '../../src/server/bolt/protocol/chunking.js';
import { chunked, opening } from './helpers/bolt-client.js';
import { startFakeServer } from './helpers/server.js';

const fixture = (name: string): Buffer => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
const tls = { key: fixture('localhost-key.pem'), cert: fixture('localhost-cert.pem') };
const v58 = (8 << 8) | 5;

/** Speaks Bolt over an open duplex of bytes: handshake, HELLO, LOGON, RUN, PULL; returns the record. */
async function boltConversation(send: (bytes: Buffer) => void, receive: () => Promise<Buffer>): Promise<unknown> {
  send(opening(v58));
  let buffered = Buffer.alloc(0);
  while (buffered.length < 4) buffered = Buffer.concat([buffered, await receive()]);
  assert.equal(buffered.subarray(0, 4).toString('hex'), '00000805');
  const dechunker = new Dechunker(1 << 20);
  const responses: Structure[] = [];
  const push = (bytes: Buffer): void => {
    for (const message of dechunker.push(bytes)) responses.push(unpackOne(message) as Structure);
  };
  push(buffered.subarray(4));
  send(
    Buffer.concat([
      chunked(0x01, [new Map([['user_agent', 'ws/1']])]),
      chunked(0x6a, [new Map([['scheme', 'none']])]),
      chunked(0x10, ['ONE', new Map(), new Map()]),
      chunked(0x3f, [new Map([['n', -1n]])]),
    ]),
  );
  while (responses.length < 5) push(await receive());
  assert.deepEqual(
    responses.map((r) => r.signature),
    [0x70, 0x70, 0x70, 0x71, 0x70],
  );
  return responses[3].fields[0];
}

describe('Bolt transports', () => {
  let server: BoltServer;
  before(async () => {
    ({ server } = await startFakeServer({ tls }));
  });
  after(() => server.close());

  it('serves Bolt over WebSocket on the same port', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}`);
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const inbox: Buffer[] = [];
    let wake: (() => void) | null = null;
    ws.on('message', (data: Buffer) => {
      inbox.push(data);
      wake?.();
    });
    const receive = async (): Promise<Buffer> => {
      while (inbox.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      return inbox.shift()!;
    };
    const record = await boltConversation((bytes) => ws.send(bytes), receive);
    assert.deepEqual(record, [1n]);
    ws.close();
  });

  it('answers a plain HTTP request with 426', async () => {
    const response = await fetch(`http://127.0.0.1:${server.port}/`);
    assert.equal(response.status, 426);
  });

  it('serves Bolt over TLS on the same port (neo4j-driver, bolt+ssc://)', async () => {
    const driver = neo4j.driver(`bolt+ssc://localhost:${server.port}`, neo4j.auth.basic('u', 'p'));
    try {
      const result = await driver.executeQuery('ONE');
      assert.ok(neo4j.int(1).equals(result.records[0].get('n')));
    } finally {
      await driver.close();
    }
  });

  it('serves Bolt over WebSocket inside TLS (wss)', async () => {
    const ws = new WebSocket(`wss://localhost:${server.port}`, { ca: tls.cert });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const inbox: Buffer[] = [];
    let wake: (() => void) | null = null;
    ws.on('message', (data: Buffer) => {
      inbox.push(data);
      wake?.();
    });
    const receive = async (): Promise<Buffer> => {
      while (inbox.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      return inbox.shift()!;
    };
    assert.deepEqual(await boltConversation((bytes) => ws.send(bytes), receive), [1n]);
    ws.close();
  });

  it('refuses plain connections when TLS is required', async () => {
    const { server: strict } = await startFakeServer({ tls: { ...tls, required: true } });
    try {
      const plain = neo4j.driver(`bolt://127.0.0.1:${strict.port}`, neo4j.auth.basic('u', 'p'), { connectionTimeout: 2000 });
      await assert.rejects(plain.verifyConnectivity());
      await plain.close();
      const socket = tlsConnect({ port: strict.port, host: '127.0.0.1', ca: tls.cert, servername: 'localhost' });
      await new Promise((resolve, reject) => {
        socket.once('secureConnect', resolve);
        socket.once('error', reject);
      });
      const chunks: Buffer[] = [];
      let wake: (() => void) | null = null;
      socket.on('data', (data: Buffer) => {
        chunks.push(data);
        wake?.();
      });
      const receive = async (): Promise<Buffer> => {
        while (chunks.length === 0) await new Promise<void>((resolve) => (wake = resolve));
        return chunks.shift()!;
      };
      assert.deepEqual(await boltConversation((bytes) => socket.write(bytes), receive), [1n]);
      socket.destroy();
    } finally {
      await strict.close();
    }
  });
});
