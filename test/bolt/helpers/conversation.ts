/** Shared pieces of the raw-socket protocol tests: message signatures, a logged-on client, expectations. */
import assert from 'node:assert/strict';
import type { WireValue } from '../../../src/server/bolt/packstream/unpacker.js';
import { RawBoltClient, SIG, type Response } from './bolt-client.js';

/** Request signatures by name. */
export const M = {
  HELLO: 0x01,
  GOODBYE: 0x02,
  RESET: 0x0f,
  RUN: 0x10,
  BEGIN: 0x11,
  COMMIT: 0x12,
  ROLLBACK: 0x13,
  DISCARD: 0x2f,
  PULL: 0x3f,
  TELEMETRY: 0x54,
  ROUTE: 0x66,
  LOGON: 0x6a,
  LOGOFF: 0x6b,
} as const;
/** A 4-byte version proposal. */
export const v = (major: number, minor: number): number => (minor << 8) | major;
/** A MAP field from a plain object. */
export const map = (entries: Record<string, unknown>): Map<string, unknown> => new Map(Object.entries(entries));
/** The metadata map of a SUCCESS/FAILURE. */
export const meta = (response: Response): Map<string, WireValue> => response.fields[0] as Map<string, WireValue>;

/** Connects, negotiates `version` and logs on (HELLO, and LOGON from 5.1). */
export async function open(port: number, version: [number, number], auth = true): Promise<RawBoltClient> {
  const client = await RawBoltClient.connect(port);
  await client.handshake([v(...version)]);
  client.startMessages();
  const credentials = { scheme: 'basic', principal: 'neo4j', credentials: 'secret' };
  const logon = version[0] > 5 || (version[0] === 5 && version[1] >= 1);
  client.send(M.HELLO, [map({ user_agent: 'raw/1', ...(logon ? {} : credentials) })]);
  assert.equal((await client.next()).signature, SIG.SUCCESS);
  if (logon && auth) {
    client.send(M.LOGON, [map(credentials)]);
    assert.equal((await client.next()).signature, SIG.SUCCESS);
  }
  return client;
}

/** Reads the next response and checks its signature. */
export async function expect(client: RawBoltClient, signature: number): Promise<Response> {
  const response = await client.next();
  assert.equal(
    response.signature,
    signature,
    `expected 0x${signature.toString(16)}, got 0x${response.signature.toString(16)} ${JSON.stringify(response.fields, (_k, x) => (typeof x === 'bigint' ? x.toString() : x instanceof Map ? Object.fromEntries(x) : x))}`,
  );
  return response;
}
