/**
 * The property value codec: a compact tagged binary encoding that round-trips every Cypher
 * value a property (or a nested list/map) can hold, exactly.
 *
 * Layout: one tag byte, then a payload.
 * - INTEGER: zigzag varint when it fits 32 bits, else 8 bytes little-endian two's complement.
 * - FLOAT: 8 bytes IEEE-754 little-endian (NaN payloads, ±Infinity and -0.0 survive).
 * - STRING: varint byte length + UTF-8; BYTES: varint length + raw bytes.
 * - LIST: varint count + items; MAP: varint count + (length-prefixed key, value) pairs.
 * - Temporal values and points: their numeric fields as 8-byte floats (every JS number is exact).
 * - VECTOR: the Bolt type marker byte, varint byte length, the coordinates little-endian.
 *
 * A property *record* (all properties of one entity) is a varint count followed by
 * (property-key token id varint, value) pairs, so key strings are stored once, in the dictionary.
 */
import {
  CypherDate,
  CypherDateTime,
  CypherDuration,
  CypherPoint,
  CypherTime,
  LocalDateTime,
  LocalTime,
  CypherVector,
  type CypherValue,
} from '../../values/types.js';
import { CypherTypeError, DatabaseError, StatusCodes } from '../../errors/index.js';
import { VECTOR_TYPE_MARKERS, vectorFromBytes, vectorToBytes, vectorTypeOfMarker } from '../../values/vector.js';
import { isMap } from '../../values/kinds.js';
import { ByteReader, ByteWriter } from './byte-buffer.js';

const enum Tag {
  Null = 0,
  False = 1,
  True = 2,
  SmallInteger = 3,
  Integer = 4,
  Float = 5,
  String = 6,
  Bytes = 7,
  List = 8,
  Map = 9,
  Date = 10,
  LocalTime = 11,
  Time = 12,
  LocalDateTime = 13,
  DateTime = 14,
  ZonedDateTime = 15,
  Duration = 16,
  Point2D = 17,
  Point3D = 18,
  /** As LocalDateTime / DateTime / ZonedDateTime / Duration, with the seconds as an i64 (past 2^53). */
  WideLocalDateTime = 19,
  WideDateTime = 20,
  WideZonedDateTime = 21,
  WideDuration = 22,
  /** A VECTOR: its Bolt type marker, the dimension, the coordinates little-endian. */
  Vector = 23,
}

const MAX_EXACT_DOUBLE = BigInt(Number.MAX_SAFE_INTEGER);

/** True when a seconds count needs the i64 encoding (a double would round it). */
function isWide(seconds: bigint): boolean {
  return seconds > MAX_EXACT_DOUBLE || seconds < -MAX_EXACT_DOUBLE;
}

/** Writes seconds as an f64, or as an i64 when `wide`. */
function writeSeconds(writer: ByteWriter, seconds: bigint, wide: boolean): void {
  if (wide) writer.i64LE(seconds);
  else writer.f64LE(Number(seconds));
}

const SMALL_MIN = -2147483648n;
const SMALL_MAX = 2147483647n;

/** Appends the encoding of one value. Graph entities (nodes, relationships, paths) are rejected. */
export function encodeValue(writer: ByteWriter, value: CypherValue): void {
  switch (typeof value) {
    case 'boolean':
      writer.u8(value ? Tag.True : Tag.False);
      return;
    case 'bigint':
      if (value >= SMALL_MIN && value <= SMALL_MAX) {
        const n = Number(value);
        writer.u8(Tag.SmallInteger);
        writer.varint(n >= 0 ? n * 2 : -n * 2 - 1);
      } else {
        writer.u8(Tag.Integer);
        writer.i64LE(value);
      }
      return;
    case 'number':
      writer.u8(Tag.Float);
      writer.f64LE(value);
      return;
    case 'string':
      writer.u8(Tag.String);
      writer.lengthPrefixedUtf8(value);
      return;
    default:
      encodeObject(writer, value);
  }
}

function encodeObject(writer: ByteWriter, value: CypherValue): void {
  if (value === null) {
    writer.u8(Tag.Null);
  } else if (value instanceof Uint8Array) {
    writer.u8(Tag.Bytes);
    writer.varint(value.length);
    writer.bytes(value);
  } else if (Array.isArray(value)) {
    writer.u8(Tag.List);
    writer.varint(value.length);
    for (const item of value as readonly CypherValue[]) encodeValue(writer, item);
  } else if (isMap(value)) {
    writer.u8(Tag.Map);
    writer.varint(value.size);
    for (const [key, item] of value) {
      writer.lengthPrefixedUtf8(key);
      encodeValue(writer, item);
    }
  } else {
    encodeTemporalOrPoint(writer, value);
  }
}

