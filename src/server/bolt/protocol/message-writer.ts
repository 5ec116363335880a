import { Packer, type StructureHook } from '../packstream/packer.js';
import { MAX_CHUNK_SIZE } from './chunking.js';
import { ResponseSignature } from './messages.js';

/**
 * Packs response messages straight into chunked form in one growing buffer; the connection
 * takes the bytes out in batches, so many RECORDs go out in one socket write.
 */
export class MessageWriter {
  private readonly packer: Packer;

  constructor(hook: StructureHook) {
    // Starts small (idle pooled connections are common) and grows with the largest batch.
    this.packer = new Packer(hook, 8 * 1024);
  }

  /** Bytes waiting to be sent. */
  get size(): number {
    return this.packer.length;
  }

  /** Takes the pending bytes. */
  take(): Buffer {
    return this.packer.take();
  }

  success(metadata: Record<string, unknown>): void {
    this.write(ResponseSignature.SUCCESS, [metadata]);
  }

  record(values: readonly unknown[]): void {
    this.write(ResponseSignature.RECORD, [values]);
  }

  ignored(): void {
    this.write(ResponseSignature.IGNORED, []);
  }

  failure(metadata: Record<string, unknown>): void {
    this.write(ResponseSignature.FAILURE, [metadata]);
  }

  /** Packs one message; on a packing error nothing of it remains in the buffer. */
  write(signature: number, fields: readonly unknown[]): void {
    const packer = this.packer;
    const start = packer.length;
    packer.writeUInt16(0);
    try {
      packer.writeStructureHeader(signature, fields.length);
      for (const field of fields) packer.pack(field);
    } catch (error) {
      packer.truncate(start);
      throw error;
    }
    const size = packer.length - start - 2;
    if (size <= MAX_CHUNK_SIZE) {
      packer.patchUInt16(start, size);
    } else {
      const body = Buffer.from(packer.view(start + 2));
      packer.truncate(start);
      for (let offset = 0; offset < body.length; offset += MAX_CHUNK_SIZE) {
        const part = body.subarray(offset, offset + MAX_CHUNK_SIZE);
        packer.writeUInt16(part.length);
        packer.writeBytes(part);
      }
    }
    packer.writeUInt16(0);
  }
}
