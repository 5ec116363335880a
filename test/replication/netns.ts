/**
 * Test support: network namespaces for partition tests (Linux, root, `ip` from iproute2). One
 * namespace per NATS server; a hub namespace holds two bridges:
 * - the NATS network (10.77.1.0/24, private to the namespaces) carries only NATS cluster routes;
 * - the client network (a random 10.x.y.0/24) joins every NATS server and, through one veth
 *   pair, the root namespace, where the test and the graphdb members (on loopback) run: member i
 *   connects to NATS server i there.
 * `cut(i)` takes server i's NATS link down: the server is alive and its member still reaches it,
 * but it is cut off from the other servers (the minority side of a partition). Every interface
 * lives in a namespace the test created (the root end of the client veth dies with its peer),
 * and `close()` (also run at process exit) deletes them all.
 */
import { spawnSync } from 'node:child_process';

/** Set to `1` to run the replication tests without network namespaces: the partition test then fails instead of running. */
export const NETNS_OPT_OUT = 'GRAPHDB_TEST_NO_NETNS';

function ip(...args: string[]): void {
  const result = spawnSync('ip', args, { encoding: 'utf8' });
  if (result.error !== undefined) throw new Error(`ip ${args.join(' ')}: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`ip ${args.join(' ')}: ${result.stderr.trim()}`);
}

/** Why network namespaces cannot be used here (null when they can). */
export function netnsUnavailable(): string | null {
  if (process.platform !== 'linux') return 'network namespaces need Linux';
  if (process.getuid?.() !== 0) return 'network namespaces need root';
  const probe = `gdbprobe${process.pid}`;
  const result = spawnSync('ip', ['netns', 'add', probe], { encoding: 'utf8' });
  if (result.error !== undefined) return `\`ip\` (iproute2) is not installed: ${result.error.message}`;
  if (result.status !== 0) return `ip netns add failed: ${result.stderr.trim()}`;
  spawnSync('ip', ['netns', 'del', probe]);
  return null;
}

/** The namespaces of one test cluster. */
export class Netns {
  private closed = false;
  private readonly onExit = (): void => this.close();

  private constructor(
    readonly size: number,
    private readonly prefix: string,
    private readonly clientNet: string,
  ) {}

  /** Creates the namespaces and links of `size` members. */
  static create(size: number): Netns {
    const prefix = `gdb${process.pid}`;
    const root = spawnSync('ip', ['-4', 'route'], { encoding: 'utf8' }).stdout;
    let clientNet: string;
    do clientNet = `10.${100 + Math.floor(Math.random() * 150)}.${Math.floor(Math.random() * 256)}`;
    while (root.includes(`${clientNet}.`));
    const net = new Netns(size, prefix, clientNet);
    process.once('exit', net.onExit);
    try {
      net.build();
    } catch (error) {
      net.close();
      throw error;
    }
    return net;
  }

  private ns(i: number | 'hub'): string {
    return `${this.prefix}-${i}`;
  }

  private build(): void {
    const hub = this.ns('hub');
    ip('netns', 'add', hub);
    ip('-n', hub, 'link', 'set', 'lo', 'up');
    for (const bridge of ['brn', 'brc']) {
      ip('-n', hub, 'link', 'add', bridge, 'type', 'bridge');
      ip('-n', hub, 'link', 'set', bridge, 'up');
    }
    for (let i = 0; i < this.size; i++) {
      const ns = this.ns(i);
      ip('netns', 'add', ns);
      ip('-n', ns, 'link', 'set', 'lo', 'up');
      for (const [end, bridge, address] of [
        ['nats', 'brn', this.natsAddress(i)],
        ['cli', 'brc', this.clientAddress(i)],
      ] as const) {
        ip('-n', ns, 'link', 'add', 'name', end, 'type', 'veth', 'peer', 'name', `${end}${i}`, 'netns', hub);
        ip('-n', ns, 'addr', 'add', `${address}/24`, 'dev', end);
        ip('-n', ns, 'link', 'set', end, 'up');
        ip('-n', hub, 'link', 'set', `${end}${i}`, 'master', bridge);
        ip('-n', hub, 'link', 'set', `${end}${i}`, 'up');
      }
    }
    // The test process's own end of the client network (in the root namespace; deleted with its hub peer).
    const rootEnd = `${this.prefix}h`;
    ip('link', 'add', 'name', rootEnd, 'type', 'veth', 'peer', 'name', 'host', 'netns', hub);
    ip('addr', 'add', `${this.clientNet}.1/24`, 'dev', rootEnd);
    ip('link', 'set', rootEnd, 'up');
    ip('-n', hub, 'link', 'set', 'host', 'master', 'brc');
    ip('-n', hub, 'link', 'set', 'host', 'up');
  }

  /** NATS server i's address on the client network (its client port). */
  clientAddress(i: number): string {
    return `${this.clientNet}.${10 + i}`;
  }

  /** NATS server i's address on the NATS network (its cluster route). */
  natsAddress(i: number): string {
    return `10.77.1.${10 + i}`;
  }

  /** `command args` to run inside server i's namespace. */
  wrap(i: number, command: string, args: readonly string[]): [string, string[]] {
    return ['ip', ['netns', 'exec', this.ns(i), command, ...args]];
  }

  /** Cuts NATS server i off from the others (its NATS link goes down). */
  cut(i: number): void {
    ip('-n', this.ns('hub'), 'link', 'set', `nats${i}`, 'down');
  }

  /** Heals the partition of server i. */
  heal(i: number): void {
    ip('-n', this.ns('hub'), 'link', 'set', `nats${i}`, 'up');
  }

  /** Deletes every namespace (and so every link) of this cluster; processes inside must be stopped first. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    process.removeListener('exit', this.onExit);
    spawnSync('ip', ['link', 'del', `${this.prefix}h`]);
    for (let i = 0; i < this.size; i++) spawnSync('ip', ['netns', 'del', this.ns(i)]);
    spawnSync('ip', ['netns', 'del', this.ns('hub')]);
  }
}
