import { ClientError, StatusCodes } from '../../engine/index.js';
import { PackStreamError } from './packstream/errors.js';
import { DEFAULT_UNPACK_LIMITS } from './packstream/unpacker.js';
import type { AuthenticateCallback, BoltEngine, BoltLimits, BoltLogger } from './options.js';
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
  /** Per-client byte and time limits. */
  readonly limits: BoltLimits;
}

/** Bytes a queued request is counted as at least (its object overhead, for tiny messages). */
const MIN_REQUEST_COST = 64;

type QueueItem = (RequestMessage | { readonly type: 'PROTOCOL_ERROR'; readonly error: Error }) & { readonly cost?: number };

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
  /** Bytes of the requests in `queue` (inbound byte accounting). */
  private queuedBytes = 0;
  private idleTimer: NodeJS.Timeout | null = null;
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
    if (this.idleTimer !== null) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (this.phase === 'closed') return;
    this.phase = 'closed';
    this.queue.length = 0;
    this.queuedBytes = 0;
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
      const cost = Math.max(MIN_REQUEST_COST, message.length);
      this.queue.push({ ...request, cost });
      this.queuedBytes += cost;
    }
    const limits = this.settings.limits;
    const buffered = this.queuedBytes + this.dechunker.bufferedBytes;
    if (this.state!.security === null && this.settings.authenticate !== undefined && buffered > limits.unauthenticatedMaxBytes) {
      // Nothing of what an unauthenticated client sent past the limit is processed.
      this.queue.length = 0;
      this.queuedBytes = 0;
      return this.protocolError(
        new PackStreamError(
          `More than ${limits.unauthenticatedMaxBytes} bytes received before authentication (server.limits.bolt_unauthenticated_max_bytes)`,
        ),
      );
    }
    if (this.queuedBytes > limits.maxInboundBytes && !this.paused) {
      this.paused = true;
      this.transport.pause();
    }
    this.touch();
    void this.pump();
  }

  /** Restarts the idle timer (a request arrived or a response was sent). */
  private touch(): void {
    const idle = this.settings.limits.idleTimeoutMs;
    if (idle <= 0 || this.phase === 'closed') return;
    if (this.idleTimer === null) {
      this.idleTimer = setTimeout(() => this.idle(), idle);
      this.idleTimer.unref();
    } else this.idleTimer.refresh();
  }

  private idle(): void {
    if (this.running || this.queue.length > 0) return this.touch();
    this.settings.logger?.debug(`[${this.id}] closed after ${this.settings.limits.idleTimeoutMs} ms idle`);
    this.close();
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
        this.queuedBytes -= item.cost ?? 0;
        if (item.type === 'PROTOCOL_ERROR') {
          this.settings.logger?.debug(`[${this.id}] protocol error: ${item.error.message}`);
          const message = item.error instanceof PackStreamError ? item.error.message : 'Invalid message';
          this.state!.failure(new ClientError(StatusCodes.InvalidFormat, message));
          await this.flush();
          this.close();
          break;
        }
        const keepOpen = await this.machine!.process(item);
        if (this.paused && this.queuedBytes < this.settings.limits.maxInboundBytes / 2) {
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
    this.touch();
    if (this.transport.write(bytes)) return;
    const timeout = this.settings.limits.writeTimeoutMs;
    if (timeout <= 0) return this.transport.waitForDrain();
    let timer: NodeJS.Timeout | undefined;
    const stalled = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), timeout)));
    const drained = await Promise.race([this.transport.waitForDrain().then(() => false), stalled]);
    clearTimeout(timer);
    if (drained) {
      this.settings.logger?.debug(`[${this.id}] client read nothing for ${timeout} ms (server.limits.write_timeout): closing`);
      if (this.state) this.state.interrupted = true;
      this.close();
    }
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
