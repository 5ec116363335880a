/**
 * The vector-API gRPC listener (docs/vectorapi.md): Qdrant's
 * `Collections`, `Points` and `Qdrant.HealthCheck` services over graphdb, on an HTTP/2 server
 * (plaintext h2c, or TLS 1.2+ with optional client certificates) through connect-node's gRPC
 * protocol, so the official `@qdrant/js-client-grpc` client works against it. See
 * docs/vectorapi.md.
 *
 * ```ts
 * const server = await startVectorApiServer({ host: '127.0.0.1', port: 0, deps: { engine, auth: null, onInternalError } });
 * const client = new QdrantClient({ url: `http://127.0.0.1:${server.port}` });
 * ```
 */
import { guardConnections, type ConnectionLimits } from '../connection-guard.js';
import { readFileSync } from 'node:fs';
import http2 from 'node:http2';
import type { TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { type ConnectRouter, createContextValues } from '@connectrpc/connect';
import { compressionGzip, connectNodeAdapter } from '@connectrpc/connect-node';
import type { Logger } from 'pino';
import type { AuthService } from '../../engine/auth/index.js';
import type { GraphdbConfig, GrpcClientAuthMode } from '../../engine/config/index.js';
import type { ServerEngine } from '../engine-port.js';
import { SecurityConfigurationError, isLoopbackAddress } from '../transport-policy.js';
import { CLIENT_IP, type VectorApiDependencies } from './call-context.js';
import { collectionsService } from './collections-service.js';
import { pointsService } from './points-service.js';
import { Collections, Points, Qdrant } from './proto.js';

export type { VectorApiDependencies } from './call-context.js';

/** The Qdrant API version this listener implements (reported by HealthCheck; clients compare it with theirs). */
export const QDRANT_API_VERSION = '1.18.0';

/** Largest request message accepted (larger ones get RESOURCE_EXHAUSTED). */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** TLS of the listener. */
export interface VectorApiTls {
  readonly cert: Buffer;
  readonly key: Buffer;
  /** CA bundle client certificates are verified against. */
  readonly ca?: Buffer;
  readonly clientAuth: GrpcClientAuthMode;
}

/** Options of `startVectorApiServer`. */
export interface VectorApiServerOptions {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly deps: VectorApiDependencies;
  readonly tls?: VectorApiTls;
  /** Connection limits of the listener (default: none). */
  readonly limits?: ConnectionLimits;
}

/** A running vector-API listener. */
export interface VectorApiServer {
  readonly host: string;
  readonly port: number;
  readonly tls: boolean;
  /** Stops accepting calls and closes client connections; safe to call twice. */
  close(): Promise<void>;
}

/**
 * Parses `host:port`, `[v6]:port`, or `:port` / a bare port (loopback: every interface needs an
 * explicit `0.0.0.0:port` or `[::]:port`).
 */
export function parseListenAddress(text: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:]*)):(\d+)$/.exec(text.trim()) ?? /^()()(\d+)$/.exec(text.trim());
  const port = match === null ? Number.NaN : Number(match[3]);
  if (match === null || !Number.isInteger(port) || port > 65535) {
    throw new SecurityConfigurationError(`invalid GRAPHDB_VECTORAPI_GRPC_LISTEN_ADDR '${text}': expected host:port or :port`);
  }
  const host = match[1] ?? match[2] ?? '';
  return { host: host === '' ? '127.0.0.1' : host, port };
}

/**
 * docs/security.md, "Safe defaults": with authentication enabled, plaintext gRPC on a non-loopback address is
 * refused; TLS needs a certificate and key.
 */
export function checkVectorApiTransport(config: GraphdbConfig): void {
  const settings = config.vectorapi;
  if (!settings.grpc_enabled) return;
  const { host } = parseListenAddress(settings.grpc_listen_addr);
  if (settings.grpc_tls_enabled && (settings.grpc_tls_cert === '' || settings.grpc_tls_key === '')) {
    throw new SecurityConfigurationError(
      'security configuration: gRPC TLS needs GRAPHDB_VECTORAPI_GRPC_TLS_CERT and GRAPHDB_VECTORAPI_GRPC_TLS_KEY',
    );
  }
  if (
    settings.grpc_tls_client_auth_mode !== 'none' &&
    settings.grpc_tls_client_auth_mode !== 'request' &&
    settings.grpc_tls_client_ca === ''
  ) {
    throw new SecurityConfigurationError(
      `security configuration: gRPC client auth mode ${settings.grpc_tls_client_auth_mode} needs GRAPHDB_VECTORAPI_GRPC_TLS_CLIENT_CA`,
    );
  }
  if (config.auth.enabled && !settings.grpc_tls_enabled && !isLoopbackAddress(host)) {
    throw new SecurityConfigurationError(
      `security configuration: plaintext gRPC listener is not allowed on a non-loopback address (${settings.grpc_listen_addr}) with authentication enabled; set GRAPHDB_VECTORAPI_GRPC_TLS_ENABLED=true with a certificate, or bind to a loopback address`,
    );
  }
}

