/**
 * Test support: `graphdb serve --cluster` processes (the real serve command from source), one
 * per NATS server of a test NATS cluster, on fixed free loopback ports so a killed member comes
 * back at the same addresses. Auth is on with the same user and JWT secret on every member.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCli } from '../cli/cli-process.js';
import { freePort, startNatsCluster, until, type NatsCluster } from './nats-cluster.ts';
import type { Netns } from './netns.ts';
import { GraphDB } from '../../src/engine/index.js';
import { storeContentHash } from '../../src/engine/cluster/apply-entry.js';
import { storeOf } from '../../src/engine/engine-internals.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const bin = join(root, 'bin', 'run.js');

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

/** Builds the CLI when the sources are newer than its bundle (members run the built CLI: it starts in a fraction of tsx's time). */
function ensureBuilt(): void {
  let built: number;
  try {
    built = statSync(join(root, 'dist', 'bundle', 'commands', 'serve.js')).mtimeMs;
  } catch {
    built = 0;
  }
  if (newest(join(root, 'src')) > built) buildCli();
}

export const USER = 'neo4j';
export const PASSWORD = 'cluster-test-password';
const JWT_SECRET = 'a-cluster-test-secret-of-at-least-32-bytes';

/** One member process. */
export interface Member {
  readonly index: number;
  readonly nodeId: string;
  readonly dataDir: string;
  readonly boltPort: number;
  readonly httpPort: number;
  readonly bolt: string;
  readonly http: string;
  child: ChildProcess | null;
  output: string;
}

/** Cluster status as `/status` reports it. */
export interface MemberStatus {
  readonly node_id: string;
  readonly role: 'LEADER' | 'FOLLOWER';
  readonly leader: { node_id: string; bolt: string; http: string } | null;
  readonly databases: {
    name: string;
    version: number;
    applied_sequence: number;
    last_sequence: number;
    lag: number;
    snapshot_sequence: number;
  }[];
}

/** Three (or `size`) NATS servers and graphdb members. */
export class GraphdbCluster {
  private constructor(
    readonly nats: NatsCluster,
    readonly members: Member[],
    private readonly root: string,
  ) {}

  /** Starts `size` NATS servers and members on loopback; with `netns`, each NATS server in its own namespace (netns.ts). */
  static async start(
    size = 3,
    env: Record<string, string> = {},
    netns: Netns | null = null,
    memberEnv: (member: Member) => Record<string, string> = () => ({}),
  ): Promise<GraphdbCluster> {
    ensureBuilt();
    const nats = await startNatsCluster(size, netns);
    const root = mkdtempSync(join(tmpdir(), 'graphdb-cluster-'));
    const members: Member[] = [];
    for (let i = 0; i < size; i++) {
      const boltPort = await freePort();
      const httpPort = await freePort();
      members.push({
        index: i,
        nodeId: `m${i}`,
        dataDir: join(root, `m${i}`),
        boltPort,
        httpPort,
        bolt: `127.0.0.1:${boltPort}`,
        http: `http://127.0.0.1:${httpPort}`,
        child: null,
        output: '',
      });
    }
    const cluster = new GraphdbCluster(nats, members, root);
    cluster.env = env;
    cluster.memberEnv = memberEnv;
    try {
      for (const m of members) await cluster.startMember(m.index);
    } catch (error) {
      await cluster.close();
      throw error;
    }
    return cluster;
  }

  private env: Record<string, string> = {};
  private memberEnv: (member: Member) => Record<string, string> = () => ({});

