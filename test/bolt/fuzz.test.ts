/**
 * Fuzzing the listener: random bytes, mutated handshakes and mutated messages from many
 * clients. The server must neither crash nor stop serving a well-behaved client.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import neo4j, { type Driver } from 'neo4j-driver';
import type { BoltServer } from '../../src/server/bolt/index.js';
import { chunked, opening } from './helpers/bolt-client.js';
import { startFakeServer } from './helpers/server.js';

const v58 = (8 << 8) | 5;

/** Sends bytes, reads whatever comes back for a moment, then hangs up. */
function blast(port: number, payloads: readonly Buffer[]): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const done = (): void => {
      socket.destroy();
      resolve();
    };
    socket.on('error', done);
    socket.on('close', done);
    socket.on('data', () => undefined);
    socket.on('connect', () => {
      for (const payload of payloads) socket.write(payload);
      setTimeout(done, 30);
    });
  });
}

function mutate(bytes: Buffer, mutations: readonly [number, number][]): Buffer {
  const copy = Buffer.from(bytes);
  for (const [at, value] of mutations) copy[at % copy.length] = value;
  return copy;
}

const validConversation = Buffer.concat([
  chunked(0x01, [new Map([['user_agent', 'fuzz/1']])]),
  chunked(0x6a, [new Map([['scheme', 'none']])]),
  chunked(0x10, [
    'RANGE',
    new Map([['n', 50n]]),
    new Map<string, unknown>([
      ['db', 'neo4j'],
      ['bookmarks', ['x']],
    ]),
  ]),
  chunked(0x3f, [new Map([['n', 10n]])]),
  chunked(0x11, [new Map([['mode', 'r']])]),
  chunked(0x10, ['ECHO', new Map<string, unknown>([['x', [1n, 'two', new Map([['three', 3.0]])]]]), new Map()]),
  chunked(0x2f, [
    new Map([
      ['n', -1n],
      ['qid', 0n],
    ]),
  ]),
  chunked(0x12, []),
  chunked(0x0f, []),
]);

describe('Bolt listener fuzzing', () => {
  let server: BoltServer;
  let lines: string[];
  let driver: Driver;
  before(async () => {
    ({ server, lines } = await startFakeServer());
    driver = neo4j.driver(`bolt://127.0.0.1:${server.port}`, neo4j.auth.basic('u', 'p'));
  });
  after(async () => {
    await driver.close();
    await server.close();
  });

  const healthy = async (): Promise<void> => {
    const result = await driver.executeQuery('ONE');
    assert.ok(neo4j.int(1).equals(result.records[0].get('n')));
  };

  it('survives random bytes', async () => {
    const samples = fc.sample(fc.uint8Array({ minLength: 1, maxLength: 512 }), { numRuns: 150, seed: 42 });
    for (let i = 0; i < samples.length; i += 15) {
      await Promise.all(samples.slice(i, i + 15).map((bytes) => blast(server.port, [Buffer.from(bytes)])));
      await healthy();
    }
  });

  it('survives a valid handshake followed by random or mutated messages', async () => {
    const mutations = fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 });
    const cases = fc.sample(
      fc.oneof(
        fc.uint8Array({ maxLength: 400 }).map((bytes) => Buffer.from(bytes)),
        mutations.map((m) => mutate(validConversation, m)),
      ),
      { numRuns: 200, seed: 7 },
    );
    for (let i = 0; i < cases.length; i += 20) {
      await Promise.all(cases.slice(i, i + 20).map((payload) => blast(server.port, [opening(v58), payload])));
      await healthy();
    }
  });

  it('survives mutated handshakes and manifest choices', async () => {
    const cases = fc.sample(
      fc.tuple(fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 4 }), fc.uint8Array({ maxLength: 16 })),
      { numRuns: 120, seed: 3 },
    );
    await Promise.all(cases.map(([m, tail]) => blast(server.port, [mutate(opening(0x000001ff, (8 << 16) | v58), m), Buffer.from(tail)])));
    await healthy();
  });

  it('survives hostile sizes: huge chunks, huge declared strings, deep nesting', async () => {
    const hostile = [
      Buffer.from([0xff, 0xff, 0xb1, 0x10, 0xd2, 0x7f, 0xff, 0xff, 0xff]),
      Buffer.concat([Buffer.from([0x00, 0x09]), Buffer.from([0xb3, 0x10, 0xd6, 0x7f, 0xff, 0xff, 0xff, 0x00, 0x00]), Buffer.alloc(2)]),
      Buffer.concat(Array.from({ length: 40 }, () => Buffer.concat([Buffer.from([0xff, 0xff]), Buffer.alloc(0xffff, 0x91)]))),
    ];
    await Promise.all(hostile.map((payload) => blast(server.port, [opening(v58), payload])));
    await healthy();
    assert.ok(!lines.some((line) => line.startsWith('ERROR')), lines.filter((line) => line.startsWith('ERROR')).join('\n'));
  });
});
