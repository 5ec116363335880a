import { ClientError, StatusCodes } from '../../engine/errors/index.js';
import { PackStreamError } from './packstream/errors.js';
import { DEFAULT_UNPACK_LIMITS } from './packstream/unpacker.js';
import type { AuthenticateCallback, BoltEngine, BoltLogger } from './options.js';
import { Dechunker } from './protocol/chunking.js';
import { BOLT_MAGIC, HANDSHAKE_LENGTH, negotiate, readManifestChoice } from './protocol/handshake.js';
import { decodeRequest, type RequestMessage } from './protocol/messages.js';
import { ConnectionState } from './protocol/state-machine/connection-state.js';
import { StateMachine } from './protocol/state-machine/state-machine.js';
import { featuresOf, formatVersion, type BoltVersion, type ProtocolFeatures } from './protocol/versions.js';
import type { Transport } from './transport.js';

/** Server-wide settings every connection shares. */
export interface ConnectionSettings {
  readonly engine: BoltEngine;
  readonly authenticate?: AuthenticateCallback;
  readonly logger?: BoltLogger;
  readonly serverAgent: string;
  readonly maxMessageSize: number;
  readonly routingTtlSeconds: number;
  readonly advertisedAddress?: string;
  /** Milliseconds a client may take to complete the handshake. */
  readonly handshakeTimeoutMs: number;
  /** Versions offered in the handshake, newest first. */
  readonly versions: readonly BoltVersion[];
}

/** Queued requests beyond which the connection stops reading (pipelining clients). */
const MAX_QUEUED = 256;

type QueueItem = RequestMessage | { readonly type: 'PROTOCOL_ERROR'; readonly error: Error };

/**
 * One Bolt connection: handshake, then dechunked messages decoded as they arrive (a RESET is
 * seen at once, ahead of the queue), processed one at a time by the state machine, with the
 * responses written in batches and the socket's backpressure honoured.
 */
export class BoltConnection {
  private phase: 'handshake' | 'manifest' | 'messages' | 'closed' = 'handshake';
  private pending: Buffer = Buffer.alloc(0);
  private dechunker: Dechunker;
  private features: ProtocolFeatures | null = null;
  private state: ConnectionState | null = null;
  private machine: StateMachine | null = null;
  private readonly queue: QueueItem[] = [];
  private running = false;
  private paused = false;
  private shutDown = false;
  private handshakeTimer: NodeJS.Timeout | null;
  private resolveDone!: () => void;
  /** Settles once the connection is closed and its work rolled back. */
  readonly done: Promise<void> = new Promise((resolve) => (this.resolveDone = resolve));

  constructor(
    private readonly transport: Transport,
    private readonly settings: ConnectionSettings,
    readonly id: string,
    private readonly onClosed: (connection: BoltConnection) => void,
  ) {
    this.dechunker = new Dechunker(settings.maxMessageSize);
    this.handshakeTimer = setTimeout(() => this.close(), settings.handshakeTimeoutMs);
    this.handshakeTimer.unref();
  }

  /** Feeds bytes received from the client. */
  receive(bytes: Buffer): void {
    if (this.phase === 'closed') return;
    if (this.phase === 'messages') return this.receiveMessages(bytes);
    this.pending = this.pending.length === 0 ? bytes : Buffer.concat([this.pending, bytes]);
    if (this.phase === 'handshake') this.receiveHandshake();
    else this.receiveManifestChoice();
  }

  /** The transport closed (by either side). */
  closed(): void {
    this.clearHandshakeTimer();
    if (this.phase === 'closed') return;
    this.phase = 'closed';
    this.queue.length = 0;
    if (this.state) this.state.interrupted = true;
    if (!this.running) void this.shutdown();
  }

  /** Closes from the server side (server shutdown). */
  close(): void {
    this.transport.close();
    this.closed();
  }

  private receiveHandshake(): void {
    if (this.pending.length >= 4 && this.pending.readUInt32BE(0) !== BOLT_MAGIC) return this.close();
    if (this.pending.length < HANDSHAKE_LENGTH) return;
    const decision = negotiate(this.pending, this.settings.versions);
    const rest = this.pending.subarray(HANDSHAKE_LENGTH);
    this.pending = Buffer.alloc(0);
    if (decision.kind === 'invalid') return this.close();
    this.transport.write(decision.reply);
    if (decision.kind === 'none') return this.close();
    if (decision.kind === 'version') {
      this.start(decision.version);
      if (rest.length > 0) this.receiveMessages(rest);
      return;
    }
    this.phase = 'manifest';
    if (rest.length > 0) this.receive(rest);
  }

