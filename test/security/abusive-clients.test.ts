/**
 * Abusive clients (issue #24) against a real `graphdb serve` process: 20 clients that each ask for
 * a result of about 100 MB over the HTTP transaction API and never read it, plus slow-header
 * clients trickling request headers, while a well-behaved client runs `RETURN 1` in a loop. The
 * server's RSS (read from /proc) and the well-behaved client's latency percentiles are measured.
 *
 * Bounds (see docs/security.md): RSS under 400 MiB, p99 of `RETURN 1` under 50 ms (or, on a
 * machine whose quiet p99 is already above that, three times the quiet p99 of the same run),
 * measured once the abusers' responses have filled their socket buffers and stalled. The CI run measures for 4 s; `GRAPHDB_ABUSE_SECONDS=60 GRAPHDB_ABUSE_CLIENTS=100` runs a larger variant.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { connect, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';

const SECONDS = Number(process.env.GRAPHDB_ABUSE_SECONDS ?? 4);
const CLIENTS = Number(process.env.GRAPHDB_ABUSE_CLIENTS ?? 20);
const SLOW_HEADER_CLIENTS = CLIENTS;
const RSS_BOUND_MIB = 400;
const P99_BOUND_MS = 50;

const here = path.dirname(fileURLToPath(import.meta.url));
const entry = path.join(here, '..', 'serve', 'fixtures', 'run-serve.ts');
const tsxLoader = import.meta.resolve('tsx');
const cleanups: (() => void)[] = [];
after(() => cleanups.forEach((cleanup) => cleanup()));

/** ~100 MB: 1M rows of an integer pair and a 90-character string, without a 1M-element list. */
const HUGE =
  "UNWIND range(1, 1000) AS a UNWIND range(1, 1000) AS b RETURN a, b, 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' AS pad";

async function startServe(): Promise<{ child: ChildProcess; url: string }> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-abuse-'));
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GRAPHDB_')) env[key] = value;
  const child = spawn(
    process.execPath,
    [
      '--import',
      tsxLoader,
      entry,
      '--data-dir',
      path.join(home, 'data'),
      '--http-port',
      '0',
      '--no-bolt',
      '--no-auth',
      '--log-level',
      'info',
    ],
    { cwd: home, env: { ...env, HOME: home, GRAPHDB_WRITE_TIMEOUT: '10m' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  cleanups.push(() => {
    child.kill('SIGKILL');
    fs.rmSync(home, { recursive: true, force: true });
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /"url":"(http:\/\/127\.0\.0\.1:\d+)"[^\n]*HTTP listener started/.exec(output);
      if (match) resolve(match[1]);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', () => reject(new Error(`serve exited:\n${output}`)));
  });
  return { child, url };
}

function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

async function rawConnect(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return socket;
}

/** The scheduler state of the process (R: running or waiting for a core, S: sleeping). */
function processState(pid: number): string {
  return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].charAt(0);
}

/**
 * Waits until the abusers' responses have filled the socket buffers and stalled: the server is
 * asleep in at least 18 of 20 samples taken 50 ms apart. (Filling the kernel buffers of each
 * connection, several MB of JSON on loopback, is a one-off cost; a runnable process starved by
 * a loaded machine still counts as busy, so the check holds under load.)
 */
async function stalled(pid: number): Promise<void> {
  for (;;) {
    let running = 0;
    for (let i = 0; i < 20; i++) {
      if (processState(pid) === 'R') running++;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (running <= 2) return;
  }
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

test(`${CLIENTS} non-reading clients of ~100 MB results and ${SLOW_HEADER_CLIENTS} slow-header clients: RETURN 1 p99 < ${P99_BOUND_MS} ms, RSS < ${RSS_BOUND_MIB} MiB`, async (t) => {
  const { child, url } = await startServe();
  const port = Number(new URL(url).port);
  const request = JSON.stringify({ statements: [{ statement: 'RETURN 1 AS one' }] });
  const returnOne = async (): Promise<number> => {
    const started = performance.now();
    const response = await fetch(`${url}/db/graphdb/tx/commit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: request,
    });
    const json = (await response.json()) as { results: { data: { row: unknown[] }[] }[] };
    assert.deepEqual(json.results[0].data[0].row, [1]);
    return performance.now() - started;
  };
  // Warm-up: the routes' modules load on first use; that is not what is measured.
  for (let i = 0; i < 20; i++) await returnOne();
  const quiet: number[] = [];
  for (let i = 0; i < 50; i++) quiet.push(await returnOne());
  quiet.sort((a, b) => a - b);
  const baseline = rssMiB(child.pid!);
  const body = JSON.stringify({ statements: [{ statement: HUGE }] });
  const abusers: Socket[] = [];
  for (let i = 0; i < CLIENTS; i++) {
    const socket = await rawConnect(port);
    socket.write(
      `POST /db/graphdb/tx/commit HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    socket.once('data', () => socket.pause());
    abusers.push(socket);
  }
  const trickles: NodeJS.Timeout[] = [];
  for (let i = 0; i < SLOW_HEADER_CLIENTS; i++) {
    const socket = await rawConnect(port);
    socket.write('GET /health HTTP/1.1\r\nHost: x\r\n');
    trickles.push(setInterval(() => socket.writable && socket.write(`X-Slow-${i}: y\r\n`), 200));
    abusers.push(socket);
  }
  await stalled(child.pid!);
  const latencies: number[] = [];
  let peakRss = 0;
  const until = Date.now() + SECONDS * 1000;
  while (Date.now() < until) {
    latencies.push(await returnOne());
    peakRss = Math.max(peakRss, rssMiB(child.pid!));
  }
  trickles.forEach(clearInterval);
  abusers.forEach((socket) => socket.destroy());
  const sorted = [...latencies].sort((a, b) => a - b);
  const p50 = percentile(sorted, 50);
  const p99 = percentile(sorted, 99);
  t.diagnostic(
    `RETURN 1 without abusers: p50 ${percentile(quiet, 50).toFixed(1)} ms, p99 ${percentile(quiet, 99).toFixed(1)} ms; with them over ${latencies.length} requests: p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms; server RSS ${baseline.toFixed(0)} MiB at start, peak ${peakRss.toFixed(0)} MiB; load average ${os.loadavg()[0].toFixed(1)}`,
  );
  assert.ok(peakRss < RSS_BOUND_MIB, `peak RSS ${peakRss.toFixed(0)} MiB`);
  // On a loaded machine the quiet baseline's own p99 can exceed 50 ms: the bound is then three
  // times that baseline, measured in the same run (the abusers must not add more than noise).
  const bound = Math.max(P99_BOUND_MS, 3 * percentile(quiet, 99));
  assert.ok(p99 < bound, `p99 ${p99.toFixed(1)} ms, bound ${bound.toFixed(1)} ms`);
});
