import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connect as tlsConnect } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { decodeVarint, encodeVarint, manifestReply, negotiate, pickFromProposal } from '../../src/server/bolt/protocol/handshake.js';
import type { BoltServer } from '../../src/server/bolt/index.js';
import { opening, RawBoltClient } from './helpers/bolt-client.js';
import { startFakeServer } from './helpers/server.js';

const v = (major: number, minor: number, range = 0): number => (range << 16) | (minor << 8) | major;
const MANIFEST_HEX = '000001ff' + '04' + '00000006' + '00020805' + '00040405' + '00000404' + '00';

describe('handshake negotiation', () => {
  it('picks the newest supported version inside a range', () => {
    assert.deepEqual(pickFromProposal({ major: 5, minor: 8, range: 8 }), { major: 5, minor: 8 });
    assert.deepEqual(pickFromProposal({ major: 5, minor: 9, range: 9 }), { major: 5, minor: 8 });
    assert.deepEqual(pickFromProposal({ major: 4, minor: 4, range: 2 }), { major: 4, minor: 4 });
    assert.deepEqual(pickFromProposal({ major: 6, minor: 1, range: 1 }), { major: 6, minor: 0 });
    assert.equal(pickFromProposal({ major: 4, minor: 3, range: 1 }), null);
    assert.equal(pickFromProposal({ major: 3, minor: 0, range: 0 }), null);
    // 5.5 was never released: no server may negotiate it.
    assert.equal(pickFromProposal({ major: 5, minor: 5, range: 0 }), null);
    assert.deepEqual(pickFromProposal({ major: 5, minor: 5, range: 1 }), { major: 5, minor: 4 });
  });

  it('honours the client order of proposals', () => {
    const decision = negotiate(opening(v(4, 4), v(5, 8, 8)));
    assert.equal(decision.kind, 'version');
    assert.equal(decision.kind === 'version' && decision.reply.toString('hex'), '00000404');
    const first = negotiate(opening(v(7, 0), v(5, 4, 4), v(4, 4)));
    assert.equal(first.kind === 'version' && first.reply.toString('hex'), '00000405');
    const six = negotiate(opening(v(6, 0), v(5, 8, 8)));
    assert.equal(six.kind === 'version' && six.reply.toString('hex'), '00000006');
  });

  it('answers the 5.7+ manifest offer with the manifest', () => {
    const decision = negotiate(opening(0x000001ff, v(5, 8, 8), v(4, 4, 2), v(3, 0)));
    assert.equal(decision.kind, 'manifest');
    // marker, 4 entries: 6.0, 5.8 down to 5.6, 5.4 down to 5.0, 4.4; no capabilities.
    assert.equal(manifestReply().toString('hex'), MANIFEST_HEX);
  });

  it('answers zero when nothing matches and rejects a bad preamble', () => {
    const none = negotiate(opening(v(3, 0), v(2, 0)));
    assert.equal(none.kind === 'none' && none.reply.toString('hex'), '00000000');
    const bad = Buffer.from(opening(v(5, 0)));
    bad[0] = 0;
    assert.equal(negotiate(bad).kind, 'invalid');
  });

  it('encodes and decodes varints', () => {
    for (const value of [0, 1, 127, 128, 300, 2 ** 31]) {
      assert.deepEqual(decodeVarint(encodeVarint(value), 0), { value, length: encodeVarint(value).length });
    }
    assert.equal(decodeVarint(Buffer.from([0x80]), 0), null);
  });
});

