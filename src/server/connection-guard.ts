/**
 * Per-listener connection limits shared by every listener (HTTP with its WebSocket upgrades,
 * Bolt, gRPC): at most `maxConnections` open connections per listener and `maxPerIp` per client
 * address (extra connections are closed at once), and an idle timeout (no bytes either way).
 * `watchWrites` disconnects a client that stops reading a response for `writeTimeoutMs`.
 */
import type { Server, Socket } from 'node:net';
import type { Writable } from 'node:stream';

/** Limits of one listener. */
export interface ConnectionLimits {
  /** Open connections of the listener (`database.max_connections`); 0 = unlimited. */
  readonly maxConnections: number;
  /** Open connections from one IP address (`server.limits.max_connections_per_ip`); 0 = unlimited. */
  readonly maxPerIp: number;
  /** Milliseconds without a byte in either direction before the connection is closed; 0 = never. */
  readonly idleTimeoutMs: number;
}

/** What a guard has seen (for tests and metrics). */
export interface GuardCounters {
  open: number;
  refused: number;
  idleClosed: number;
}

/**
 * Applies `limits` to the connections `server` accepts. Returns live counters. The listener runs
 * before the server's own connection handler, so a refused socket is destroyed before any byte
 * of it is read.
 */
export function guardConnections(server: Server, limits: ConnectionLimits): GuardCounters {
  const perIp = new Map<string, number>();
  const counters: GuardCounters = { open: 0, refused: 0, idleClosed: 0 };
  server.prependListener('connection', (socket: Socket) => {
    const ip = socket.remoteAddress ?? 'unknown';
    const fromIp = perIp.get(ip) ?? 0;
    if ((limits.maxConnections > 0 && counters.open >= limits.maxConnections) || (limits.maxPerIp > 0 && fromIp >= limits.maxPerIp)) {
      counters.refused++;
      socket.destroy();
      return;
    }
    counters.open++;
    perIp.set(ip, fromIp + 1);
    socket.once('close', () => {
      counters.open--;
      const left = (perIp.get(ip) ?? 1) - 1;
      if (left === 0) perIp.delete(ip);
      else perIp.set(ip, left);
    });
    if (limits.idleTimeoutMs > 0) {
      socket.setTimeout(limits.idleTimeoutMs, () => {
        counters.idleClosed++;
        socket.destroy();
      });
    }
  });
  return counters;
}

/**
 * Destroys `stream` when it has needed a drain (the client is not reading) for longer than
 * `timeoutMs`; checks every quarter of the timeout. Returns the function that stops watching.
 */
export function watchWrites(
  stream: Writable & { writableNeedDrain: boolean },
  timeoutMs: number,
  onStall: () => void = () => stream.destroy(),
): () => void {
  if (timeoutMs <= 0) return () => undefined;
  let stalledSince: number | null = null;
  const timer = setInterval(
    () => {
      if (stream.destroyed) return stop();
      if (!stream.writableNeedDrain) {
        stalledSince = null;
        return;
      }
      stalledSince ??= Date.now();
      if (Date.now() - stalledSince >= timeoutMs) {
        stop();
        onStall();
      }
    },
    Math.max(10, Math.floor(timeoutMs / 4)),
  );
  timer.unref();
  const stop = (): void => clearInterval(timer);
  stream.once('close', stop);
  return stop;
}
