/**
 * R1 (BENCH.md): replicated commit latency and throughput next to the same writes on a single
 * node, in one run, and follower apply lag under load (docs/replication.md).
 *
 *   node --import tsx bench/src/replication.ts [--latency-ops 300] [--budget-ms 5000] [--clients 8]
 *
 * Peers, both `graphdb serve` from dist/ (built first when older than src/) with auth on, reached
 * over Bolt by neo4j-driver from this process: a single node (no `--cluster`, `bolt://`), and the
 * leader of a 3-member cluster on 3 JetStream `nats-server`s (R3, `neo4j://` so writes go to the
 * leader), all on loopback. The writes are the same deterministic `executeWrite` transactions of
 * one statement, `CREATE (:R {i: $i, s: $s})`:
 * - latency: one client, one write at a time, `--latency-ops` writes;
 * - throughput: `--clients` concurrent clients for `--budget-ms`;
 * - apply lag: the cluster's leader is written at 50 % of the replicated throughput just measured
 *   while, after each acknowledged write, a follower session given that write's bookmark runs
 *   `RETURN 1`: the follower answers only once it applied the write, so the time from the
 *   leader's acknowledgement to that answer is the apply lag plus one follower read round trip
 *   (that round trip, without a bookmark, is reported next to it).
 * The verdict (BENCH.md): replicated p50 latency ≤ 3× single-node; lag p99 ≤ 100 ms.
 *
 * Prints Markdown rows and writes `bench/results/<timestamp>-replication.json`.
 * Not part of `npm run bench` (it starts 6 processes and needs `nats-server`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import neo4j, { type Driver } from 'neo4j-driver';
import { startChildServer } from '../../test/robustness/fixtures/child-server.js';
import { GraphdbCluster, PASSWORD, USER } from '../../test/replication/graphdb-cluster.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const flag = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const LATENCY_OPS = flag('latency-ops', 300);
const BUDGET_MS = flag('budget-ms', 5000);
const CLIENTS = flag('clients', 8);
const PAYLOAD = 'x'.repeat(100);

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function connect(url: string): Driver {
  return neo4j.driver(url, neo4j.auth.basic(USER, PASSWORD), { useBigInt: true, maxConnectionPoolSize: CLIENTS + 2 });
}

let next = 0;
async function write(driver: Driver): Promise<string[]> {
  const session = driver.session({ database: 'graphdb' });
  try {
    const i = neo4j.int(next++);
    await session.executeWrite((tx) => tx.run('CREATE (:R {i: $i, s: $s})', { i, s: PAYLOAD }));
    return session.lastBookmarks();
  } finally {
    await session.close();
  }
}

/** Latency of one client's sequential writes (ms each). */
async function latency(driver: Driver): Promise<number[]> {
  for (let i = 0; i < 20; i++) await write(driver);
  const times: number[] = [];
  for (let i = 0; i < LATENCY_OPS; i++) {
    const started = performance.now();
    await write(driver);
    times.push(performance.now() - started);
  }
  return times;
}

/** Writes per second of CLIENTS concurrent clients over BUDGET_MS. */
async function throughput(driver: Driver): Promise<number> {
  const deadline = performance.now() + BUDGET_MS;
  let done = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < deadline) {
        await write(driver);
        done++;
      }
    }),
  );
  return (done * 1000) / (performance.now() - started);
}