function encodeTemporalOrPoint(writer: ByteWriter, value: CypherValue): void {
  if (value instanceof CypherDate) {
    writer.u8(Tag.Date);
    writer.f64LE(value.epochDay);
  } else if (value instanceof LocalTime) {
    writer.u8(Tag.LocalTime);
    writer.f64LE(value.nanoOfDay);
  } else if (value instanceof CypherTime) {
    writer.u8(Tag.Time);
    writer.f64LE(value.nanoOfDay);
    writer.f64LE(value.offsetSeconds);
  } else if (value instanceof LocalDateTime) {
    const wide = isWide(value.epochSecond);
    writer.u8(wide ? Tag.WideLocalDateTime : Tag.LocalDateTime);
    writeSeconds(writer, value.epochSecond, wide);
    writer.f64LE(value.nano);
  } else if (value instanceof CypherDateTime) {
    const wide = isWide(value.epochSecond);
    if (value.zoneId === null) writer.u8(wide ? Tag.WideDateTime : Tag.DateTime);
    else writer.u8(wide ? Tag.WideZonedDateTime : Tag.ZonedDateTime);
    writeSeconds(writer, value.epochSecond, wide);
    writer.f64LE(value.nano);
    writer.f64LE(value.offsetSeconds);
    if (value.zoneId !== null) writer.lengthPrefixedUtf8(value.zoneId);
  } else if (value instanceof CypherDuration) {
    const wide = isWide(value.seconds);
    writer.u8(wide ? Tag.WideDuration : Tag.Duration);
    writer.f64LE(value.months);
    writer.f64LE(value.days);
    writeSeconds(writer, value.seconds, wide);
    writer.f64LE(value.nanoseconds);
  } else if (value instanceof CypherVector) {
    writer.u8(Tag.Vector);
    writer.u8(VECTOR_TYPE_MARKERS[value.coordinateType]);
    const bytes = vectorToBytes(value, true);
    writer.varint(bytes.length);
    writer.bytes(bytes);
  } else if (value instanceof CypherPoint) {
    writer.u8(value.z === null ? Tag.Point2D : Tag.Point3D);
    writer.varint(value.srid);
    writer.f64LE(value.x);
    writer.f64LE(value.y);
    if (value.z !== null) writer.f64LE(value.z);
  } else {
    throw new CypherTypeError(`Property values can only be of primitive types or arrays thereof. Encountered: ${describe(value)}.`);
  }
}

function describe(value: CypherValue): string {
  const name = (value as object).constructor?.name ?? typeof value;
  return name;
}

/** Reads one value at the reader's offset. */
export function decodeValue(reader: ByteReader): CypherValue {
  const tag = reader.u8() as Tag;
  switch (tag) {
    case Tag.Null:
      return null;
    case Tag.False:
      return false;
    case Tag.True:
      return true;
    case Tag.SmallInteger: {
      const z = reader.varint();
      return BigInt(z % 2 === 0 ? z / 2 : -(z + 1) / 2);
    }
    case Tag.Integer:
      return reader.i64LE();
    case Tag.Float:
      return reader.f64LE();
    case Tag.String:
      return reader.lengthPrefixedUtf8();
    case Tag.Bytes:
      return reader.bytes(reader.varint());
    case Tag.List: {
      const count = reader.varint();
      const items = new Array<CypherValue>(count);
      for (let i = 0; i < count; i++) items[i] = decodeValue(reader);
      return items;
    }
    case Tag.Map: {
      const count = reader.varint();
      const map = new Map<string, CypherValue>();
      for (let i = 0; i < count; i++) {
        const key = reader.lengthPrefixedUtf8();
        map.set(key, decodeValue(reader));
      }
      return map;
    }
    default:
      return decodeTemporalOrPoint(tag, reader);
  }
}

function readSeconds(reader: ByteReader, wide: boolean): bigint {
  return wide ? reader.i64LE() : BigInt(reader.f64LE());
}

function decodeTemporalOrPoint(tag: Tag, reader: ByteReader): CypherValue {
  switch (tag) {
    case Tag.Date:
      return new CypherDate(reader.f64LE());
    case Tag.LocalTime:
      return new LocalTime(reader.f64LE());
    case Tag.Time:
      return new CypherTime(reader.f64LE(), reader.f64LE());
    case Tag.LocalDateTime:
    case Tag.WideLocalDateTime:
      return new LocalDateTime(readSeconds(reader, tag === Tag.WideLocalDateTime), reader.f64LE());
    case Tag.DateTime:
    case Tag.WideDateTime:
      return new CypherDateTime(readSeconds(reader, tag === Tag.WideDateTime), reader.f64LE(), reader.f64LE(), null);
    case Tag.ZonedDateTime:
    case Tag.WideZonedDateTime: {
      const epochSecond = readSeconds(reader, tag === Tag.WideZonedDateTime);
      const nano = reader.f64LE();
      const offset = reader.f64LE();
      return new CypherDateTime(epochSecond, nano, offset, reader.lengthPrefixedUtf8());
    }
    case Tag.Duration:
    case Tag.WideDuration: {
      const months = reader.f64LE();
      const days = reader.f64LE();
      return new CypherDuration(months, days, readSeconds(reader, tag === Tag.WideDuration), reader.f64LE());
    }
    case Tag.Vector: {
      const marker = reader.u8();
      const type = vectorTypeOfMarker(marker);
      if (type === undefined) throw corruptEncoding(`unknown vector type marker ${marker}`);
      return vectorFromBytes(type, reader.bytes(reader.varint()), true);
    }
    case Tag.Point2D:
      return new CypherPoint(reader.varint(), reader.f64LE(), reader.f64LE(), null);
    case Tag.Point3D:
      return new CypherPoint(reader.varint(), reader.f64LE(), reader.f64LE(), reader.f64LE());
    default:
      throw corruptEncoding(`unknown tag ${tag} at offset ${reader.offset - 1}`);
  }
}

