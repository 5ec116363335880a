/**
 * Protocol limits: a raw TCP echo server (the floor of any request/response round trip) and bare
 * fastify routes answering with the JSON graphdb's HTTP and GraphQL endpoints would send.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';

/** A listening server and how to stop it. */
export interface Listening {
  readonly port: number;
  stop(): Promise<void>;
}

/** Raw TCP echo on an ephemeral port. */
export async function startEchoServer(): Promise<Listening> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.setNoDelay(true);
    s.on('data', (d) => s.write(d));
    s.on('close', () => sockets.delete(s));
    s.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A client connection doing strict request/response round trips against the echo server. */
export class EchoClient {
  private waiting: (() => void) | null = null;
  private pendingBytes = 0;

  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (d) => {
      this.pendingBytes -= d.length;
      if (this.pendingBytes <= 0 && this.waiting) {
        const w = this.waiting;
        this.waiting = null;
        w();
      }
    });
  }

  static async connect(port: number): Promise<EchoClient> {
    const socket = net.connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    return new EchoClient(socket);
  }

  /** Sends `payload` and resolves when it has come back. */
  roundTrip(payload: Buffer): Promise<void> {
    return new Promise<void>((resolve) => {
      this.pendingBytes += payload.length;
      this.waiting = resolve;
      this.socket.write(payload);
    });
  }

  close(): void {
    this.socket.destroy();
  }
}

/** The body Neo4j's `tx/commit` returns for `RETURN 1` (what graphdb's HTTP endpoint must send). */
export const TX_COMMIT_RETURN_1 = { results: [{ columns: ['1'], data: [{ row: [1], meta: [null] }] }], errors: [] };

/** A GraphQL response of the shape a small `stats` query answers. */
export const GRAPHQL_SMALL = { data: { stats: { nodeCount: 10000, relationshipCount: 50000 } } };

/** Bare fastify with the two stub routes, on an ephemeral port. */
export async function startFastifyStub(): Promise<Listening> {
  const app: FastifyInstance = Fastify({ logger: false });
  app.post('/db/:db/tx/commit', async () => TX_COMMIT_RETURN_1);
  app.post('/graphql', async () => GRAPHQL_SMALL);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { port: (app.server.address() as AddressInfo).port, stop: () => app.close() };
}

/** Keep-alive HTTP POST of JSON; resolves to the parsed body. */
export function postJson(agent: http.Agent, port: number, path: string, body: unknown): Promise<unknown> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), accept: 'application/json' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          } catch (e) {
            reject(e);
          }
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