  /** Starts member `i` and waits until it joined. */
  async startMember(i: number): Promise<void> {
    const member = this.members[i];
    const env: NodeJS.ProcessEnv = {};
    for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GRAPHDB_')) env[key] = value;
    const child = spawn(
      process.execPath,
      [
        bin,
        'serve',
        '--data-dir',
        member.dataDir,
        '--http-port',
        String(member.httpPort),
        '--bolt-port',
        String(member.boltPort),
        // Member 2 joins through GRAPHDB_CLUSTER_NATS_URL (the setting), the others through --cluster.
        ...(i === 2 ? [] : ['--cluster', this.nats.urls[i]]),
        '--node-id',
        member.nodeId,
      ],
      {
        cwd: this.root,
        env: {
          ...env,
          HOME: this.root,
          XDG_CONFIG_HOME: join(this.root, '.config'),
          GRAPHDB_AUTH: `${USER}:${PASSWORD}`,
          GRAPHDB_JWT_SECRET: JWT_SECRET,
          ...(i === 2 ? { GRAPHDB_CLUSTER_NATS_URL: this.nats.urls[i] } : {}),
          GRAPHDB_CLUSTER_NAME: 'test',
          GRAPHDB_CLUSTER_LEASE_TTL: '1500ms',
          GRAPHDB_CLUSTER_ROUTING_TTL: '2s',
          GRAPHDB_LOG_LEVEL: 'info',
          ...this.env,
          ...this.memberEnv(member),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    member.child = child;
    member.output = '';
    child.stdout.on('data', (chunk: Buffer) => (member.output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (member.output += chunk.toString()));
    let exited = false;
    child.once('exit', () => (exited = true));
    await until(
      () => {
        if (exited) throw new Error(`member ${i} exited:\n${member.output}`);
        return member.output.includes('joined the replication cluster');
      },
      90_000,
      `member ${i} to join`,
    ).catch((error: unknown) => {
      throw new Error(`${(error as Error).message}; member ${i} output:\n${member.output}`);
    });
  }

  /** Kills member `i` with SIGKILL. */
  async kill(i: number): Promise<void> {
    const child = this.members[i].child;
    if (child === null || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGKILL');
    await gone;
    this.members[i].child = null;
  }

  /** Stops member `i` cleanly (SIGTERM). */
  async stop(i: number): Promise<void> {
    const child = this.members[i].child;
    if (child === null || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    await gone;
    this.members[i].child = null;
  }

  /** `/status` of member `i`. */
  async status(i: number): Promise<MemberStatus> {
    const response = await fetch(`${this.members[i].http}/status`, { headers: { authorization: basicAuth() } });
    if (response.status !== 200) throw new Error(`status ${response.status}`);
    return ((await response.json()) as { cluster: MemberStatus }).cluster;
  }

  /**
   * Waits until the running members agree on one leader: exactly one reports itself LEADER and
   * every other names it as leader. Returns its index. Leadership may move at any time (a lease
   * renewed late under load), so tests that need a role take it from here, not from an earlier look.
   */
  async agreedLeader(timeoutMs = 30_000): Promise<number> {
    let found = -1;
    await until(
      async () => {
        const running = this.members.filter((m) => m.child !== null);
        const statuses = await Promise.all(running.map((m) => this.status(m.index)));
        const leaders = running.filter((_, i) => statuses[i].role === 'LEADER');
        if (leaders.length !== 1) return false;
        found = leaders[0].index;
        return statuses.every((s) => s.leader?.node_id === leaders[0].nodeId);
      },
      timeoutMs,
      'the members to agree on one leader',
    );
    return found;
  }

  /** The index of the member that reports itself leader (waits up to `timeoutMs`). */
  async leader(timeoutMs = 20_000, except: number | null = null): Promise<number> {
    let found = -1;
    await until(
      async () => {
        for (const m of this.members) {
          if (m.child === null || m.index === except) continue;
          if ((await this.status(m.index)).role === 'LEADER') {
            found = m.index;
            return true;
          }
        }
        return false;
      },
      timeoutMs,
      'a leader',
    );
    return found;
  }

  /** Waits until every running member applied the same version of `database`; returns it. */
  async converged(database = 'graphdb', timeoutMs = 30_000): Promise<number> {
    let version = -1;
    await until(
      async () => {
        const running = this.members.filter((m) => m.child !== null);
        const versions = await Promise.all(
          running.map(async (m) => (await this.status(m.index)).databases.find((d) => d.name === database)!),
        );
        version = versions[0].version;
        return versions.every((v) => v.version === version && v.lag === 0);
      },
      timeoutMs,
      'every member at the same version',
    );
    return version;
  }

  /** Every member's cluster status (or why it has none) and the end of its output: for failure messages. */
  async describe(): Promise<string> {
    const parts: string[] = [];
    for (const m of this.members) {
      const status =
        m.child === null
          ? 'not running'
          : await this.status(m.index).then(
              (s) => JSON.stringify(s),
              (e: unknown) => `no status: ${String(e)}`,
            );
      parts.push(`member ${m.index}: ${status}\n${m.output.split('\n').slice(-25).join('\n')}`);
    }
    return parts.join('\n');
  }

  /** Stops every member cleanly and returns the content hash of each member's store of `database` (content-hash.ts). */
  async storeHashes(database = 'graphdb'): Promise<string[]> {
    for (const m of this.members) await this.stop(m.index);
    const hashes: string[] = [];
    for (const m of this.members) {
      const db = await GraphDB.open({ dataDir: m.dataDir, search: false });
      try {
        hashes.push(storeContentHash(storeOf(db, database)));
      } finally {
        await db.close();
      }
    }
    return hashes;
  }

  async close(): Promise<void> {
    for (const m of this.members) await this.kill(m.index);
    await this.nats.close();
    rmSync(this.root, { recursive: true, force: true });
  }
}

/** Runs a test body; a failure carries every member's cluster status and the end of its output. */
export async function withClusterState(cluster: GraphdbCluster, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    const state = await cluster.describe().catch((e: unknown) => `(no state: ${String(e)})`);
    throw new Error(`${(error as Error).message}\n${state}`, { cause: error });
  }
}

/** The Basic authorization header of the test user. */
export function basicAuth(): string {
  return `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;
}
