import { PackStreamError } from '../packstream/errors.js';

/**
 * Bolt chunking: a message is a sequence of chunks `[size: u16][bytes]` ended by a zero-size
 * chunk. Zero-size chunks between messages are NOOPs (keep-alive).
 */
export const MAX_CHUNK_SIZE = 0xffff;

/**
 * Reassembles messages from arbitrary slices of the byte stream. Incoming buffers are queued
 * and only joined once a whole chunk is present, so a chunk trickling in byte by byte costs
 * linear work. A message growing beyond `maxMessageSize` is a protocol error.
 */
export class Dechunker {
  private queue: Buffer[] = [];
  private queued = 0;
  private parts: Buffer[] = [];
  private messageSize = 0;

  constructor(private readonly maxMessageSize: number) {}

  /** Feeds bytes (not copied: callers must not reuse them); returns the messages they complete. */
  push(bytes: Buffer): Buffer[] {
    if (bytes.length > 0) {
      this.queue.push(bytes);
      this.queued += bytes.length;
    }
    const messages: Buffer[] = [];
    while (this.queued >= 2) {
      const size = this.peekSize();
      if (size === 0) {
        this.take(2);
        if (this.parts.length > 0) messages.push(this.finishMessage());
        continue;
      }
      if (this.messageSize + size > this.maxMessageSize) {
        throw new PackStreamError(`Message larger than the limit of ${this.maxMessageSize} bytes`);
      }
      if (this.queued < 2 + size) break;
      this.parts.push(this.take(2 + size).subarray(2));
      this.messageSize += size;
    }
    return messages;
  }

  /** Bytes held for messages not yet complete (chunks and partial chunks). */
  get bufferedBytes(): number {
    return this.queued + this.messageSize;
  }

  /** True when a partial message or chunk is buffered. */
  get hasPartial(): boolean {
    return this.queued > 0 || this.parts.length > 0;
  }

  private peekSize(): number {
    const first = this.queue[0]!;
    if (first.length >= 2) return first.readUInt16BE(0);
    return (first[0]! << 8) | this.queue[1]![0]!;
  }

  private take(length: number): Buffer {
    const first = this.queue[0]!;
    let out: Buffer;
    if (first.length >= length) {
      out = first.subarray(0, length);
      if (first.length === length) this.queue.shift();
      else this.queue[0] = first.subarray(length);
    } else {
      out = Buffer.allocUnsafe(length);
      let filled = 0;
      while (filled < length) {
        const head = this.queue[0]!;
        const count = Math.min(head.length, length - filled);
        head.copy(out, filled, 0, count);
        filled += count;
        if (count === head.length) this.queue.shift();
        else this.queue[0] = head.subarray(count);
      }
    }
    this.queued -= length;
    return out;
  }

  private finishMessage(): Buffer {
    const message = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts);
    this.parts = [];
    this.messageSize = 0;
    return message;
  }
}
