import { Marker, INT64_MAX, INT64_MIN } from './markers.js';
import { MAX_STRUCTURE_FIELDS, Structure } from './structure.js';

/**
 * Turns a value the packer does not know natively (a graph entity, a temporal value, ...) into a
 * Structure; returns undefined when it cannot. Supplied by the value-mapping layer so the encoder
 * stays free of graph and temporal knowledge.
 */
export type StructureHook = (value: object) => Structure | ReadonlyMap<string, unknown> | undefined;

/** Capacity beyond which an emptied packer returns to its initial size. */
const SHRINK_ABOVE = 1024 * 1024;

/** Raised when a value cannot be encoded (unknown type, integer beyond 64 bits). */
export class PackError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PackError';
  }
}

/**
 * PackStream v1 encoder writing into one growable buffer.
 *
 * Accepted values: null/undefined (NULL), boolean, bigint (INTEGER, 64-bit), number (always
 * FLOAT: see STYLE.md, integers are bigint), string, Uint8Array (BYTES), arrays (LIST), `Map` and
 * plain objects (MAP), `Structure`, and anything the `StructureHook` converts.
 */
export class Packer {
  private buffer: Buffer;
  private position = 0;

  constructor(
    private readonly hook?: StructureHook,
    private readonly initialCapacity = 16 * 1024,
  ) {
    this.buffer = Buffer.allocUnsafe(initialCapacity);
  }

  /** Bytes written so far. */
  get length(): number {
    return this.position;
  }

  /** A copy of the bytes written so far; the packer is emptied (and shrunk if it grew large). */
  take(): Buffer {
    const out = Buffer.from(this.buffer.subarray(0, this.position));
    this.position = 0;
    if (this.buffer.length > SHRINK_ABOVE) this.buffer = Buffer.allocUnsafe(this.initialCapacity);
    return out;
  }

  /** A view of the written bytes (valid until the next write). */
  view(start = 0, end = this.position): Buffer {
    return this.buffer.subarray(start, end);
  }

  /** Forgets everything after `position` (used to roll back a partially packed message). */
  truncate(position: number): void {
    this.position = position;
  }

  /** Makes room for `bytes` more bytes. */
  ensure(bytes: number): void {
    const needed = this.position + bytes;
    if (needed <= this.buffer.length) return;
    let capacity = this.buffer.length * 2;
    while (capacity < needed) capacity *= 2;
    const grown = Buffer.allocUnsafe(capacity);
    this.buffer.copy(grown, 0, 0, this.position);
    this.buffer = grown;
  }

  writeUInt8(value: number): void {
    this.ensure(1);
    this.buffer[this.position++] = value;
  }

  writeUInt16(value: number): void {
    this.ensure(2);
    this.buffer.writeUInt16BE(value, this.position);
    this.position += 2;
  }

  /** Overwrites two bytes already written (chunk headers). */
  patchUInt16(at: number, value: number): void {
    this.buffer.writeUInt16BE(value, at);
  }

  /** Copies raw bytes. */
  writeBytes(bytes: Uint8Array): void {
    this.ensure(bytes.length);
    this.buffer.set(bytes, this.position);
    this.position += bytes.length;
  }

  /** Packs one value. */
  pack(value: unknown): void {
    switch (typeof value) {
      case 'string':
        return this.packString(value);
      case 'bigint':
        return this.packInteger(value);
      case 'number':
        return this.packFloat(value);
      case 'boolean':
        return this.writeUInt8(value ? Marker.True : Marker.False);
      case 'undefined':
        return this.writeUInt8(Marker.Null);
      case 'object':
        return this.packObject(value);
      default:
        throw new PackError(`Cannot pack a value of type ${typeof value}`);
    }
  }

