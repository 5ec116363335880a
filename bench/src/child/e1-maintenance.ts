/**
 * Child process of E1: starts the whole server (`startServer`, the `graphdb serve` path) over a
 * fresh data directory, keeps a 1 ms timer and a Bolt client running `RETURN 1` in a loop, and
 * runs each maintenance operation in turn as an administrator would. For every phase it records
 * how late the timer fired and how long `RETURN 1` took, and prints one JSON line.
 * Arguments: <dir> <rows> <src|dist>. `rows` scales every operation (1M in the default profile).
 *
 * Phases: idle; `/metrics` scrape with `rows` history rows; MVCC prune of them; online backup;
 * CREATE INDEX over `rows` nodes; LOAD CSV of `rows` rows (IN TRANSACTIONS); bulk import of
 * `rows` nodes and `rows` relationships into a second database (`GraphDB.importFiles`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { boltDriver } from '../graphdb/bolt.js';
import { engineModule, type EngineSource } from '../graphdb/probe.js';
import { serverStarter } from '../graphdb/server.js';

const [dir, rowsArg, source] = process.argv.slice(2);
const rows = Number(rowsArg);
const TIMER_MS = 1;

/** Percentile of an ascending array. */
function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Writes a header and `rows` lines to a file. */
function writeLines(file: string, header: string, line: (i: number) => string): void {
  const lines = [header];
  for (let i = 0; i < rows; i++) lines.push(line(i));
  writeFileSync(file, `${lines.join('\n')}\n`);
}

/** What one phase measured (milliseconds). */
export interface Phase {
  readonly name: string;
  readonly durationMs: number;
  readonly timer: { readonly samples: number; readonly p99: number; readonly max: number };
  readonly timerCpu: { readonly p99: number; readonly max: number };
  readonly return1: { readonly count: number; readonly p50: number; readonly p99: number; readonly max: number };
  readonly detail: string;
}

/**
 * Lateness of a 1 ms interval timer: each tick's gap beyond 1 ms, in wall time and in this
 * process's CPU time (on a shared, overloaded machine the wall gap also holds the time the process
 * waited for a core; the CPU gap is the work that ran between two ticks, i.e. what held the loop).
 */
class TimerProbe {
  private lateness: number[] = [];
  private cpu: number[] = [];
  private last = performance.now();
  private lastCpu = process.cpuUsage();
  private readonly handle = setInterval(() => {
    const now = performance.now();
    const cpu = process.cpuUsage();
    this.lateness.push(Math.max(0, now - this.last - TIMER_MS));
    this.cpu.push((cpu.user + cpu.system - this.lastCpu.user - this.lastCpu.system) / 1000);
    this.last = now;
    this.lastCpu = cpu;
  }, TIMER_MS);

  take(): { wall: number[]; cpu: number[] } {
    const taken = { wall: this.lateness, cpu: this.cpu };
    this.lateness = [];
    this.cpu = [];
    return taken;
  }

  stop(): void {
    clearInterval(this.handle);
  }
}

