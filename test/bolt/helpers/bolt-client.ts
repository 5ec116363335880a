/**
 * A minimal raw Bolt client for protocol-level tests: handshake, chunked messages, and a reader
 * that decodes responses with our own PackStream (so tests can script exact byte sequences).
 */
import { connect, type Socket } from 'node:net';
import { Packer } from '../../../src/server/bolt/packstream/packer.js';
import { Structure } from '../../../src/server/bolt/packstream/structure.js';
import { unpackOne, type WireValue } from '../../../src/server/bolt/packstream/unpacker.js';
import { Dechunker } from '../../../src/server/bolt/protocol/chunking.js';

export const SIG = { SUCCESS: 0x70, RECORD: 0x71, IGNORED: 0x7e, FAILURE: 0x7f } as const;

/** A decoded server response. */
export interface Response {
  readonly signature: number;
  readonly fields: readonly WireValue[];
}

/** Encodes one message as chunks. */
export function chunked(signature: number, fields: readonly unknown[]): Buffer {
  const packer = new Packer();
  packer.pack(new Structure(signature, fields));
  const body = packer.take();
  const parts: Buffer[] = [];
  for (let offset = 0; offset < body.length; offset += 0xffff) {
    const part = body.subarray(offset, offset + 0xffff);
    const header = Buffer.alloc(2);
    header.writeUInt16BE(part.length);
    parts.push(header, part);
  }
  parts.push(Buffer.alloc(2));
  return Buffer.concat(parts);
}

/** The 20-byte opening offering the given 4-byte proposals. */
export function opening(...proposals: number[]): Buffer {
  const out = Buffer.alloc(20);
  out.writeUInt32BE(0x6060b017, 0);
  proposals.slice(0, 4).forEach((p, i) => out.writeUInt32BE(p >>> 0, 4 + i * 4));
  return out;
}

/** A raw connection with a response queue. */
export class RawBoltClient {
  private buffered = Buffer.alloc(0);
  private dechunker = new Dechunker(1 << 30);
  private responses: Response[] = [];
  private waiters: (() => void)[] = [];
  private handshaking = true;
  closed = false;

  private constructor(readonly socket: Socket) {
    socket.on('data', (data: Buffer) => this.onData(data));
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    socket.on('error', () => undefined);
  }

  static async connect(port: number): Promise<RawBoltClient> {
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('error', reject);
    });
    return new RawBoltClient(socket);
  }

  /** Sends the opening and returns the server's raw handshake reply (`bytes` long). */
  async handshake(proposals: number[], bytes = 4): Promise<Buffer> {
    this.socket.write(opening(...proposals));
    const reply = await this.readRaw(bytes);
    return reply;
  }

  /** Reads exactly `count` raw bytes (handshake phase). */
  async readRaw(count: number): Promise<Buffer> {
    while (this.buffered.length < count) {
      if (this.closed) throw new Error(`closed after ${this.buffered.length} bytes`);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    const out = this.buffered.subarray(0, count);
    this.buffered = this.buffered.subarray(count);
    return out;
  }

  /** Switches to message mode (after the handshake). */
  startMessages(): void {
    this.handshaking = false;
    const rest = this.buffered;
    this.buffered = Buffer.alloc(0);
    if (rest.length > 0) this.onData(rest);
  }

  send(signature: number, fields: readonly unknown[] = []): void {
    this.socket.write(chunked(signature, fields));
  }

  /** Next response message. */
  async next(): Promise<Response> {
    while (this.responses.length === 0) {
      if (this.closed) throw new Error('connection closed');
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    return this.responses.shift()!;
  }

  /** Waits for the server to close the connection. */
  async waitClosed(): Promise<void> {
    while (!this.closed) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  close(): void {
    this.socket.destroy();
  }

  private onData(data: Buffer): void {
    if (this.handshaking) {
      this.buffered = Buffer.concat([this.buffered, data]);
    } else {
      for (const message of this.dechunker.push(data)) {
        const value = unpackOne(message) as Structure;
        this.responses.push({ signature: value.signature, fields: value.fields as WireValue[] });
      }
    }
    this.wake();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}