describe('handshake over a socket', () => {
  let server: BoltServer;
  before(async () => {
    ({ server } = await startFakeServer());
  });
  after(() => server.close());

  it('negotiates a legacy proposal and then speaks that version', async () => {
    const client = await RawBoltClient.connect(server.port);
    const reply = await client.handshake([v(5, 4, 4), v(4, 4)]);
    assert.equal(reply.toString('hex'), '00000405');
    client.startMessages();
    client.send(0x01, [new Map([['user_agent', 'raw/1']])]);
    const hello = await client.next();
    assert.equal(hello.signature, 0x70);
    client.close();
  });

  it('runs the manifest exchange: server lists versions, client picks one', async () => {
    const client = await RawBoltClient.connect(server.port);
    const reply = await client.handshake([0x000001ff, v(5, 8, 8)], MANIFEST_HEX.length / 2);
    assert.equal(reply.toString('hex'), MANIFEST_HEX);
    const choice = Buffer.alloc(5);
    choice.writeUInt32BE(v(5, 6));
    client.socket.write(choice);
    client.startMessages();
    client.send(0x01, [new Map([['user_agent', 'raw/1']])]);
    const hello = await client.next();
    assert.equal(hello.signature, 0x70);
    client.close();
  });

  it('closes when the manifest choice names a version it did not offer', async () => {
    const client = await RawBoltClient.connect(server.port);
    await client.handshake([0x000001ff], MANIFEST_HEX.length / 2);
    const choice = Buffer.alloc(5);
    choice.writeUInt32BE(v(3, 0));
    client.socket.write(choice);
    await client.waitClosed();
  });

  it('answers 00000000 and closes when no version matches', async () => {
    const client = await RawBoltClient.connect(server.port);
    const reply = await client.handshake([v(3, 0), v(2, 0)]);
    assert.equal(reply.toString('hex'), '00000000');
    await client.waitClosed();
  });

  it('closes at once on a wrong preamble', async () => {
    const client = await RawBoltClient.connect(server.port);
    client.socket.write(Buffer.from('HELLO WORLD, not bolt'));
    await client.waitClosed();
  });
});

describe('handshake timeout', () => {
  it('closes a connection that never completes the handshake', async () => {
    const { server } = await startFakeServer({ handshakeTimeoutMs: 100 });
    try {
      const client = await RawBoltClient.connect(server.port);
      client.socket.write(Buffer.from([0x60, 0x60]));
      await client.waitClosed();
      const silent = await RawBoltClient.connect(server.port);
      await silent.waitClosed();
    } finally {
      await server.close();
    }
  });
});

describe('handshake deadline under TLS and WebSocket', () => {
  const fixture = (name: string): Buffer => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
  const tls = { key: fixture('localhost-key.pem'), cert: fixture('localhost-cert.pem') };

  it('drops a client that stalls in the TLS handshake, even while it trickles bytes', async () => {
    const { server } = await startFakeServer({ handshakeTimeoutMs: 200, tls });
    try {
      const stalled = await RawBoltClient.connect(server.port);
      // The start of a TLS ClientHello record, never completed.
      stalled.socket.write(Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01]));
      const trickling = await RawBoltClient.connect(server.port);
      trickling.socket.write(Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00]));
      const ticker = setInterval(() => trickling.socket.write(Buffer.from([0x00])), 50);
      const started = Date.now();
      try {
        await Promise.all([stalled.waitClosed(), trickling.waitClosed()]);
      } finally {
        clearInterval(ticker);
      }
      assert.ok(Date.now() - started < 5_000, 'both connections closed by the deadline');
    } finally {
      await server.close();
    }
  });

  it('drops a client that starts an HTTP upgrade and never finishes it', async () => {
    const { server } = await startFakeServer({ handshakeTimeoutMs: 200 });
    try {
      const client = await RawBoltClient.connect(server.port);
      client.socket.write('GET / HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\n');
      await client.waitClosed();
    } finally {
      await server.close();
    }
  });

  it('keeps a connection that completed TLS and the Bolt handshake past the deadline', async () => {
    const { server } = await startFakeServer({ handshakeTimeoutMs: 200, tls });
    try {
      const socket = tlsConnect({ host: '127.0.0.1', port: server.port, rejectUnauthorized: false });
      await new Promise<void>((resolve, reject) => socket.once('secureConnect', resolve).once('error', reject));
      socket.write(opening((8 << 8) | 5));
      const reply = await new Promise<Buffer>((resolve) => socket.once('data', resolve));
      assert.equal(reply.subarray(0, 4).toString('hex'), '00000805');
      let closed = false;
      socket.once('close', () => (closed = true));
      // A connection opened later that never handshakes is dropped at its deadline, so the first one's has passed too.
      const control = await RawBoltClient.connect(server.port);
      await control.waitClosed();
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(socket.destroyed, false);
      assert.equal(closed, false);
      socket.destroy();
    } finally {
      await server.close();
    }
  });
});
