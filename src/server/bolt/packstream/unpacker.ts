import { PackStreamError } from './errors.js';
import { Marker } from './markers.js';
import { Structure } from './structure.js';

/** A decoded PackStream value, before any graph/temporal mapping. Integers are always bigint. */
export type WireValue = null | boolean | bigint | number | string | Uint8Array | WireValue[] | Map<string, WireValue> | Structure;

/** Bounds applied while decoding untrusted input. */
export interface UnpackLimits {
  /** Deepest nesting of lists, maps and structures accepted. */
  readonly maxDepth: number;
}

/** Defaults: deep enough for any sensible parameter, shallow enough for the JS stack. */
export const DEFAULT_UNPACK_LIMITS: UnpackLimits = { maxDepth: 256 };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes one value from a complete message buffer. Every declared size is checked against the
 * bytes actually present before anything is allocated, so a hostile size field costs nothing.
 */
export class Unpacker {
  private position = 0;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly limits: UnpackLimits = DEFAULT_UNPACK_LIMITS,
  ) {}

  /** Bytes not yet consumed. */
  get remaining(): number {
    return this.bytes.length - this.position;
  }

  /** Decodes the next value. */
  unpack(): WireValue {
    return this.value(0);
  }

  private value(depth: number): WireValue {
    const marker = this.byte();
    if (marker < 0x80) return BigInt(marker);
    if (marker >= 0xf0) return BigInt(marker - 0x100);
    const high = marker & 0xf0;
    const low = marker & 0x0f;
    switch (high) {
      case Marker.TinyString:
        return this.string(low);
      case Marker.TinyList:
        return this.list(low, depth);
      case Marker.TinyMap:
        return this.map(low, depth);
      case Marker.TinyStruct:
        return this.structure(low, depth);
    }
    switch (marker) {
      case Marker.Null:
        return null;
      case Marker.True:
        return true;
      case Marker.False:
        return false;
      case Marker.Float64:
        return this.view(8).getFloat64(0);
      case Marker.Int8:
        return BigInt(this.view(1).getInt8(0));
      case Marker.Int16:
        return BigInt(this.view(2).getInt16(0));
      case Marker.Int32:
        return BigInt(this.view(4).getInt32(0));
      case Marker.Int64:
        return this.view(8).getBigInt64(0);
      case Marker.Bytes8:
        return this.bytesValue(this.uint(1));
      case Marker.Bytes16:
        return this.bytesValue(this.uint(2));
      case Marker.Bytes32:
        return this.bytesValue(this.uint(4));
      case Marker.String8:
        return this.string(this.uint(1));
      case Marker.String16:
        return this.string(this.uint(2));
      case Marker.String32:
        return this.string(this.uint(4));
      case Marker.List8:
        return this.list(this.uint(1), depth);
      case Marker.List16:
        return this.list(this.uint(2), depth);
      case Marker.List32:
        return this.list(this.uint(4), depth);
      case Marker.Map8:
        return this.map(this.uint(1), depth);
      case Marker.Map16:
        return this.map(this.uint(2), depth);
      case Marker.Map32:
        return this.map(this.uint(4), depth);
      default:
        throw new PackStreamError(`Unknown PackStream marker 0x${marker.toString(16)}`);
    }
  }

  /** BYTES are copied into a plain Uint8Array (not a view of the message buffer). */
  private bytesValue(size: number): Uint8Array {
    return new Uint8Array(this.slice(size));
  }

  private string(size: number): string {
    const bytes = this.slice(size);
    try {
      return utf8.decode(bytes);
    } catch {
      throw new PackStreamError('Invalid UTF-8 in a PackStream string');
    }
  }

  private list(size: number, depth: number): WireValue[] {
    this.enter(depth);
    // Every item takes at least one byte: a size beyond the remaining bytes is a lie.
    this.require(size);
    const items: WireValue[] = [];
    for (let i = 0; i < size; i++) items.push(this.value(depth + 1));
    return items;
  }

  private map(size: number, depth: number): Map<string, WireValue> {
    this.enter(depth);
    this.require(size * 2);
    const map = new Map<string, WireValue>();
    for (let i = 0; i < size; i++) {
      const key = this.value(depth + 1);
      if (typeof key !== 'string') throw new PackStreamError('PackStream map keys must be strings');
      map.set(key, this.value(depth + 1));
    }
    return map;
  }

  private structure(size: number, depth: number): Structure {
    this.enter(depth);
    const signature = this.byte();
    this.require(size);
    const fields: WireValue[] = [];
    for (let i = 0; i < size; i++) fields.push(this.value(depth + 1));
    return new Structure(signature, fields);
  }

  private enter(depth: number): void {
    if (depth >= this.limits.maxDepth) {
      throw new PackStreamError(`PackStream value nested deeper than ${this.limits.maxDepth} levels`);
    }
  }

  private require(bytes: number): void {
    if (bytes > this.remaining) {
      throw new PackStreamError(`Truncated PackStream value: ${bytes} bytes declared, ${this.remaining} present`);
    }
  }

  private byte(): number {
    this.require(1);
    return this.bytes[this.position++]!;
  }

  private uint(width: 1 | 2 | 4): number {
    const view = this.view(width);
    return width === 1 ? view.getUint8(0) : width === 2 ? view.getUint16(0) : view.getUint32(0);
  }

  private view(width: number): DataView {
    this.require(width);
    const view = new DataView(this.bytes.buffer, this.bytes.byteOffset + this.position, width);
    this.position += width;
    return view;
  }

  private slice(size: number): Uint8Array {
    this.require(size);
    const out = this.bytes.subarray(this.position, this.position + size);
    this.position += size;
    return out;
  }
}

/** Decodes a buffer holding exactly one value; trailing bytes are an error. */
export function unpackOne(bytes: Uint8Array, limits?: UnpackLimits): WireValue {
  const unpacker = new Unpacker(bytes, limits);
  const value = unpacker.unpack();
  if (unpacker.remaining !== 0) throw new PackStreamError(`${unpacker.remaining} unexpected bytes after a PackStream value`);
  return value;
}