/** Follower apply lag (+ one read round trip) at `rate` writes/s on the leader, and the follower's plain read round trip. */
async function applyLag(leader: Driver, follower: Driver, rate: number): Promise<{ lag: number[]; readRoundTrip: number[] }> {
  const lag: number[] = [];
  const readRoundTrip: number[] = [];
  const interval = 1000 / rate;
  const deadline = performance.now() + BUDGET_MS;
  const pending: Promise<void>[] = [];
  let due = performance.now();
  while (performance.now() < deadline) {
    const bookmarks = await write(leader);
    const acknowledged = performance.now();
    pending.push(
      (async () => {
        const session = follower.session({ database: 'graphdb', bookmarks, defaultAccessMode: neo4j.session.READ });
        try {
          await session.run('RETURN 1');
          lag.push(performance.now() - acknowledged);
        } finally {
          await session.close();
        }
      })(),
    );
    due += interval;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  await Promise.all(pending);
  for (let i = 0; i < 50; i++) {
    const session = follower.session({ database: 'graphdb', defaultAccessMode: neo4j.session.READ });
    const started = performance.now();
    await session.run('RETURN 1');
    readRoundTrip.push(performance.now() - started);
    await session.close();
  }
  return { lag, readRoundTrip };
}

const single = await startChildServer({
  heapMiB: 2048,
  built: true,
  env: { GRAPHDB_AUTH: `${USER}:${PASSWORD}`, GRAPHDB_JWT_SECRET: 'a-bench-secret-of-at-least-32-bytes-long' },
});
let cluster: GraphdbCluster | null = null;
const drivers: Driver[] = [];
try {
  cluster = await GraphdbCluster.start(3);
  await cluster.converged();
  const leaderIndex = await cluster.leader();
  const followerIndex = (leaderIndex + 1) % 3;
  const singleDriver = connect(`bolt://127.0.0.1:${single.boltPort}`);
  // Routed: writes go to whichever member leads (the driver retries a write refused during a change).
  const leaderDriver = connect(`neo4j://${cluster.members[leaderIndex].bolt}`);
  const followerDriver = connect(`bolt://${cluster.members[followerIndex].bolt}`);
  drivers.push(singleDriver, leaderDriver, followerDriver);

  // Interleaved, so both see the same machine load.
  const singleLatency = await latency(singleDriver);
  const replicatedLatency = await latency(leaderDriver);
  const singleThroughput = await throughput(singleDriver);
  const replicatedThroughput = await throughput(leaderDriver);
  const lagRate = replicatedThroughput / 2;
  const { lag, readRoundTrip } = await applyLag(leaderDriver, followerDriver, lagRate);

  const p = (values: number[]) => ({ p50: percentile(values, 50), p99: percentile(values, 99), max: Math.max(...values) });
  const result = {
    date: new Date().toISOString(),
    latencyOps: LATENCY_OPS,
    budgetMs: BUDGET_MS,
    clients: CLIENTS,
    latencyMs: { single: p(singleLatency), replicated: p(replicatedLatency) },
    throughputPerSecond: { single: singleThroughput, replicated: replicatedThroughput },
    applyLag: { rate: lagRate, writes: lag.length, lagMs: p(lag), followerReadRoundTripMs: p(readRoundTrip) },
    machine: { cpus: os.cpus().length, memoryGiB: os.totalmem() / 2 ** 30, node: process.version, loadAverage: os.loadavg() },
  };
  const ms = (v: number) => v.toFixed(1);
  const latencyRatio = result.latencyMs.replicated.p50 / result.latencyMs.single.p50;
  console.log(
    `| R1 | commit latency, 1 client (p50 / p99) | replicated ${ms(result.latencyMs.replicated.p50)} / ${ms(result.latencyMs.replicated.p99)} ms | single node ${ms(result.latencyMs.single.p50)} / ${ms(result.latencyMs.single.p99)} ms | ${latencyRatio.toFixed(2)}× | ${latencyRatio <= 3 ? 'pass' : 'fail'} (≤ 3×) |`,
  );
  console.log(
    `| R1 | throughput, ${CLIENTS} clients | replicated ${replicatedThroughput.toFixed(0)} writes/s | single node ${singleThroughput.toFixed(0)} writes/s | ${(replicatedThroughput / singleThroughput).toFixed(2)}× | — |`,
  );
  console.log(
    `| R1 | follower apply lag at ${lagRate.toFixed(0)} writes/s (50 %), p50 / p99 / max | ${ms(result.applyLag.lagMs.p50)} / ${ms(result.applyLag.lagMs.p99)} / ${ms(result.applyLag.lagMs.max)} ms (incl. one read round trip) | follower read round trip p50 ${ms(result.applyLag.followerReadRoundTripMs.p50)} ms | — | ${result.applyLag.lagMs.p99 <= 100 ? 'pass' : 'fail'} (p99 ≤ 100 ms) |`,
  );
  const out = path.join(here, '..', 'results', `${result.date.replace(/[:.]/g, '-')}-replication.json`);
  fs.writeFileSync(out, JSON.stringify(result, null, 2));
  console.log(`written ${out}`);
} finally {
  for (const d of drivers) await d.close().catch(() => undefined);
  await cluster?.close();
  await single.stop();
}
