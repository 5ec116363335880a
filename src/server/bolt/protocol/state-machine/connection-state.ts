import {
  toGraphError,
  type ResultStream,
  type SecurityContext,
  type Session,
  type Transaction,
  type GraphError,
} from '../../../../engine/index.js';
import type { AuthenticateCallback, BoltEngine, BoltLogger } from '../../options.js';
import { failureMetadata } from '../failure-metadata.js';
import { NO_FILTER, type NotificationFilter } from '../notification-filter.js';
import { createStructureHook, type MappingOptions } from '../mapping/index.js';
import { describeMap } from '../messages.js';
import { MessageWriter } from '../message-writer.js';
import type { Metadata } from '../summary-metadata.js';
import type { ProtocolFeatures } from '../versions.js';

/** A result opened by RUN and not yet fully pulled or discarded. */
export interface OpenResult {
  readonly qid: number;
  readonly stream: ResultStream;
  readonly session: Session;
  /** Auto-commit results report a bookmark when they end. */
  readonly autoCommit: boolean;
  /** Notification filter in force for this statement. */
  readonly filter: NotificationFilter;
  streamedRecords: boolean;
}

/** The explicit transaction of a connection. */
export interface OpenTransaction {
  readonly transaction: Transaction;
  readonly session: Session;
  readonly database: string;
  readonly results: Map<number, OpenResult>;
  readonly filter: NotificationFilter;
  nextQid: number;
  lastQid: number;
}

/** What the connection provides to the state machine. */
export interface ConnectionServices {
  readonly engine: BoltEngine;
  readonly authenticate?: AuthenticateCallback;
  readonly logger?: BoltLogger;
  readonly connectionId: string;
  readonly serverAgent: string;
  readonly routingTtlSeconds: number;
  /** The address this connection reached (`host:port`), for ROUTE. */
  readonly localAddress: string;
  /** The client's IP address (the socket peer), given to the authenticate callback. */
  readonly clientIp: string | null;
  /** The client's `host:port` (SHOW TRANSACTIONS). */
  readonly clientAddress?: string;
  readonly advertisedAddress?: string;
  /** Sends pending output, waiting while the peer is not reading. */
  flush(): Promise<void>;
}

/**
 * Everything one connection's handlers share: negotiated features, identity, sessions per
 * database, the open transaction or auto-commit result, and the response writer.
 */
export class ConnectionState {
  readonly writer: MessageWriter;
  /** Value shapes for this connection; `utcDateTime` may be switched on by HELLO's patch (4.4). */
  readonly mapping: { -readonly [K in keyof MappingOptions]: MappingOptions[K] };
  security: SecurityContext | null = null;
  userAgent = '';
  /** `routing` context from HELLO; its `address` is what the client dialled. */
  routingContext: ReadonlyMap<string, unknown> | null = null;
  /** Notification filter of the connection (HELLO, 5.2+). */
  notificationFilter: NotificationFilter = NO_FILTER;
  autoCommit: OpenResult | null = null;
  transaction: OpenTransaction | null = null;
  /** Set when a RESET arrived; long-running work checks it and stops. */
  interrupted = false;
  private readonly sessions = new Map<string, Session>();
  private readonly debug: boolean;

  constructor(
    readonly features: ProtocolFeatures,
    readonly services: ConnectionServices,
  ) {
    this.mapping = { elementIds: features.elementIds, utcDateTime: features.elementIds, vectors: features.vectors };
    this.writer = new MessageWriter(createStructureHook(this.mapping));
    const logger = services.logger;
    this.debug = logger !== undefined && (logger.isLevelEnabled?.('debug') ?? true);
  }

  /** The engine session for a database (`undefined`: the default), opened on first use. */
  async sessionFor(database: string | undefined): Promise<Session> {
    const key = database ?? '';
    let session = this.sessions.get(key);
    if (!session) {
      // Without an authenticate callback (no-auth mode) the engine's own default context applies.
      const security = this.services.authenticate && this.security ? { security: this.security } : {};
      const client = {
        protocol: 'bolt',
        connectionId: this.services.connectionId,
        clientAddress: this.services.clientAddress ?? '',
        serverAddress: this.services.localAddress,
      } as const;
      session = await this.services.engine.session({ database, ...security, client });
      this.sessions.set(key, session);
    }
    return session;
  }

  /** Closes every engine session (LOGOFF, connection end). */
  async closeSessions(): Promise<void> {
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.allSettled(sessions.map((session) => session.close()));
  }

  /** Discards the auto-commit result and rolls back the transaction (RESET, close). */
  async abandonWork(): Promise<void> {
    const auto = this.autoCommit;
    this.autoCommit = null;
    if (auto) await auto.stream.discard().catch(() => undefined);
    const tx = this.transaction;
    this.transaction = null;
    if (tx && tx.transaction.isOpen) await tx.transaction.rollback().catch(() => undefined);
  }

  success(metadata: Metadata): void {
    if (this.debug) this.log(`S: SUCCESS ${describeMap(new Map(Object.entries(metadata)))}`);
    this.writer.success(metadata);
  }

  record(values: readonly unknown[]): void {
    this.writer.record(values);
  }

  ignored(): void {
    if (this.debug) this.log('S: IGNORED');
    this.writer.ignored();
  }

  /** Sends a FAILURE for anything thrown; returns the GraphError it became. */
  failure(error: unknown): GraphError {
    const graphError = toGraphError(error);
    const metadata = failureMetadata(graphError, this.features);
    if (this.debug) this.log(`S: FAILURE ${describeMap(new Map(Object.entries(metadata)))}`);
    this.writer.failure(metadata);
    return graphError;
  }

  /** Debug line prefixed with the connection id. */
  log(line: string): void {
    this.services.logger?.debug(`[${this.services.connectionId}] ${line}`);
  }

  /** True when `C:`/`S:` lines are wanted. */
  get debugEnabled(): boolean {
    return this.debug;
  }
}