  private packObject(value: object | null): void {
    if (value === null) return this.writeUInt8(Marker.Null);
    if (Array.isArray(value)) return this.packList(value);
    if (value instanceof Uint8Array) return this.packBytes(value);
    if (value instanceof Map) return this.packMap(value as ReadonlyMap<string, unknown>);
    if (value instanceof Structure) return this.packStructure(value);
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto === Object.prototype || proto === null) return this.packRecord(value as Record<string, unknown>);
    const structure = this.hook?.(value);
    if (structure === undefined) {
      throw new PackError(`Cannot pack a value of type ${value.constructor?.name ?? 'object'}`);
    }
    if (structure instanceof Map) return this.packMap(structure);
    this.packStructure(structure as Structure);
  }

  /** INTEGER in the smallest encoding that holds it. */
  packInteger(value: bigint): void {
    if (value >= -16n && value <= 127n) {
      this.writeUInt8(Number(value) & 0xff);
    } else if (value >= -128n && value <= 127n) {
      this.ensure(2);
      this.buffer[this.position] = Marker.Int8;
      this.buffer.writeInt8(Number(value), this.position + 1);
      this.position += 2;
    } else if (value >= -32768n && value <= 32767n) {
      this.ensure(3);
      this.buffer[this.position] = Marker.Int16;
      this.buffer.writeInt16BE(Number(value), this.position + 1);
      this.position += 3;
    } else if (value >= -2147483648n && value <= 2147483647n) {
      this.ensure(5);
      this.buffer[this.position] = Marker.Int32;
      this.buffer.writeInt32BE(Number(value), this.position + 1);
      this.position += 5;
    } else if (value >= INT64_MIN && value <= INT64_MAX) {
      this.ensure(9);
      this.buffer[this.position] = Marker.Int64;
      this.buffer.writeBigInt64BE(value, this.position + 1);
      this.position += 9;
    } else {
      throw new PackError(`Integer ${value} does not fit in 64 bits`);
    }
  }

  packFloat(value: number): void {
    this.ensure(9);
    this.buffer[this.position] = Marker.Float64;
    this.buffer.writeDoubleBE(value, this.position + 1);
    this.position += 9;
  }

  packString(value: string): void {
    const size = value.length < 32 && isAscii(value) ? value.length : Buffer.byteLength(value, 'utf8');
    this.writeSizeMarker(size, Marker.TinyString, Marker.String8, Marker.String16, Marker.String32, true);
    this.ensure(size);
    if (size === value.length && size < 32) {
      for (let i = 0; i < size; i++) this.buffer[this.position + i] = value.charCodeAt(i);
    } else {
      this.buffer.write(value, this.position, size, 'utf8');
    }
    this.position += size;
  }

  packBytes(value: Uint8Array): void {
    const size = value.length;
    if (size <= 0xff) {
      this.writeUInt8(Marker.Bytes8);
      this.writeUInt8(size);
    } else if (size <= 0xffff) {
      this.writeUInt8(Marker.Bytes16);
      this.writeUInt16(size);
    } else {
      this.writeUInt8(Marker.Bytes32);
      this.writeUInt32(size);
    }
    this.writeBytes(value);
  }

  packList(values: readonly unknown[]): void {
    this.writeListHeader(values.length);
    for (const item of values) this.pack(item);
  }

  /** LIST header alone, for callers that stream the items. */
  writeListHeader(size: number): void {
    this.writeSizeMarker(size, Marker.TinyList, Marker.List8, Marker.List16, Marker.List32, true);
  }

  packMap(map: ReadonlyMap<string, unknown>): void {
    this.writeSizeMarker(map.size, Marker.TinyMap, Marker.Map8, Marker.Map16, Marker.Map32, true);
    for (const [key, item] of map) {
      this.packString(key);
      this.pack(item);
    }
  }

  /** Plain objects pack as MAPs; `undefined` entries are left out. */
  packRecord(record: Record<string, unknown>): void {
    const keys = Object.keys(record).filter((key) => record[key] !== undefined);
    this.writeSizeMarker(keys.length, Marker.TinyMap, Marker.Map8, Marker.Map16, Marker.Map32, true);
    for (const key of keys) {
      this.packString(key);
      this.pack(record[key]);
    }
  }

  packStructure(structure: Structure): void {
    this.writeStructureHeader(structure.signature, structure.fields.length);
    for (const field of structure.fields) this.pack(field);
  }

  /** Structure header alone (messages whose fields are packed by the caller). */
  writeStructureHeader(signature: number, fieldCount: number): void {
    if (fieldCount > MAX_STRUCTURE_FIELDS) throw new PackError(`A structure holds at most 15 fields, got ${fieldCount}`);
    this.ensure(2);
    this.buffer[this.position] = Marker.TinyStruct | fieldCount;
    this.buffer[this.position + 1] = signature;
    this.position += 2;
  }

  private writeUInt32(value: number): void {
    this.ensure(4);
    this.buffer.writeUInt32BE(value, this.position);
    this.position += 4;
  }

  private writeSizeMarker(size: number, tiny: number, m8: number, m16: number, m32: number, hasTiny: boolean): void {
    if (hasTiny && size < 16) {
      this.writeUInt8(tiny | size);
    } else if (size <= 0xff) {
      this.writeUInt8(m8);
      this.writeUInt8(size);
    } else if (size <= 0xffff) {
      this.writeUInt8(m16);
      this.writeUInt16(size);
    } else if (size <= 0x7fffffff) {
      this.writeUInt8(m32);
      this.writeUInt32(size);
    } else {
      throw new PackError(`Size ${size} is too large for PackStream`);
    }
  }
}

function isAscii(value: string): boolean {
  for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) > 0x7f) return false;
  return true;
}
