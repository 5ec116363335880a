/**
 * Order-preserving index keys: byte strings whose memcmp order (SQLite's BLOB order) is the
 * Cypher order of the values within one type.
 *
 * Terminology: a key starts with a *type prefix* byte, so a range seek never leaves its type.
 * - NUMBER (INTEGER and FLOAT together, compared numerically): the value rounded to a double,
 *   in sortable form, followed by a 4-byte exact correction (integer minus that double), so
 *   `1` and `1.0` share a key and 64-bit integers beyond 2^53 still order exactly.
 *   -0.0 is keyed as 0.0, every NaN as one NaN that sorts above +Infinity.
 * - STRING: UTF-8 bytes (UTF-8 byte order is code point order).
 * - BOOLEAN, DATE, LOCAL TIME, ZONED TIME, LOCAL DATETIME, ZONED DATETIME: sortable numeric fields.
 * - Other storable values (DURATION, POINT, LIST, BYTES): the value codec bytes; equality only.
 * Composite keys (multi-property indexes) escape each component (0x00 -> 0x00 0xFF) and end it
 * with 0x00 0x01, which keeps tuple order.
 */
import { CypherDate, CypherDateTime, CypherTime, LocalDateTime, LocalTime, type CypherValue } from '../../values/types.js';
import type { IndexPredicate } from '../graph-store.js';
import { ByteWriter } from './byte-buffer.js';
import { encodeValue } from './value-codec.js';

/** Type prefix bytes. */
export const KeyPrefix = {
  Map: 0x08,
  Point: 0x10,
  List: 0x20,
  DateTime: 0x30,
  LocalDateTime: 0x31,
  Date: 0x32,
  Time: 0x33,
  LocalTime: 0x34,
  Duration: 0x35,
  String: 0x40,
  Boolean: 0x50,
  Number: 0x60,
  Bytes: 0x70,
} as const;

const writer = new ByteWriter(256);

function sortableDouble(out: ByteWriter, value: number): void {
  const start = out.length;
  out.f64BE(value);
  if (out.byteAt(start) & 0x80) {
    for (let i = start; i < start + 8; i++) out.setByte(i, ~out.byteAt(i) & 0xff);
  } else {
    out.setByte(start, out.byteAt(start) | 0x80);
  }
}

function writeNumber(out: ByteWriter, value: bigint | number): void {
  out.u8(KeyPrefix.Number);
  if (typeof value === 'number') {
    if (Number.isNaN(value)) sortableDouble(out, NaN);
    else sortableDouble(out, value === 0 ? 0 : value);
    out.u32BE(0x80000000);
    return;
  }
  const rounded = Number(value);
  const correction = Number(value - BigInt(rounded));
  sortableDouble(out, rounded);
  out.u32BE(correction + 0x80000000);
}

/** Appends the key bytes of one value; returns false for values no index holds (null). */
function writeKey(out: ByteWriter, value: CypherValue): boolean {
  switch (typeof value) {
    case 'bigint':
    case 'number':
      writeNumber(out, value);
      return true;
    case 'string':
      out.u8(KeyPrefix.String);
      out.utf8(value);
      return true;
    case 'boolean':
      out.u8(KeyPrefix.Boolean);
      out.u8(value ? 1 : 0);
      return true;
    default:
      break;
  }
  if (value === null) return false;
  if (value instanceof CypherDate) {
    out.u8(KeyPrefix.Date);
    sortableDouble(out, value.epochDay);
  } else if (value instanceof LocalTime) {
    out.u8(KeyPrefix.LocalTime);
    sortableDouble(out, value.nanoOfDay);
  } else if (value instanceof CypherTime) {
    out.u8(KeyPrefix.Time);
    sortableDouble(out, value.nanoOfDay - value.offsetSeconds * 1e9);
    sortableDouble(out, value.offsetSeconds);
  } else if (value instanceof LocalDateTime) {
    out.u8(KeyPrefix.LocalDateTime);
    sortableDouble(out, Number(value.epochSecond));
    sortableDouble(out, value.nano);
  } else if (value instanceof CypherDateTime) {
    out.u8(KeyPrefix.DateTime);
    sortableDouble(out, Number(value.epochSecond));
    sortableDouble(out, value.nano);
    sortableDouble(out, value.offsetSeconds);
    if (value.zoneId !== null) out.utf8(value.zoneId);
  } else {
    out.u8(opaquePrefix(value));
    encodeValue(out, value);
  }
  return true;
}

function opaquePrefix(value: CypherValue): number {
  if (value instanceof Uint8Array) return KeyPrefix.Bytes;
  if (Array.isArray(value)) return KeyPrefix.List;
  if (value instanceof Map) return KeyPrefix.Map;
  if (value !== null && typeof value === 'object' && 'srid' in value) return KeyPrefix.Point;
  return KeyPrefix.Duration;
}

/** The index key of one value, or null when the value is not indexed (null). */
export function indexKey(value: CypherValue): Buffer | null {
  writer.reset();
  return writeKey(writer, value) ? writer.finish() : null;
}

/** The key of a tuple of values for a composite index, or null if any component is null. */
export function compositeKey(values: readonly CypherValue[]): Buffer | null {
  if (values.length === 1) return indexKey(values[0]!);
  const out = new ByteWriter(64);
  for (const value of values) {
    const part = indexKey(value);
    if (part === null) return null;
    for (const byte of part) {
      out.u8(byte);
      if (byte === 0) out.u8(0xff);
    }
    out.u8(0);
    out.u8(1);
  }
  return out.finish();
}

