/**
 * Growable byte writer and a cursor reader used by the value codec and the index key encoder.
 * Both work on Node `Buffer`s (what better-sqlite3 returns for BLOB columns).
 */

/** Appends bytes to an internal buffer that grows by doubling; `finish()` copies the result out. */
export class ByteWriter {
  private buffer: Buffer;
  /** Number of bytes written so far. */
  length = 0;

  constructor(initialCapacity = 256) {
    this.buffer = Buffer.allocUnsafe(initialCapacity);
  }

  /** Forgets the content, keeping the allocated memory. */
  reset(): this {
    this.length = 0;
    return this;
  }

  private ensure(extra: number): void {
    const needed = this.length + extra;
    if (needed <= this.buffer.length) return;
    let capacity = this.buffer.length * 2;
    while (capacity < needed) capacity *= 2;
    const grown = Buffer.allocUnsafe(capacity);
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }

  u8(value: number): void {
    this.ensure(1);
    this.buffer[this.length++] = value;
  }

  /** Unsigned LEB128 for non-negative integers below 2^53. */
  varint(value: number): void {
    this.ensure(8);
    while (value >= 0x80) {
      this.buffer[this.length++] = (value % 0x80) | 0x80;
      value = Math.floor(value / 0x80);
    }
    this.buffer[this.length++] = value;
  }

  f64LE(value: number): void {
    this.ensure(8);
    this.buffer.writeDoubleLE(value, this.length);
    this.length += 8;
  }

  f64BE(value: number): void {
    this.ensure(8);
    this.buffer.writeDoubleBE(value, this.length);
    this.length += 8;
  }

  i64LE(value: bigint): void {
    this.ensure(8);
    this.buffer.writeBigInt64LE(value, this.length);
    this.length += 8;
  }

  u32BE(value: number): void {
    this.ensure(4);
    this.buffer.writeUInt32BE(value, this.length);
    this.length += 4;
  }

  bytes(value: Uint8Array): void {
    this.ensure(value.length);
    this.buffer.set(value, this.length);
    this.length += value.length;
  }

  /** Writes the UTF-8 bytes of a string (no length prefix). */
  utf8(value: string): void {
    this.ensure(value.length * 3);
    this.length += this.buffer.write(value, this.length, 'utf8');
  }

  /** Writes a varint byte length followed by the UTF-8 bytes. */
  lengthPrefixedUtf8(value: string): void {
    const byteLength = Buffer.byteLength(value, 'utf8');
    this.varint(byteLength);
    this.ensure(byteLength);
    this.length += this.buffer.write(value, this.length, 'utf8');
  }

  /** The byte at `index` (already written). */
  byteAt(index: number): number {
    return this.buffer[index]!;
  }

  /** Overwrites an already written byte. */
  setByte(index: number, value: number): void {
    this.buffer[index] = value;
  }

  /** A copy of the written bytes. */
  finish(): Buffer {
    return Buffer.from(this.buffer.subarray(0, this.length));
  }
}

/** Reads values from a buffer, advancing `offset`. */
export class ByteReader {
  offset: number;

  constructor(
    readonly buffer: Buffer,
    offset = 0,
  ) {
    this.offset = offset;
  }

  get done(): boolean {
    return this.offset >= this.buffer.length;
  }

  u8(): number {
    return this.buffer[this.offset++]!;
  }

  varint(): number {
    let result = 0;
    let scale = 1;
    for (;;) {
      const byte = this.buffer[this.offset++]!;
      result += (byte & 0x7f) * scale;
      if (byte < 0x80) return result;
      scale *= 0x80;
    }
  }

  f64LE(): number {
    const value = this.buffer.readDoubleLE(this.offset);
    this.offset += 8;
    return value;
  }

  i64LE(): bigint {
    const value = this.buffer.readBigInt64LE(this.offset);
    this.offset += 8;
    return value;
  }

  /** A copy of the next `length` bytes as a plain Uint8Array. */
  bytes(length: number): Uint8Array {
    const copy = new Uint8Array(length);
    copy.set(this.buffer.subarray(this.offset, this.offset + length));
    this.offset += length;
    return copy;
  }

  lengthPrefixedUtf8(): string {
    const length = this.varint();
    const value = this.buffer.toString('utf8', this.offset, this.offset + length);
    this.offset += length;
    return value;
  }

  skip(length: number): void {
    this.offset += length;
  }
}
