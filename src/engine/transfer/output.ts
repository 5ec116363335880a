/**
 * A buffered text sink over a Node writable stream that honours backpressure, so exports stay
 * flat in memory however large the database.
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';

const FLUSH_AT = 1 << 16;

/** Buffered writer; call `end()` when done. */
export class TextOutput {
  private buffer: string[] = [];
  private size = 0;
  bytesWritten = 0;

  constructor(private readonly stream: Writable) {}

  /** Appends text, flushing (and waiting for drain) past 64 KiB. */
  async write(text: string): Promise<void> {
    this.buffer.push(text);
    this.size += text.length;
    if (this.size >= FLUSH_AT) await this.flush();
  }

  /** Writes buffered text and waits when the stream is saturated. */
  async flush(): Promise<void> {
    if (this.buffer.length === 0) return;
    const chunk = this.buffer.join('');
    this.buffer = [];
    this.size = 0;
    this.bytesWritten += Buffer.byteLength(chunk);
    if (!this.stream.write(chunk)) await once(this.stream, 'drain');
  }

  /** Flushes and ends the stream (unless it is stdout/stderr), resolving once it finished. */
  async end(): Promise<void> {
    await this.flush();
    if (this.stream === process.stdout || this.stream === process.stderr) return;
    await new Promise<void>((resolve, reject) => {
      this.stream.once('error', reject);
      this.stream.end(() => resolve());
    });
  }
}