/** One inclusive/exclusive bound of a key range. */
export interface KeyBound {
  readonly key: Buffer;
  readonly inclusive: boolean;
}

/** How to scan an index for a predicate. */
export type KeyScan =
  | { readonly kind: 'empty' }
  | { readonly kind: 'all' }
  | { readonly kind: 'keys'; readonly keys: readonly Buffer[] }
  | {
      readonly kind: 'range';
      readonly lower: KeyBound;
      readonly upper: KeyBound;
      /** Extra byte filters for string predicates (applied to the key after its prefix byte). */
      readonly contains?: Buffer;
      readonly suffix?: Buffer;
    };

const RANGE_TYPES = new Set<number>([
  KeyPrefix.Number,
  KeyPrefix.String,
  KeyPrefix.Boolean,
  KeyPrefix.Date,
  KeyPrefix.LocalTime,
  KeyPrefix.Time,
  KeyPrefix.LocalDateTime,
  KeyPrefix.DateTime,
]);

function isNaNValue(value: CypherValue): boolean {
  return typeof value === 'number' && Number.isNaN(value);
}

function typeBounds(prefix: number): { lower: KeyBound; upper: KeyBound } {
  if (prefix === KeyPrefix.Number) {
    return {
      lower: { key: indexKey(-Infinity)!, inclusive: true },
      upper: { key: indexKey(Infinity)!, inclusive: true },
    };
  }
  return {
    lower: { key: Buffer.from([prefix]), inclusive: true },
    upper: { key: Buffer.from([prefix + 1]), inclusive: false },
  };
}

function stringRange(lowerKey: Buffer, upperKey: Buffer): { lower: KeyBound; upper: KeyBound } {
  return { lower: { key: lowerKey, inclusive: true }, upper: { key: upperKey, inclusive: false } };
}

function rangeScan(predicate: Extract<IndexPredicate, { kind: 'range' }>): KeyScan {
  const { lower, upper } = predicate;
  if (lower === undefined && upper === undefined) return { kind: 'all' };
  const bounds = [lower, upper].filter((b) => b !== undefined);
  if (bounds.some((b) => b.value === null || isNaNValue(b.value))) return { kind: 'empty' };
  const lowerKey = lower === undefined ? null : indexKey(lower.value)!;
  const upperKey = upper === undefined ? null : indexKey(upper.value)!;
  const prefix = (lowerKey ?? upperKey)![0]!;
  if (!RANGE_TYPES.has(prefix)) return { kind: 'empty' };
  if (lowerKey !== null && upperKey !== null && lowerKey[0] !== upperKey[0]) return { kind: 'empty' };
  const defaults = typeBounds(prefix);
  return {
    kind: 'range',
    lower: lowerKey === null ? defaults.lower : { key: lowerKey, inclusive: lower!.inclusive },
    upper: upperKey === null ? defaults.upper : { key: upperKey, inclusive: upper!.inclusive },
  };
}

/** Translates an index predicate into a key scan. */
export function keyScanFor(predicate: IndexPredicate): KeyScan {
  switch (predicate.kind) {
    case 'exists':
      return { kind: 'all' };
    case 'equals': {
      if (isNaNValue(predicate.value)) return { kind: 'empty' };
      const key = indexKey(predicate.value);
      return key === null ? { kind: 'empty' } : { kind: 'keys', keys: [key] };
    }
    case 'in': {
      const seen = new Set<string>();
      const keys: Buffer[] = [];
      for (const value of predicate.values) {
        if (isNaNValue(value)) continue;
        const key = indexKey(value);
        if (key === null) continue;
        const hex = key.toString('latin1');
        if (seen.has(hex)) continue;
        seen.add(hex);
        keys.push(key);
      }
      return keys.length === 0 ? { kind: 'empty' } : { kind: 'keys', keys };
    }
    case 'range':
      return rangeScan(predicate);
    case 'prefix': {
      const lower = indexKey(predicate.prefix)!;
      return { kind: 'range', ...stringRange(lower, Buffer.concat([lower, Buffer.from([0xff])])) };
    }
    case 'contains': {
      const bounds = typeBounds(KeyPrefix.String);
      if (predicate.substring === '') return { kind: 'range', ...bounds };
      return { kind: 'range', ...bounds, contains: Buffer.from(predicate.substring, 'utf8') };
    }
    case 'suffix': {
      const bounds = typeBounds(KeyPrefix.String);
      if (predicate.suffix === '') return { kind: 'range', ...bounds };
      return { kind: 'range', ...bounds, suffix: Buffer.from(predicate.suffix, 'utf8') };
    }
  }
}

/** Whether a key satisfies a scan (the in-memory twin of the SQL seek, used by history reads). */
export function keyMatches(scan: KeyScan, key: Buffer): boolean {
  switch (scan.kind) {
    case 'empty':
      return false;
    case 'all':
      return true;
    case 'keys':
      return scan.keys.some((k) => k.equals(key));
    case 'range': {
      const low = Buffer.compare(key, scan.lower.key);
      if (low < 0 || (low === 0 && !scan.lower.inclusive)) return false;
      const high = Buffer.compare(key, scan.upper.key);
      if (high > 0 || (high === 0 && !scan.upper.inclusive)) return false;
      const body = key.subarray(1);
      if (scan.contains !== undefined && body.indexOf(scan.contains) < 0) return false;
      if (scan.suffix !== undefined && !endsWith(body, scan.suffix)) return false;
      return true;
    }
  }
}

function endsWith(body: Buffer, suffix: Buffer): boolean {
  if (suffix.length > body.length) return false;
  return body.subarray(body.length - suffix.length).equals(suffix);
}
