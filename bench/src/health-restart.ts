/**
 * Start-up bench (issue 26): time until `/health` answers 200 after a restart of `graphdb serve`
 * over a data directory holding N small nodes (default 1,000,000, loaded once with the bulk
 * loader), next to the same restart over an empty data directory (the process start itself: Node,
 * tsx compiling the sources, module loading), the time until `/status` reports the search indexes
 * ready (built in the background), and the server's V8 heap once ready above the empty server's,
 * stated per million nodes. The verdict (issue 26): `/health` answers within 1 s of spawning the
 * process with N nodes, absolutely, not relative to the empty directory; the first Bolt answer
 * (issue 17's cold start) is reported beside it.
 *
 *   node --import tsx bench/src/health-restart.ts [--nodes 1000000] [--restarts 3] [--built]
 *
 * `--built` runs `bin/run.js serve` from dist/ (run `npm run build` first), as production does.
 * Besides the time from spawning the process, it reports the server's own start-up time (from
 * the start of `startServer` to the HTTP listener accepting: opening the engine over the data,
 * routes, listeners) and the time since the process started, both from the server's log line.
 *
 * Prints a Markdown row and writes `bench/results/<timestamp>-health-restart.json`.
 * Not part of `npm run bench` (single system; no peer runs a comparable start-up).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import neo4j from 'neo4j-driver';
import { GraphDB } from '../../src/engine/index.js';
import { startChildServer } from '../../test/robustness/fixtures/child-server.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const flag = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const NODES = flag('nodes', 1_000_000);
const RESTARTS = flag('restarts', 3);
const BUILT = process.argv.includes('--built');

async function load(dataDir: string): Promise<number> {
  const csv = path.join(dataDir, 'nodes.csv');
  const lines = [':ID,i:int,name,city'];
  for (let i = 0; i < NODES; i++) lines.push(`${i},${i},person ${i},city ${i % 1000}`);
  fs.writeFileSync(csv, lines.join('\n') + '\n');
  const started = performance.now();
  const db = await GraphDB.open({ dataDir, search: false });
  const summary = await db.importFiles({ format: 'csv', inputs: [{ file: csv, kind: 'nodes', labels: ['Person'] }] });
  await db.close();
  fs.rmSync(csv);
  if (!summary.completed) throw new Error(`bulk load failed: ${JSON.stringify(summary.errors.slice(0, 3))}`);
  return performance.now() - started;
}

async function heapUsedBytes(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const match = /^graphdb_nodejs_heap_size_used_bytes (\d+(?:\.\d+)?(?:e\+\d+)?)$/m.exec(text);
  return match ? Number(match[1]) : NaN;
}

/** `RETURN 1` over Bolt on `port`: ms from `started` to the answer. */
async function firstBoltAnswer(port: number, started: number): Promise<number> {
  const driver = neo4j.driver(`bolt://127.0.0.1:${port}`);
  try {
    await driver.executeQuery('RETURN 1');
    return performance.now() - started;
  } finally {
    await driver.close();
  }
}

interface Restart {
  healthMs: number;
  /** Spawn to the first `RETURN 1` answered over Bolt, asked as soon as the Bolt listener is up. */
  boltMs: number;
  serverStartupMs: number;
  sinceProcessStartMs: number;
  searchReadyMs: number;
  heapMiB: number;
}