async function main(): Promise<void> {
  const configModule = engineModule((source ?? 'src') as EngineSource, 'engine/config/index');
  const serverModule = engineModule((source ?? 'src') as EngineSource, 'server/index');
  if (configModule === null || serverModule === null) {
    console.log(JSON.stringify({ pending: 'the server entry points do not exist' }));
    return;
  }
  const start = serverStarter(
    (await import(configModule)) as Record<string, unknown>,
    (await import(serverModule)) as Record<string, unknown>,
    {
      'database.mvcc_retention_max_versions': 0,
    },
  );
  if (typeof start === 'string') {
    console.log(JSON.stringify({ pending: start }));
    return;
  }
  mkdirSync(dir, { recursive: true });
  const server = await start(dir);
  const base = `http://127.0.0.1:${server.httpPort}`;
  const driver = boltDriver(server.boltPort!, 2);
  const admin = driver.session({ database: server.database });
  const graphdb = server.graphdb as {
    importFiles(o: Record<string, unknown>): Promise<{ completed: boolean; nodes: number; relationships: number }>;
  };
  const run = async (q: string, p: Record<string, unknown> = {}) => (await admin.run(q, p)).records;
  const http = async (method: string, path: string, body?: unknown): Promise<string> => {
    const response = await fetch(`${base}${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 200)}`);
    return text;
  };

  // Setup (not measured): `rows` nodes, one update each (one history row each), prune paused.
  await http('POST', `/admin/databases/${server.database}/mvcc/pause`);
  const batch = 50_000;
  for (let from = 0; from < rows; from += batch) {
    await run('UNWIND range($from, $to) AS i CREATE (:H {i: i, v: i % 1000})', {
      from: BigInt(from),
      to: BigInt(Math.min(rows, from + batch) - 1),
    });
  }
  for (let from = 0; from < rows; from += batch) {
    await run('MATCH (n:H) WHERE n.i >= $from AND n.i < $to SET n.v = n.v + 1', { from: BigInt(from), to: BigInt(from + batch) });
  }
  const importDir = join(dir, 'data', 'import');
  mkdirSync(importDir, { recursive: true });
  writeLines(join(importDir, 'e1.csv'), 'id,name', (i) => `${i},n${i}`);
  writeLines(join(dir, 'nodes.csv'), ':ID,id:int,name', (i) => `${i},${i},p${i}`);
  writeLines(join(dir, 'rels.csv'), ':START_ID,:END_ID', (i) => `${i},${(i * 7919) % rows}`);
  const system = driver.session({ database: 'system' });
  await system.run('CREATE DATABASE bulk IF NOT EXISTS WAIT');
  await system.run('CREATE DATABASE warm IF NOT EXISTS WAIT');
  await system.close();
  // Warm-up (not measured): each operation once on a few rows, so module loading and first
  // compilation are not charged to the measured phase.
  writeFileSync(join(importDir, 'warm.csv'), 'id,name\n1,w\n');
  writeFileSync(join(dir, 'warm-nodes.csv'), ':ID,id:int,name\n1,1,w\n');
  await run(
    "LOAD CSV WITH HEADERS FROM 'file:///warm.csv' AS r CALL { WITH r CREATE (:W {id: toInteger(r.id)}) } IN TRANSACTIONS OF 10 ROWS",
  );
  await run('CREATE INDEX e1_w_id FOR (n:W) ON (n.id)');
  await graphdb.importFiles({
    database: 'warm',
    format: 'csv',
    inputs: [{ file: join(dir, 'warm-nodes.csv'), kind: 'nodes', labels: ['P'] }],
  });
  await http('GET', '/metrics');

  // The client: `RETURN 1` back to back on its own session, latencies per phase.
  const client = driver.session({ database: server.database });
  let latencies: number[] = [];
  let clientRunning = true;
  const clientLoop = (async () => {
    while (clientRunning) {
      const began = performance.now();
      await client.run('RETURN 1 AS x');
      latencies.push(performance.now() - began);
    }
  })();
  const timer = new TimerProbe();
  const phases: Phase[] = [];
  const phase = async (name: string, op: () => Promise<string>): Promise<void> => {
    timer.take();
    latencies = [];
    const began = performance.now();
    const detail = await op();
    const durationMs = performance.now() - began;
    const ticks = timer.take();
    const late = ticks.wall.sort((a, b) => a - b);
    const cpu = ticks.cpu.sort((a, b) => a - b);
    const answered = latencies.sort((a, b) => a - b);
    phases.push({
      name,
      durationMs,
      timer: { samples: late.length, p99: percentile(late, 99), max: late[late.length - 1] ?? NaN },
      timerCpu: { p99: percentile(cpu, 99), max: cpu[cpu.length - 1] ?? NaN },
      return1: {
        count: answered.length,
        p50: percentile(answered, 50),
        p99: percentile(answered, 99),
        max: answered[answered.length - 1] ?? NaN,
      },
      detail,
    });
  };

  await phase('idle', () => new Promise((resolve) => setTimeout(() => resolve('1 s with nothing else running'), 1_000)));
  await phase(`metrics scrape at ${rows} history rows`, async () => `${(await http('GET', '/metrics')).length} bytes`);
  await phase('MVCC prune', async () => (await http('POST', `/admin/databases/${server.database}/mvcc/prune`)).slice(0, 200));
  await phase('online backup', async () => {
    const out = await http('POST', '/admin/backup', { output: join(dir, 'backup') });
    return `${out.length} bytes of manifest`;
  });
  await phase(`CREATE INDEX over ${rows} nodes`, async () => {
    await run('CREATE INDEX e1_h_v FOR (n:H) ON (n.v)');
    await run('CALL db.awaitIndexes(600)');
    return 'index e1_h_v';
  });
  await phase(`LOAD CSV of ${rows} rows`, async () => {
    await run(
      "LOAD CSV WITH HEADERS FROM 'file:///e1.csv' AS r CALL { WITH r CREATE (:C {id: toInteger(r.id), name: r.name}) } IN TRANSACTIONS OF 10000 ROWS",
    );
    const [count] = await run('MATCH (c:C) RETURN count(c) AS c');
    return `${String(count?.get('c'))} nodes`;
  });
  await phase(`bulk import of ${rows} nodes and ${rows} relationships`, async () => {
    const summary = await graphdb.importFiles({
      database: 'bulk',
      format: 'csv',
      inputs: [
        { file: join(dir, 'nodes.csv'), kind: 'nodes', labels: ['P'] },
        { file: join(dir, 'rels.csv'), kind: 'relationships', type: 'R' },
      ],
    });
    if (!summary.completed) throw new Error('bulk import did not complete');
    return `${summary.nodes} nodes, ${summary.relationships} relationships`;
  });

  clientRunning = false;
  await clientLoop;
  timer.stop();
  await client.close();
  await admin.close();
  await driver.close();
  await server.stop();
  console.log(JSON.stringify({ rows, phases }));
}

main().catch((e: unknown) => {
  console.log(JSON.stringify({ error: (e as Error).stack ?? String(e) }));
  process.exitCode = 1;
});
