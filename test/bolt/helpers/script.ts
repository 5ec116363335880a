/**
 * Scripted Bolt conversations in the manner of testkit's `*.script` files:
 *
 *   !: BOLT 5.8                      handshake proposing exactly this version
 *   C: RUN "RETURN 1", {}, {}        a client message; fields are comma-separated JSON
 *   S: SUCCESS {"fields": ["n"]}     the next server message must match
 *   S: <EXIT>                        the server must close the connection
 *   # comment
 *
 * JSON integers are INTEGER (bigint), other numbers FLOAT, objects MAP. Expected maps match when
 * every listed key matches (extra keys are allowed); the string "*" matches any value.
 */
import { inspect } from 'node:util';
import assert from 'node:assert/strict';
import { Structure } from '../../../src/server/bolt/packstream/structure.js';
import { RawBoltClient, type Response } from './bolt-client.js';

const CLIENT_SIGNATURES: Readonly<Record<string, number>> = {
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
};
const SERVER_NAMES: Readonly<Record<number, string>> = { 0x70: 'SUCCESS', 0x71: 'RECORD', 0x7e: 'IGNORED', 0x7f: 'FAILURE' };

type Step =
  | { readonly kind: 'bolt'; readonly major: number; readonly minor: number }
  | { readonly kind: 'client'; readonly signature: number; readonly fields: unknown[]; readonly line: number }
  | { readonly kind: 'server'; readonly name: string; readonly fields: unknown[]; readonly line: number }
  | { readonly kind: 'exit'; readonly line: number };

/** JSON (as parsed) to wire values: integers become bigint, objects Maps. */
function toWire(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(toWire);
  if (value !== null && typeof value === 'object') return new Map(Object.entries(value).map(([k, v]) => [k, toWire(v)]));
  return value;
}

function parseFields(text: string, line: number): unknown[] {
  if (text.trim() === '') return [];
  try {
    return (JSON.parse(`[${text}]`) as unknown[]).map(toWire);
  } catch (error) {
    throw new Error(`script line ${line}: cannot parse fields ${text}: ${(error as Error).message}`, { cause: error });
  }
}

/** Parses a script's text into steps. */
export function parseScript(text: string): Step[] {
  const steps: Step[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = index + 1;
    const content = raw.trim();
    if (content === '' || content.startsWith('#')) return;
    const match = /^([!CS]):\s*(\S+)\s*(.*)$/.exec(content);
    if (!match) throw new Error(`script line ${line}: cannot read "${content}"`);
    const [, who, word, rest] = match as unknown as [string, string, string, string];
    if (who === '!') {
      const [major, minor] = rest.split('.').map(Number);
      steps.push({ kind: 'bolt', major: major, minor: minor });
    } else if (who === 'C') {
      const signature = CLIENT_SIGNATURES[word];
      if (signature === undefined) throw new Error(`script line ${line}: unknown client message ${word}`);
      steps.push({ kind: 'client', signature, fields: parseFields(rest, line), line });
    } else if (word === '<EXIT>') {
      steps.push({ kind: 'exit', line });
    } else {
      steps.push({ kind: 'server', name: word, fields: parseFields(rest, line), line });
    }
  });
  return steps;
}

/** True when `actual` matches `expected` (subset maps, "*" wildcard). */
export function matches(actual: unknown, expected: unknown): boolean {
  if (expected === '*') return true;
  if (expected instanceof Map) {
    if (!(actual instanceof Map)) return false;
    for (const [key, value] of expected) if (!actual.has(key) || !matches(actual.get(key), value)) return false;
    return true;
  }
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && actual.length === expected.length && expected.every((item, i) => matches(actual[i], item));
  }
  if (actual instanceof Structure) return false;
  return Object.is(actual, expected) || actual === expected;
}

function show(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    typeof item === 'bigint'
      ? Number(item)
      : item instanceof Map
        ? Object.fromEntries(item)
        : item instanceof Structure
          ? inspect(item)
          : item,
  );
}

/** Plays a script against a server; client messages are sent as they come (pipelined). */
export async function playScript(port: number, text: string): Promise<void> {
  const steps = parseScript(text);
  const client = await RawBoltClient.connect(port);
  try {
    for (const step of steps) {
      if (step.kind === 'bolt') {
        const reply = await client.handshake([(step.minor << 8) | step.major]);
        assert.equal(reply.readUInt32BE(0), (step.minor << 8) | step.major, `handshake for ${step.major}.${step.minor}`);
        client.startMessages();
      } else if (step.kind === 'client') {
        client.send(step.signature, step.fields);
      } else if (step.kind === 'exit') {
        await client.waitClosed();
      } else {
        const response: Response = await client.next();
        const name = SERVER_NAMES[response.signature] ?? `0x${response.signature.toString(16)}`;
        const ok =
          name === step.name && step.fields.length <= response.fields.length && step.fields.every((f, i) => matches(response.fields[i], f));
        assert.ok(ok, `script line ${step.line}: expected S: ${step.name} ${show(step.fields)}, got S: ${name} ${show(response.fields)}`);
      }
    }
  } finally {
    client.close();
  }
}