async function restart(dataDir: string): Promise<Restart> {
  const started = performance.now();
  let firstBolt: Promise<number> = Promise.resolve(NaN);
  const server = await startChildServer({
    heapMiB: 4096,
    args: ['--no-auth'],
    dataDir,
    built: BUILT,
    // Asked as soon as the Bolt listener is up (before the HTTP listener): the cold start to the first Bolt answer.
    onBoltListening: (port) => {
      firstBolt = firstBoltAnswer(port, started);
      firstBolt.catch(() => undefined);
    },
  });
  const figures = /"startupMs":(\d+),"sinceProcessStartMs":(\d+)/.exec(server.output());
  let healthMs: number;
  for (;;) {
    const response = await fetch(`${server.url}/health`).catch(() => null);
    if (response?.status === 200) {
      healthMs = performance.now() - started;
      break;
    }
  }
  const boltMs = await firstBolt;
  for (;;) {
    const status = (await (await fetch(`${server.url}/status`)).json()) as { search?: { ready: boolean; build_phase: string } };
    // Past dbms.memory.search_index.max_size the index is released for good: nothing more to wait for.
    if (status.search?.ready !== false || status.search.build_phase === 'over_budget') break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const searchReadyMs = performance.now() - started;
  const heapMiB = (await heapUsedBytes(server.url)) / 1024 / 1024;
  await server.stop(true);
  return {
    healthMs,
    boltMs,
    serverStartupMs: Number(figures?.[1] ?? NaN),
    sinceProcessStartMs: Number(figures?.[2] ?? NaN),
    searchReadyMs,
    heapMiB,
  };
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-health-bench-'));
const emptyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-health-bench-empty-'));
try {
  const loadMs = await load(dataDir);
  const runs = [];
  const empty = [];
  for (let i = 0; i < RESTARTS; i++) {
    empty.push(await restart(emptyDir));
    runs.push(await restart(dataDir));
  }
  const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
  const health = median(runs.map((r) => r.healthMs));
  const emptyHealth = median(empty.map((r) => r.healthMs));
  const ready = median(runs.map((r) => r.searchReadyMs));
  const heap = median(runs.map((r) => r.heapMiB));
  const emptyHeap = median(empty.map((r) => r.heapMiB));
  const perMillion = ((heap - emptyHeap) * 1_000_000) / NODES;
  const extra = health - emptyHealth;
  const bolt = median(runs.map((r) => r.boltMs));
  const serverStartup = median(runs.map((r) => r.serverStartupMs));
  const emptyServerStartup = median(empty.map((r) => r.serverStartupMs));
  const sinceProcessStart = median(runs.map((r) => r.sinceProcessStartMs));
  console.log(
    `| H-RESTART-SERVER | server's own start-up (engine open to listening), ${NODES.toLocaleString('en')} nodes | ${serverStartup} ms vs ${emptyServerStartup} ms empty | listening ${sinceProcessStart} ms after the process started (${BUILT ? 'dist/' : 'sources through tsx'}) | ${serverStartup < 1000 ? 'pass' : 'fail'} (< 1 s) |`,
  );
  const row = `| H-RESTART | /health after restart, ${NODES.toLocaleString('en')} nodes | ${(health / 1000).toFixed(2)} s (empty ${(emptyHealth / 1000).toFixed(2)} s; process start included; median of ${RESTARTS}) | +${(extra / 1000).toFixed(2)} s for the data | first Bolt answer ${(bolt / 1000).toFixed(2)} s | search ready ${(ready / 1000).toFixed(1)} s | heap ${heap.toFixed(0)} MiB (empty ${emptyHeap.toFixed(0)}): ${perMillion.toFixed(0)} MiB per million nodes | ${health < 1000 ? 'pass' : 'fail'} (< 1 s) |`;
  console.log(row);
  const result = {
    nodes: NODES,
    loadMs,
    runs,
    empty,
    built: BUILT,
    medianServerStartupMs: serverStartup,
    medianEmptyServerStartupMs: emptyServerStartup,
    medianSinceProcessStartMs: sinceProcessStart,
    medianHealthMs: health,
    medianBoltMs: bolt,
    medianEmptyHealthMs: emptyHealth,
    medianSearchReadyMs: ready,
    medianHeapMiB: heap,
    medianEmptyHeapMiB: emptyHeap,
    heapMiBPerMillionNodes: perMillion,
    machine: { cpus: os.cpus().length, memoryGiB: os.totalmem() / 2 ** 30, node: process.version, loadAverage: os.loadavg() },
  };
  const out = path.join(here, '..', 'results', `${new Date().toISOString().replace(/[:.]/g, '-')}-health-restart.json`);
  fs.writeFileSync(out, JSON.stringify(result, null, 2));
  console.log(`written ${out}`);
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(emptyDir, { recursive: true, force: true });
}
