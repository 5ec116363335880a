import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { createSecureContext, TLSSocket, type SecureContext } from 'node:tls';
import type { WebSocket, WebSocketServer } from 'ws';
import { BoltConnection, type ConnectionSettings } from './connection.js';
import { guardConnections } from '../connection-guard.js';
import { DEFAULT_BOLT_LIMITS, type BoltServer, type BoltServerOptions } from './options.js';
import { restrictVersions } from './protocol/versions.js';
import { SocketTransport, WebSocketTransport, type Transport } from './transport.js';

const DEFAULT_MAX_MESSAGE_SIZE = 64 * 1024 * 1024;
const TLS_HANDSHAKE_RECORD = 0x16;
const ASCII_G = 0x47;

/**
 * Starts the Bolt listener. One port serves raw Bolt, Bolt over WebSocket (first bytes `GET `)
 * and, when `tls` is given, TLS (first byte 0x16) wrapping either of them.
 */
export async function startBoltServer(options: BoltServerOptions): Promise<BoltServer> {
  const settings: ConnectionSettings = {
    engine: options.engine,
    authenticate: options.authenticate,
    logger: options.logger,
    serverAgent: options.serverAgent ?? 'Neo4j/5.26.0',
    maxMessageSize: options.maxMessageSize ?? DEFAULT_MAX_MESSAGE_SIZE,
    routingTtlSeconds: options.routingTtlSeconds ?? 300,
    advertisedAddress: options.advertisedAddress,
    handshakeTimeoutMs: options.handshakeTimeoutMs ?? 10_000,
    versions: restrictVersions(options.versions),
    limits: { ...DEFAULT_BOLT_LIMITS, ...options.limits },
  };
  const connections = new Set<BoltConnection>();
  const sockets = new Set<Socket>();
  let nextId = 1;
  /** The TCP socket under a TLS socket, for addresses. */
  const rawSocketOf = new WeakMap<Socket, Socket>();
  const secureContext = options.tls ? createSecureContext({ key: options.tls.key, cert: options.tls.cert }) : null;
  const websocketEnabled = options.websocket ?? true;
  // `ws` is loaded with the first WebSocket upgrade: most connections are plain Bolt.
  let wss: WebSocketServer | null = null;
  let wssLoading: Promise<WebSocketServer> | null = null;
  const webSocketServer = (): Promise<WebSocketServer> =>
    (wssLoading ??= import('ws').then(({ WebSocketServer: Server }) => {
      wss = new Server({ noServer: true, maxPayload: settings.maxMessageSize });
      return wss;
    }));
  const http = websocketEnabled ? createHttpServer((_req, res) => res.writeHead(426).end('Upgrade to WebSocket for Bolt\n')) : null;

  const attach = (transport: Transport, subscribe: (onData: (b: Buffer) => void, onClose: () => void) => void): void => {
    const connection = new BoltConnection(transport, settings, `bolt-${nextId++}`, (c) => connections.delete(c));
    connections.add(connection);
    subscribe(
      (bytes) => connection.receive(bytes),
      () => connection.closed(),
    );
  };

  /**
   * A fixed deadline per TCP connection until it speaks Bolt or has upgraded to a WebSocket
   * (after TLS when it is TLS): a client that connects and stays silent, stalls in the TLS
   * handshake or in the HTTP upgrade is dropped instead of holding a connection slot. An idle
   * timeout would not do: a client trickling bytes would keep resetting it.
   */
  const deadlines = new WeakMap<Socket, NodeJS.Timeout>();
  const startDeadline = (socket: Socket): void => {
    const timer = setTimeout(() => socket.destroy(), settings.handshakeTimeoutMs);
    timer.unref();
    deadlines.set(socket, timer);
    socket.once('close', () => clearTimeout(timer));
  };
  const clearDeadline = (raw: Socket): void => {
    clearTimeout(deadlines.get(raw));
    deadlines.delete(raw);
  };

  const serveRawBolt = (socket: Socket, first: Buffer, raw: Socket): void => {
    // The connection's own handshake timer takes over from here.
    clearDeadline(raw);
    attach(new SocketTransport(socket, raw), (onData, onClose) => {
      socket.on('data', onData);
      socket.on('close', onClose);
      onData(first);
    });
  };

  // The socket is not flowing after 'upgrade' (Node sets readableFlowing to null), so bytes
  // arriving while `ws` loads stay buffered for handleUpgrade.
  http?.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    webSocketServer().then(
      (server) => {
        if (socket.destroyed) return;
        server.handleUpgrade(req, socket, head, (ws: WebSocket) => {
          const raw = rawSocketOf.get(socket) ?? socket;
          clearDeadline(raw);
          attach(new WebSocketTransport(ws, raw), (onData, onClose) => {
            ws.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => onData(toBuffer(data)));
            ws.on('close', onClose);
            ws.on('error', () => ws.terminate());
          });
        });
      },
      (error: Error) => {
        settings.logger?.error(`Bolt over WebSocket unavailable: ${error.message}`);
        socket.destroy();
      },
    );
  });

  /** Routes a connection by its first bytes; `raw` is the TCP socket under TLS (null when plain). */
  const sniff = (socket: Socket, raw: Socket | null): void => {
    const secured = raw !== null;
    socket.once('data', (first: Buffer) => {
      if (!secured && secureContext && first[0] === TLS_HANDSHAKE_RECORD) {
        return sniff(wrapTls(socket, first, secureContext), socket);
      }
      if (!secured && options.tls?.required) return void socket.destroy();
      if (http && first[0] === ASCII_G) {
        socket.pause();
        socket.unshift(first);
        if (raw) rawSocketOf.set(socket, raw);
        http.emit('connection', socket);
        socket.resume();
        return;
      }
      serveRawBolt(socket, first, raw ?? socket);
    });
  };

  const server: Server = createServer({ noDelay: true }, (socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', (error) => settings.logger?.debug(`Bolt socket error: ${error.message}`));
    startDeadline(socket);
    sniff(socket, null);
  });
  guardConnections(server, {
    maxConnections: settings.limits.maxConnections,
    maxPerIp: settings.limits.maxConnectionsPerIp,
    idleTimeoutMs: 0,
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  settings.logger?.info(`Bolt listening on ${options.host ?? '127.0.0.1'}:${port}${secureContext ? ' (TLS)' : ''}`);

  return {
    port,
    host: options.host ?? '127.0.0.1',
    get connectionCount() {
      return connections.size;
    },
    async close() {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      const finished = [...connections].map((connection) => connection.done);
      for (const connection of connections) connection.close();
      for (const client of wss?.clients ?? []) client.terminate();
      for (const socket of sockets) socket.destroy();
      await stopped;
      await Promise.all(finished);
      wss?.close();
    },
  };
}

/**
 * Wraps a socket whose first bytes were already read in a server-side TLSSocket. The socket is
 * adapted through a Duplex that replays those bytes first (a socket's native handle cannot be
 * un-read).
 */
function wrapTls(socket: Socket, first: Buffer, secureContext: SecureContext): Socket {
  const duplex = new Duplex({
    read() {
      socket.resume();
    },
    write(chunk: Buffer, _encoding, callback) {
      socket.write(chunk, callback);
    },
    final(callback) {
      socket.end();
      callback();
    },
    destroy(error, callback) {
      socket.destroy();
      callback(error);
    },
  });
  duplex.push(first);
  socket.on('data', (data: Buffer) => {
    if (!duplex.push(data)) socket.pause();
  });
  socket.on('end', () => duplex.push(null));
  socket.on('close', () => duplex.destroy());
  const secure = new TLSSocket(duplex, { isServer: true, secureContext });
  secure.on('error', () => secure.destroy());
  secure.on('close', () => socket.destroy());
  return secure;
}

function toBuffer(data: Buffer | ArrayBuffer | Buffer[]): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}
