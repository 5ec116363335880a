import type { SecurityContext, Session, SessionOptions } from '../../engine/index.js';
import type { BoltVersion } from './protocol/versions.js';

/** The part of the engine facade (`GraphDB`) the Bolt server uses. */
export interface BoltEngine {
  /** Opens a session on a database (the default one when `database` is omitted). */
  session(options?: SessionOptions): Session | Promise<Session>;
  /**
   * True when the database (or alias) exists. ROUTE asks it so a routing table is never
   * handed out for a database that does not exist (without it, ROUTE trusts the session).
   */
  hasDatabase?(name: string): boolean;
  /**
   * The routing table ROUTE answers for a database in a cluster (writers = the leader, readers =
   * the followers, routers = every member); absent or null: this server alone in every role.
   */
  routingTable?(database: string): RoutingTable | null;
}

/** A Bolt routing table (`host:port` addresses). */
export interface RoutingTable {
  readonly ttlSeconds: number;
  readonly routers: readonly string[];
  readonly readers: readonly string[];
  readonly writers: readonly string[];
}

/** The auth token of HELLO (4.4, 5.0) or LOGON (5.1+). */
export interface AuthToken {
  /** `basic`, `bearer`, `none`, or a custom scheme. */
  readonly scheme: string;
  readonly principal: string | null;
  readonly credentials: string | null;
  readonly realm: string | null;
}

/**
 * Resolves credentials to a security context, or throws `Unauthorized`. Supplied by the server
 * assembly; without one every token is accepted (no-auth mode). `clientIp` is the connection's
 * peer address as the socket reports it (for WebSocket, the upgraded socket's peer; proxy headers
 * are never trusted for Bolt), null when unknown; it is meant for auditing and per-IP limits.
 */
export type AuthenticateCallback = (
  scheme: string,
  principal: string | null,
  credentials: string | null,
  token: AuthToken,
  clientIp: string | null,
) => SecurityContext | Promise<SecurityContext>;

/** pino-compatible logger subset. */
export interface BoltLogger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /** pino's check, used to skip formatting `C:`/`S:` lines when debug is off. */
  isLevelEnabled?(level: string): boolean;
}

/** Native TLS for the Bolt listener. */
export interface BoltTlsOptions {
  readonly key: string | Buffer;
  readonly cert: string | Buffer;
  /** When false (default) plain and TLS clients share the port (sniffed); true refuses plain. */
  readonly required?: boolean;
}

/** Options of `startBoltServer`. */
export interface BoltServerOptions {
  /** 0 picks a free port. */
  readonly port: number;
  readonly host?: string;
  readonly engine: BoltEngine;
  readonly authenticate?: AuthenticateCallback;
  readonly tls?: BoltTlsOptions;
  readonly logger?: BoltLogger;
  /** `host:port` announced by ROUTE; defaults to the address the client connected to. */
  readonly advertisedAddress?: string;
  /** Agent string in the HELLO SUCCESS (`server`). */
  readonly serverAgent?: string;
  /** Largest accepted request message, in bytes (default 64 MiB). */
  readonly maxMessageSize?: number;
  /** Accept Bolt over WebSocket on the same port (default true). */
  readonly websocket?: boolean;
  /**
   * Milliseconds a client may take from connecting to completing the TLS handshake (when TLS),
   * the WebSocket upgrade (when WebSocket) and the Bolt handshake (default 10 000).
   */
  readonly handshakeTimeoutMs?: number;
  /** Restricts the protocol versions offered (default: all of 5.8-5.0 and 4.4). */
  readonly versions?: readonly BoltVersion[];
  /** Seconds ROUTE tables stay valid (default 300). */
  readonly routingTtlSeconds?: number;
  /** Per-client limits (defaults: see DEFAULT_BOLT_LIMITS and docs/security.md). */
  readonly limits?: Partial<BoltLimits>;
}

/** What one Bolt client may hold (`server.limits.*`, `database.max_connections`). */
export interface BoltLimits {
  /** Bytes buffered (partial and queued messages) before the client has authenticated. */
  readonly unauthenticatedMaxBytes: number;
  /** Bytes of received, unprocessed requests after authentication; reading pauses above it. */
  readonly maxInboundBytes: number;
  /** Milliseconds a client may leave responses unread before it is disconnected; 0 = never. */
  readonly writeTimeoutMs: number;
  /** Milliseconds without a request (none running) before the connection is closed; 0 = never. */
  readonly idleTimeoutMs: number;
  /** Open connections of the listener; 0 = unlimited. */
  readonly maxConnections: number;
  /** Open connections from one IP address; 0 = unlimited. */
  readonly maxConnectionsPerIp: number;
}

/** Default per-client limits of the Bolt listener. */
export const DEFAULT_BOLT_LIMITS: BoltLimits = {
  unauthenticatedMaxBytes: 64 * 1024,
  maxInboundBytes: 16 * 1024 * 1024,
  writeTimeoutMs: 30_000,
  idleTimeoutMs: 600_000,
  maxConnections: 0,
  maxConnectionsPerIp: 0,
};

/** The running listener. */
export interface BoltServer {
  readonly port: number;
  readonly host: string;
  /** Open client connections. */
  readonly connectionCount: number;
  /** Stops listening and closes every connection (rolling back open transactions). */
  close(): Promise<void>;
}
