/**
 * Test support: a cluster of `nats-server` processes with JetStream on 127.0.0.1, each on free
 * ports with its own store directory under one temporary directory. Servers can be stopped
 * (SIGKILL) and started again on the same ports and store.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import type { Netns } from './netns.ts';

/** A free loopback port (bound to port 0 once, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once `check` resolves true, polling every `everyMs`; rejects after `timeoutMs`. */
export async function until(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string, everyMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** A running NATS cluster. */
export interface NatsCluster {
  /** Client URL of each server. */
  readonly urls: readonly string[];
  readonly dir: string;
  /** Kills server `i` (SIGKILL). */
  stop(i: number): Promise<void>;
  /** Starts server `i` again and waits until it serves JetStream. */
  start(i: number): Promise<void>;
  /** Freezes server `i` (SIGSTOP): its connections stay open, it answers nothing. */
  pause(i: number): void;
  /** Lets a paused server `i` run again (SIGCONT). */
  resume(i: number): void;
  close(): Promise<void>;
}

/** Ports of the servers inside namespaces (each namespace has its own ports). */
const NETNS_CLIENT_PORT = 4222;
const NETNS_ROUTE_PORT = 6222;

/**
 * Starts `size` clustered JetStream servers (one unclustered when `size` is 1) and waits until JetStream answers on each. With
 * `netns`, server i runs in member i's namespace: clients on the client network, routes on the
 * NATS network only.
 */
export async function startNatsCluster(size = 3, netns: Netns | null = null): Promise<NatsCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'graphdb-nats-'));
  const ports =
    netns === null
      ? await Promise.all(Array.from({ length: size }, async () => ({ client: await freePort(), route: await freePort() })))
      : Array.from({ length: size }, () => ({ client: NETNS_CLIENT_PORT, route: NETNS_ROUTE_PORT }));
  const routeHost = (i: number): string => (netns === null ? '127.0.0.1' : netns.natsAddress(i));
  const clientHost = (i: number): string => (netns === null ? '127.0.0.1' : netns.clientAddress(i));
  const children: (ChildProcess | null)[] = ports.map(() => null);
  const configFile = (i: number): string => {
    const file = join(dir, `n${i}.conf`);
    const store = join(dir, `store${i}`);
    mkdirSync(store, { recursive: true });
    const routes = ports.flatMap((p, j) => (j === i ? [] : [`nats://${routeHost(j)}:${p.route}`]));
    writeFileSync(
      file,
      [
        `server_name: n${i}`,
        `listen: ${netns === null ? '127.0.0.1' : '0.0.0.0'}:${ports[i].client}`,
        `jetstream { store_dir: "${store}", max_memory_store: 64MB, max_file_store: 2GB }`,
        // One server runs JetStream unclustered (a clustered one waits for peers that never come).
        ...(size === 1
          ? []
          : [`cluster { name: graphdb_test, listen: ${routeHost(i)}:${ports[i].route}, routes: [${routes.join(', ')}] }`]),
      ].join('\n'),
    );
    return file;
  };
  const exited = new Map<number, Promise<void>>();
  const launch = (i: number): void => {
    const [command, args] = netns === null ? ['nats-server', ['-c', configFile(i)]] : netns.wrap(i, 'nats-server', ['-c', configFile(i)]);
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr.resume();
    children[i] = child;
    exited.set(i, new Promise((resolve) => child.once('exit', () => resolve())));
  };
  const ready = async (i: number): Promise<void> => {
    await until(
      async () => {
        const nc = await connect({ servers: `${clientHost(i)}:${ports[i].client}`, reconnect: false, timeout: 1000 });
        try {
          const jsm = await jetstreamManager(nc, { timeout: 1000 });
          await jsm.getAccountInfo();
          return true;
        } finally {
          await nc.close();
        }
      },
      30_000,
      `JetStream on nats server ${i}`,
      200,
    );
  };
  const urls = ports.map((p, i) => `nats://${clientHost(i)}:${p.client}`);
  const stop = async (i: number): Promise<void> => {
    const child = children[i];
    if (child === null || child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGKILL');
    await exited.get(i);
  };
  // A test process that dies without running its hooks still takes its servers with it.
  const killAll = (): void => {
    for (const child of children) child?.kill('SIGKILL');
  };
  process.once('exit', killAll);
  try {
    for (let i = 0; i < size; i++) launch(i);
    await Promise.all(ports.map((_, i) => ready(i)));
  } catch (error) {
    for (let i = 0; i < size; i++) await stop(i);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    urls,
    dir,
    stop,
    async start(i) {
      launch(i);
      await ready(i);
    },
    pause(i) {
      children[i]?.kill('SIGSTOP');
    },
    resume(i) {
      children[i]?.kill('SIGCONT');
    },
    async close() {
      process.removeListener('exit', killAll);
      for (let i = 0; i < size; i++) await stop(i);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