function routes(deps: VectorApiDependencies) {
  return (router: ConnectRouter) => {
    router.service(Collections, collectionsService(deps));
    router.service(Points, pointsService(deps));
    router.service(Qdrant, { healthCheck: () => ({ title: 'graphdb vectorapi', version: QDRANT_API_VERSION }) });
  };
}

function createHttp2Server(
  options: VectorApiServerOptions,
  handler: ReturnType<typeof connectNodeAdapter>,
): http2.Http2Server | http2.Http2SecureServer {
  const { tls } = options;
  if (tls === undefined) return http2.createServer(handler);
  const server = http2.createSecureServer(
    {
      cert: tls.cert,
      key: tls.key,
      ...(tls.ca === undefined ? {} : { ca: tls.ca }),
      minVersion: 'TLSv1.2',
      requestCert: tls.clientAuth !== 'none',
      rejectUnauthorized: tls.clientAuth === 'require_verify',
    },
    handler,
  );
  if (tls.clientAuth === 'request_verify') {
    // A certificate is optional, but one that is presented must verify.
    server.on('secureConnection', (socket: TLSSocket) => {
      const presented = Object.keys(socket.getPeerCertificate()).length > 0;
      if (presented && !socket.authorized) socket.destroy();
    });
  }
  return server;
}

/** Starts the listener. */
export async function startVectorApiServer(options: VectorApiServerOptions): Promise<VectorApiServer> {
  const handler = connectNodeAdapter({
    routes: routes(options.deps),
    grpc: true,
    grpcWeb: false,
    connect: false,
    acceptCompression: [compressionGzip],
    readMaxBytes: MAX_MESSAGE_BYTES,
    contextValues: (request) => createContextValues().set(CLIENT_IP, request.socket.remoteAddress ?? null),
  });
  const server = createHttp2Server(options, handler);
  if (options.limits !== undefined) {
    guardConnections(server, { ...options.limits, idleTimeoutMs: 0 });
    // An HTTP/2 session owns its socket's timeout: idle sessions are destroyed by the server's.
    if (options.limits.idleTimeoutMs > 0) server.setTimeout(options.limits.idleTimeoutMs);
  }
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('session', (session: http2.ServerHttp2Session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  let closing: Promise<void> | null = null;
  return {
    host: options.host,
    port: address.port,
    tls: options.tls !== undefined,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const session of sessions) session.close();
        setTimeout(() => {
          for (const session of sessions) session.destroy();
        }, 2000).unref();
      });
      return closing;
    },
  };
}

/**
 * Starts the listener `config.vectorapi` describes, or returns null when it is disabled. The
 * caller checks the transport policy first (`checkVectorApiTransport`).
 */
export async function startConfiguredVectorApi(
  config: GraphdbConfig,
  engine: Pick<ServerEngine, 'session'>,
  auth: AuthService | null,
  logger: Logger,
): Promise<VectorApiServer | null> {
  const settings = config.vectorapi;
  if (!settings.grpc_enabled) return null;
  const { host, port } = parseListenAddress(settings.grpc_listen_addr);
  const tls: VectorApiTls | undefined = settings.grpc_tls_enabled
    ? {
        cert: readFileSync(settings.grpc_tls_cert),
        key: readFileSync(settings.grpc_tls_key),
        ...(settings.grpc_tls_client_ca === '' ? {} : { ca: readFileSync(settings.grpc_tls_client_ca) }),
        clientAuth: settings.grpc_tls_client_auth_mode,
      }
    : undefined;
  const server = await startVectorApiServer({
    host,
    port,
    limits: {
      maxConnections: config.database.max_connections,
      maxPerIp: config.server.limits.max_connections_per_ip,
      idleTimeoutMs: config.server.limits.idle_timeout,
    },
    tls,
    deps: {
      engine,
      auth,
      ...(settings.database === '' ? {} : { database: settings.database }),
      onInternalError: (error) => logger.error({ err: error }, 'vector API call failed'),
    },
  });
  logger.info(
    { address: `${host.includes(':') ? `[${host}]` : host}:${server.port}`, tls: server.tls },
    'vector API gRPC listener started',
  );
  return server;
}