/** Advances the reader past one value without materializing it. */
export function skipValue(reader: ByteReader): void {
  const tag = reader.u8() as Tag;
  switch (tag) {
    case Tag.Null:
    case Tag.False:
    case Tag.True:
      return;
    case Tag.SmallInteger:
      reader.varint();
      return;
    case Tag.Integer:
    case Tag.Float:
    case Tag.Date:
    case Tag.LocalTime:
      reader.skip(8);
      return;
    case Tag.String:
    case Tag.Bytes:
      reader.skip(reader.varint());
      return;
    case Tag.List: {
      const count = reader.varint();
      for (let i = 0; i < count; i++) skipValue(reader);
      return;
    }
    case Tag.Map: {
      const count = reader.varint();
      for (let i = 0; i < count; i++) {
        reader.skip(reader.varint());
        skipValue(reader);
      }
      return;
    }
    case Tag.Time:
    case Tag.LocalDateTime:
    case Tag.WideLocalDateTime:
      reader.skip(16);
      return;
    case Tag.DateTime:
    case Tag.WideDateTime:
      reader.skip(24);
      return;
    case Tag.ZonedDateTime:
    case Tag.WideZonedDateTime:
      reader.skip(24);
      reader.skip(reader.varint());
      return;
    case Tag.Duration:
    case Tag.WideDuration:
      reader.skip(32);
      return;
    case Tag.Vector:
      reader.skip(1);
      reader.skip(reader.varint());
      return;
    case Tag.Point2D:
      reader.varint();
      reader.skip(16);
      return;
    case Tag.Point3D:
      reader.varint();
      reader.skip(24);
      return;
    default:
      throw corruptEncoding(`unknown tag ${tag as number}`);
  }
}

const scratch = new ByteWriter(1024);

/** Encodes one standalone value (used for catalog options and tests). */
export function encodeStandalone(value: CypherValue): Buffer {
  scratch.reset();
  encodeValue(scratch, value);
  return scratch.finish();
}

/** Decodes a value produced by `encodeStandalone`. */
export function decodeStandalone(buffer: Buffer): CypherValue {
  return decodeValue(new ByteReader(buffer));
}

/**
 * Encodes a property record from (key token id, value) pairs; null values are skipped.
 * Returns null for an empty record (stored as SQL NULL).
 */
export function encodeRecord(entries: Iterable<readonly [number, CypherValue]>): Buffer | null {
  scratch.reset();
  scratch.varint(0);
  let count = 0;
  for (const [keyId, value] of entries) {
    if (value === null) continue;
    scratch.varint(keyId);
    encodeValue(scratch, value);
    count++;
  }
  if (count === 0) return null;
  if (count < 0x80) {
    scratch.setByte(0, count);
    return scratch.finish();
  }
  const body = scratch.finish().subarray(1);
  const out = new ByteWriter(body.length + 8);
  out.varint(count);
  out.bytes(body);
  return out.finish();
}

/** Decodes a property record into a map keyed by property name. */
export function decodeRecord(buffer: Buffer | null, keyName: (id: number) => string): Map<string, CypherValue> {
  const map = new Map<string, CypherValue>();
  if (buffer === null) return map;
  const reader = new ByteReader(buffer);
  const count = reader.varint();
  for (let i = 0; i < count; i++) {
    const keyId = reader.varint();
    map.set(keyName(keyId), decodeValue(reader));
  }
  return map;
}

/** Decodes a property record into a map keyed by property-key token id (for writers). */
export function decodeRecordById(buffer: Buffer | null): Map<number, CypherValue> {
  const map = new Map<number, CypherValue>();
  if (buffer === null) return map;
  const reader = new ByteReader(buffer);
  const count = reader.varint();
  for (let i = 0; i < count; i++) {
    const keyId = reader.varint();
    map.set(keyId, decodeValue(reader));
  }
  return map;
}

/** Reads one property of a record without decoding the others; undefined when absent. */
export function findInRecord(buffer: Buffer | null, keyId: number): CypherValue | undefined {
  if (buffer === null) return undefined;
  const reader = new ByteReader(buffer);
  const count = reader.varint();
  for (let i = 0; i < count; i++) {
    const id = reader.varint();
    if (id === keyId) return decodeValue(reader);
    skipValue(reader);
  }
  return undefined;
}

/** A property record this build cannot decode: damaged storage, not a client's mistake. */
function corruptEncoding(what: string): DatabaseError {
  return new DatabaseError(
    StatusCodes.StorageDamageDetected,
    `Storage damage detected: corrupt property encoding (${what}). Restore from a backup.`,
  );
}