  private receiveManifestChoice(): void {
    const choice = readManifestChoice(this.pending, this.settings.versions);
    if (choice === null) {
      if (this.pending.length > 14) this.close();
      return;
    }
    const rest = this.pending.subarray(choice.consumed);
    this.pending = Buffer.alloc(0);
    if (choice.version === null) return this.close();
    this.start(choice.version);
    if (rest.length > 0) this.receiveMessages(rest);
  }

  private start(version: BoltVersion): void {
    this.clearHandshakeTimer();
    this.phase = 'messages';
    this.features = featuresOf(version);
    this.state = new ConnectionState(this.features, {
      engine: this.settings.engine,
      authenticate: this.settings.authenticate,
      logger: this.settings.logger,
      connectionId: this.id,
      serverAgent: this.settings.serverAgent,
      routingTtlSeconds: this.settings.routingTtlSeconds,
      localAddress: this.transport.localAddress,
      clientIp: this.transport.remoteIp,
      clientAddress: this.transport.remoteAddress,
      advertisedAddress: this.settings.advertisedAddress,
      flush: () => this.flush(),
    });
    this.machine = new StateMachine(this.state);
    this.settings.logger?.debug(`[${this.id}] Bolt ${formatVersion(version)} negotiated with ${this.transport.remoteAddress}`);
  }

  private receiveMessages(bytes: Buffer): void {
    let messages: Buffer[];
    try {
      messages = this.dechunker.push(bytes);
    } catch (error) {
      return this.protocolError(error as Error);
    }
    for (const message of messages) {
      let request: RequestMessage;
      try {
        request = decodeRequest(message, this.features!, DEFAULT_UNPACK_LIMITS);
      } catch (error) {
        return this.protocolError(error as Error);
      }
      if (request.type === 'RESET') this.machine!.interrupt();
      this.queue.push(request);
    }
    if (this.queue.length >= MAX_QUEUED && !this.paused) {
      this.paused = true;
      this.transport.pause();
    }
    void this.pump();
  }

  /** Malformed input: stop reading, answer what came before, then FAILURE and close. */
  private protocolError(error: Error): void {
    if (this.phase !== 'messages') return;
    this.phase = 'closed';
    this.transport.pause();
    this.queue.push({ type: 'PROTOCOL_ERROR', error });
    void this.pump();
  }

  private async pump(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.queue.length > 0) {
        const item = this.queue.shift()!;
        if (item.type === 'PROTOCOL_ERROR') {
          this.settings.logger?.debug(`[${this.id}] protocol error: ${item.error.message}`);
          const message = item.error instanceof PackStreamError ? item.error.message : 'Invalid message';
          this.state!.failure(new ClientError(StatusCodes.InvalidFormat, message));
          await this.flush();
          this.close();
          break;
        }
        const keepOpen = await this.machine!.process(item);
        if (this.paused && this.queue.length < MAX_QUEUED / 2) {
          this.paused = false;
          this.transport.resume();
        }
        if (!keepOpen) {
          await this.flush();
          this.close();
          break;
        }
        if (this.queue.length === 0 || this.state!.writer.size > 64 * 1024) await this.flush();
      }
    } catch (error) {
      this.settings.logger?.error(`[${this.id}] connection failed: ${(error as Error).stack ?? String(error)}`);
      this.close();
    } finally {
      this.running = false;
      if (this.phase === 'closed') await this.shutdown();
    }
  }

  /** Writes pending responses; waits while the client is not reading. */
  private async flush(): Promise<void> {
    const state = this.state;
    if (!state || state.writer.size === 0) return;
    const bytes = state.writer.take();
    if (!this.transport.write(bytes)) await this.transport.waitForDrain();
  }

  private clearHandshakeTimer(): void {
    if (this.handshakeTimer) clearTimeout(this.handshakeTimer);
    this.handshakeTimer = null;
  }

  private async shutdown(): Promise<void> {
    if (this.shutDown) return;
    this.shutDown = true;
    try {
      await this.machine?.shutdown();
    } finally {
      this.settings.logger?.debug(`[${this.id}] closed`);
      this.onClosed(this);
      this.resolveDone();
    }
  }
}
