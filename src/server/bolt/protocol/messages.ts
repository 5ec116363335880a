import { PackStreamError } from '../packstream/errors.js';
import { Structure } from '../packstream/structure.js';
import { unpackOne, type UnpackLimits, type WireValue } from '../packstream/unpacker.js';
import type { ProtocolFeatures } from './versions.js';

/** Request message signatures (client to server). */
export const RequestSignature = {
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

/** Response message signatures (server to client). */
export const ResponseSignature = {
  SUCCESS: 0x70,
  RECORD: 0x71,
  IGNORED: 0x7e,
  FAILURE: 0x7f,
} as const;

/** A decoded map of message metadata. */
export type WireMap = Map<string, WireValue>;

/** `n` and `qid` of PULL and DISCARD; -1 means "all" / "the last statement". */
export interface StreamRequest {
  readonly n: number;
  readonly qid: number;
}

/** Every request, decoded and shape-checked. */
export type RequestMessage =
  | { readonly type: 'HELLO'; readonly extra: WireMap }
  | { readonly type: 'LOGON'; readonly auth: WireMap }
  | { readonly type: 'LOGOFF' }
  | { readonly type: 'GOODBYE' }
  | { readonly type: 'RESET' }
  | { readonly type: 'RUN'; readonly query: string; readonly parameters: WireMap; readonly extra: WireMap }
  | { readonly type: 'BEGIN'; readonly extra: WireMap }
  | { readonly type: 'COMMIT' }
  | { readonly type: 'ROLLBACK' }
  | ({ readonly type: 'PULL' } & StreamRequest)
  | ({ readonly type: 'DISCARD' } & StreamRequest)
  | { readonly type: 'TELEMETRY'; readonly api: number }
  | {
      readonly type: 'ROUTE';
      readonly routing: WireMap;
      readonly bookmarks: readonly string[];
      readonly database: string | null;
      readonly impersonatedUser: string | null;
    };

/** The name of a request type, e.g. `RUN`. */
export type RequestType = RequestMessage['type'];

/** Decodes one dechunked message; malformed messages throw PackStreamError (fatal). */
export function decodeRequest(bytes: Uint8Array, features: ProtocolFeatures, limits?: UnpackLimits): RequestMessage {
  const value = unpackOne(bytes, limits);
  if (!(value instanceof Structure)) throw new PackStreamError('A Bolt message must be a structure');
  const f = value.fields as WireValue[];
  switch (value.signature) {
    case RequestSignature.HELLO:
      expectFields('HELLO', f, 1);
      return { type: 'HELLO', extra: map('HELLO', f[0]) };
    case RequestSignature.LOGON:
      if (!features.logon) break;
      expectFields('LOGON', f, 1);
      return { type: 'LOGON', auth: map('LOGON', f[0]) };
    case RequestSignature.LOGOFF:
      if (!features.logon) break;
      expectFields('LOGOFF', f, 0);
      return { type: 'LOGOFF' };
    case RequestSignature.GOODBYE:
      expectFields('GOODBYE', f, 0);
      return { type: 'GOODBYE' };
    case RequestSignature.RESET:
      expectFields('RESET', f, 0);
      return { type: 'RESET' };
    case RequestSignature.RUN:
      expectFields('RUN', f, 3);
      if (typeof f[0] !== 'string') throw new PackStreamError('RUN query must be a string');
      return { type: 'RUN', query: f[0], parameters: map('RUN', f[1]), extra: map('RUN', f[2]) };
    case RequestSignature.BEGIN:
      expectFields('BEGIN', f, 1);
      return { type: 'BEGIN', extra: map('BEGIN', f[0]) };
    case RequestSignature.COMMIT:
      expectFields('COMMIT', f, 0);
      return { type: 'COMMIT' };
    case RequestSignature.ROLLBACK:
      expectFields('ROLLBACK', f, 0);
      return { type: 'ROLLBACK' };
    case RequestSignature.PULL:
      expectFields('PULL', f, 1);
      return { type: 'PULL', ...streamRequest('PULL', map('PULL', f[0])) };
    case RequestSignature.DISCARD:
      expectFields('DISCARD', f, 1);
      return { type: 'DISCARD', ...streamRequest('DISCARD', map('DISCARD', f[0])) };
    case RequestSignature.TELEMETRY:
      if (!features.telemetry) break;
      expectFields('TELEMETRY', f, 1);
      if (typeof f[0] !== 'bigint') throw new PackStreamError('TELEMETRY api must be an integer');
      return { type: 'TELEMETRY', api: Number(f[0]) };
    case RequestSignature.ROUTE:
      return decodeRoute(f);
  }
  throw new PackStreamError(
    `Unknown message signature 0x${value.signature.toString(16)} for Bolt ${features.version.major}.${features.version.minor}`,
  );
}

function decodeRoute(f: WireValue[]): RequestMessage {
  expectFields('ROUTE', f, 3);
  const routing = map('ROUTE', f[0]);
  const bookmarks = f[1] === null ? [] : f[1];
  if (!Array.isArray(bookmarks) || !bookmarks.every((b) => typeof b === 'string')) {
    throw new PackStreamError('ROUTE bookmarks must be a list of strings');
  }
  const context = f[2];
  let database: string | null = null;
  let impersonatedUser: string | null = null;
  if (typeof context === 'string') database = context;
  else if (context instanceof Map) {
    database = optionalString(context.get('db'));
    impersonatedUser = optionalString(context.get('imp_user'));
  } else if (context !== null) throw new PackStreamError('ROUTE database context must be a map');
  return { type: 'ROUTE', routing, bookmarks: bookmarks, database, impersonatedUser };
}

function streamRequest(name: string, extra: WireMap): StreamRequest {
  const n = extra.get('n') ?? -1n;
  const qid = extra.get('qid') ?? -1n;
  if (typeof n !== 'bigint' || typeof qid !== 'bigint') throw new PackStreamError(`${name} n and qid must be integers`);
  if (n === 0n || n < -1n) throw new PackStreamError(`${name} n must be positive or -1`);
  return { n: Number(n), qid: Number(qid) };
}

function expectFields(name: string, fields: readonly unknown[], count: number): void {
  if (fields.length !== count) {
    throw new PackStreamError(`${name} expects ${count} fields, got ${fields.length}`);
  }
}

function map(name: string, value: WireValue | undefined): WireMap {
  if (value === null || value === undefined) return new Map();
  if (!(value instanceof Map)) throw new PackStreamError(`${name} expects a map`);
  return value;
}

function optionalString(value: WireValue | undefined): string | null {
  return typeof value === 'string' ? value : null;
}

/** Reads an optional string from metadata. */
export function stringOf(extra: WireMap, key: string): string | undefined {
  const value = extra.get(key);
  return typeof value === 'string' ? value : undefined;
}

/** Reads an optional list of strings from metadata. */
export function stringsOf(extra: WireMap, key: string): string[] {
  const value = extra.get(key);
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** Reads an optional integer from metadata. */
export function integerOf(extra: WireMap, key: string): number | undefined {
  const value = extra.get(key);
  return typeof value === 'bigint' ? Number(value) : undefined;
}

/** A short text form of a message for `C: ...` debug logs (never credentials or parameters). */
export function describeRequest(message: RequestMessage): string {
  switch (message.type) {
    case 'RUN':
      return `RUN ${JSON.stringify(message.query)} {...} ${describeMap(message.extra)}`;
    case 'HELLO':
      return `HELLO ${describeMap(message.extra, ['credentials'])}`;
    case 'LOGON':
      return `LOGON ${describeMap(message.auth, ['credentials'])}`;
    case 'BEGIN':
      return `BEGIN ${describeMap(message.extra)}`;
    case 'PULL':
    case 'DISCARD':
      return `${message.type} {"n":${message.n},"qid":${message.qid}}`;
    case 'ROUTE':
      return `ROUTE ${describeMap(message.routing)} ${JSON.stringify(message.bookmarks)} ${JSON.stringify(message.database)}`;
    case 'TELEMETRY':
      return `TELEMETRY ${message.api}`;
    default:
      return message.type;
  }
}

/** JSON-like rendering of wire metadata, with some keys redacted. */
export function describeMap(value: ReadonlyMap<string, unknown>, redact: readonly string[] = []): string {
  const parts: string[] = [];
  for (const [key, item] of value)
    if (item !== undefined) parts.push(`${JSON.stringify(key)}:${redact.includes(key) ? '"*****"' : describeValue(item)}`);
  return `{${parts.join(',')}}`;
}

function describeValue(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Map) return describeMap(value);
  if (Array.isArray(value)) return `[${value.map(describeValue).join(',')}]`;
  if (value instanceof Structure) return value.toString();
  if (value instanceof Uint8Array) return `#${Buffer.from(value).toString('hex')}`;
  if (value !== null && typeof value === 'object') {
    return describeMap(new Map(Object.entries(value as Record<string, unknown>)));
  }
  return JSON.stringify(value) ?? 'null';
}
