import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';

/**
 * A byte pipe to one client: a TCP/TLS socket or a WebSocket. `write` returns false when the
 * peer is not keeping up; `waitForDrain` then resolves once it has caught up (or closed).
 */
export interface Transport {
  write(data: Buffer): boolean;
  waitForDrain(): Promise<void>;
  /** Stops / restarts delivering incoming bytes (bounds the request queue). */
  pause(): void;
  resume(): void;
  /** Flushes and closes. */
  close(): void;
  readonly localAddress: string;
  readonly remoteAddress: string;
  /** The peer's IP address as the socket reports it (no port), null once unknown (socket gone). */
  readonly remoteIp: string | null;
}

/** `host:port` with IPv6 hosts in brackets. */
export function formatAddress(host: string | undefined, port: number | undefined): string {
  const h = host ?? 'localhost';
  const plain = h.startsWith('::ffff:') ? h.slice(7) : h;
  return `${plain.includes(':') ? `[${plain}]` : plain}:${port ?? 0}`;
}

/** Transport over a net.Socket or tls.TLSSocket. */
export class SocketTransport implements Transport {
  /** `addressSource` is the TCP socket under a TLS socket (which has no addresses of its own). */
  constructor(
    private readonly socket: Socket,
    private readonly addressSource: Socket = socket,
  ) {}

  write(data: Buffer): boolean {
    if (this.socket.destroyed) return true;
    return this.socket.write(data);
  }

  waitForDrain(): Promise<void> {
    const socket = this.socket;
    if (socket.destroyed || !socket.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        socket.off('drain', done);
        socket.off('close', done);
        resolve();
      };
      socket.on('drain', done);
      socket.on('close', done);
    });
  }

  pause(): void {
    this.socket.pause();
  }

  resume(): void {
    this.socket.resume();
  }

  close(): void {
    if (!this.socket.destroyed) this.socket.end();
  }

  get localAddress(): string {
    return formatAddress(this.addressSource.localAddress, this.addressSource.localPort);
  }

  get remoteAddress(): string {
    return formatAddress(this.addressSource.remoteAddress, this.addressSource.remotePort);
  }

  get remoteIp(): string | null {
    return this.addressSource.remoteAddress ?? null;
  }
}

/** Bytes buffered in a WebSocket before the writer waits. */
const WS_HIGH_WATER_MARK = 1024 * 1024;

/** Transport over a WebSocket carrying Bolt bytes in binary frames. */
export class WebSocketTransport implements Transport {
  private drainWaiters: (() => void)[] = [];

  constructor(
    private readonly ws: WebSocket,
    private readonly socket: Socket,
  ) {
    ws.on('close', () => this.releaseWaiters());
  }

  write(data: Buffer): boolean {
    if (this.ws.readyState !== this.ws.OPEN) return true;
    this.ws.send(data, { binary: true }, () => {
      if (this.ws.bufferedAmount < WS_HIGH_WATER_MARK) this.releaseWaiters();
    });
    return this.ws.bufferedAmount < WS_HIGH_WATER_MARK;
  }

  waitForDrain(): Promise<void> {
    if (this.ws.readyState !== this.ws.OPEN || this.ws.bufferedAmount < WS_HIGH_WATER_MARK) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  pause(): void {
    this.ws.pause();
  }

  resume(): void {
    this.ws.resume();
  }

  close(): void {
    this.ws.close(1000);
  }

  get localAddress(): string {
    return formatAddress(this.socket.localAddress, this.socket.localPort);
  }

  get remoteAddress(): string {
    return formatAddress(this.socket.remoteAddress, this.socket.remotePort);
  }

  /** The upgraded TCP socket's peer; proxy headers are not trusted for Bolt. */
  get remoteIp(): string | null {
    return this.socket.remoteAddress ?? null;
  }

  private releaseWaiters(): void {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
