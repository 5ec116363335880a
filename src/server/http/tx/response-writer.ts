/**
 * The body of a transaction API response, written while the statements run. A response that
 * stays under SPILL_BYTES is sent whole, with the status decided at the end (as before). A larger
 * one is streamed: headers go out with the status known at that point, every later write waits
 * while the client is not reading (bounded buffers, nothing materialised ahead of the socket),
 * a client that reads nothing for `server.limits.write_timeout` is disconnected (the statement
 * stops and its transaction is rolled back), and the body may not exceed
 * `server.limits.http_max_result_bytes`.
 */
import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { StatusCodes, GraphError, TransientError, graphError } from '../../../engine/index.js';
import { watchWrites } from '../../connection-guard.js';

/** Responses up to this size are sent in one piece. */
export const SPILL_BYTES = 256 * 1024;

/** Limits of one response. */
export interface ResponseLimits {
  /** 0 = unlimited. */
  readonly maxBytes: number;
  readonly writeTimeoutMs: number;
}

/** Raised when a response would exceed `server.limits.http_max_result_bytes`. */
export class ResultTooLarge extends TransientError {
  constructor(limit: number) {
    super(
      StatusCodes.ResourceExhaustion,
      `The result is larger than server.limits.http_max_result_bytes (${limit} bytes): add LIMIT or SKIP, return fewer columns, or use Bolt`,
    );
    this.name = 'ResultTooLarge';
  }
}

/** Accumulates, then streams, one JSON response body. */
export class ResponseWriter {
  private readonly parts: string[] = [];
  private bytes = 0;
  private stream: PassThrough | null = null;
  private closedEarly = false;
  /** Status and headers used if the body spills into a stream before it is complete. */
  private spill: { status: number; headers: Record<string, string> } = { status: 200, headers: {} };

  constructor(
    private readonly reply: FastifyReply,
    private readonly limits: ResponseLimits,
  ) {}

  /** Sets the status (and headers) a streamed response starts with. */
  streamAs(status: number, headers: Record<string, string> = {}): void {
    this.spill = { status, headers };
  }

  /** Bytes written so far. */
  get size(): number {
    return this.bytes;
  }

  /**
   * Appends `text`; waits while a streaming client is not reading. Throws ResultTooLarge, or a
   * Terminated error once the client is gone. `limited` false: closing syntax, outside the limit
   * and silently dropped when the client is gone.
   */
  async write(text: string, limited = true): Promise<void> {
    if (this.stream !== null && (this.closedEarly || this.stream.destroyed)) {
      if (limited) throw this.disconnected();
      return;
    }
    const length = Buffer.byteLength(text);
    if (limited && this.limits.maxBytes > 0 && this.bytes + length > this.limits.maxBytes) throw new ResultTooLarge(this.limits.maxBytes);
    this.bytes += length;
    if (this.stream === null) {
      this.parts.push(text);
      if (this.bytes > SPILL_BYTES) this.startStreaming();
      return;
    }
    await this.push(text);
  }

  private startStreaming(): void {
    const stream = new PassThrough({ highWaterMark: 64 * 1024 });
    this.stream = stream;
    stream.once('close', () => (this.closedEarly = !stream.writableFinished));
    void this.reply.status(this.spill.status).headers(this.spill.headers).type('application/json; charset=utf-8').send(stream);
    watchWrites(this.reply.raw, this.limits.writeTimeoutMs, () => {
      this.reply.raw.destroy();
      stream.destroy();
    });
    stream.write(this.parts.join(''));
    this.parts.length = 0;
  }

  private push(text: string): Promise<void> {
    const stream = this.stream!;
    if (this.closedEarly || stream.destroyed) return Promise.reject(this.disconnected());
    if (stream.write(text)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const done = (): void => {
        stream.off('drain', done);
        stream.off('close', done);
        if (stream.destroyed && !stream.writableFinished) reject(this.disconnected());
        else resolve();
      };
      stream.on('drain', done);
      stream.on('close', done);
    });
  }

  private disconnected(): GraphError {
    return graphError(
      StatusCodes.TransactionTerminated,
      'The client stopped reading the response (server.limits.write_timeout) or disconnected.',
    );
  }

  /** A point to take a partial result back to (see `rollbackTo`). */
  mark(): { readonly parts: number; readonly bytes: number } {
    return { parts: this.parts.length, bytes: this.bytes };
  }

  /** Drops what was written after `mark`; false when it was already sent (streaming). */
  rollbackTo(mark: { readonly parts: number; readonly bytes: number }): boolean {
    if (this.stream !== null) return false;
    this.parts.length = mark.parts;
    this.bytes = mark.bytes;
    return true;
  }

  /** True once the response has started streaming (status and headers are sent). */
  get streaming(): boolean {
    return this.stream !== null;
  }

  /** Ends the body: sends it whole with `status`, or ends the stream. */
  finish(status: number, headers: Record<string, string> = {}): FastifyReply {
    if (this.stream === null)
      return this.reply.status(status).headers(headers).type('application/json; charset=utf-8').send(this.parts.join(''));
    if (!this.stream.destroyed) this.stream.end();
    return this.reply;
  }
}
