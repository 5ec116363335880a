/**
 * RS: reads over Bolt with the read workers (`server.read_workers`, docs/robustness.md) against
 * the same server with none, in the same run, on the same data directory:
 * - RS1l@n / RS1s@n: read throughput at 1, 4 and 16 connections, small reads (an indexed lookup)
 *   and larger ones (a filtered count over every Person);
 * - RS2: the storage-stall case: another process (a second SQLite connection, as `sqlite3` or a
 *   backup tool would) holds the database's write lock for a while; one session's write waits for
 *   it while other sessions keep reading. Reported: the reads answered during the stall, their p99
 *   and the longest one;
 * - RS3: point reads of 4 connections while another connection runs the larger reads without pause.
 * The data: the run's Persons (`id`, `name`, `age`, `email`), with an index on `email`.
 */
import { cpus } from 'node:os';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Session } from 'neo4j-driver';
import type { BenchContext } from '../context.js';
import { sampleIds } from '../gen/social.js';
import { boltDriver } from '../graphdb/bolt.js';
import { QUERY_TIMEOUT_MS, type StartBolt } from '../graphdb/embedded.js';
import { engineModule } from '../graphdb/probe.js';
import { measureConcurrent, summarize, type Timing } from '../measure.js';
import { WorkloadRecorder, type WorkloadResult } from '../report-model.js';

const LOOKUP = 'MATCH (p:Person {email: $e}) RETURN p.id AS id';
const SCAN = 'MATCH (p:Person) WHERE p.age >= $a RETURN count(p) AS c';
const WRITE = 'CREATE (:Stalled {at: $at}) RETURN 1 AS ok';
/** How long the other process holds the write lock in RS2. */
const STALL_MS = Number(process.env['GRAPHDB_BENCH_STALL_MS'] ?? 5_000);

interface Opened {
  readonly port: number;
  stop(): Promise<void>;
}

type Open = (dir: string, readWorkers: number) => Promise<Opened>;

/** Workers of the "with workers" server: one per core beyond the first, at least one. */
function workerCount(): number {
  return Math.max(1, cpus().length - 1);
}

async function opener(ctx: BenchContext): Promise<Open | string> {
  const engineUrl = engineModule(ctx.engine, 'engine/index');
  const boltUrl = engineModule(ctx.engine, 'server/bolt/index');
  if (engineUrl === null || boltUrl === null) return 'engine or Bolt server missing';
  const engine = (await import(engineUrl)) as { GraphDB: { open(options: Record<string, unknown>): Promise<unknown> } };
  const bolt = (await import(boltUrl)) as { startBoltServer: StartBolt };
  return async (dir, readWorkers) => {
    const db = (await engine.GraphDB.open({ dataDir: dir, transactionTimeoutMs: QUERY_TIMEOUT_MS, search: false, readWorkers })) as {
      close(): Promise<void>;
    };
    const server = await bolt.startBoltServer({ port: 0, host: '127.0.0.1', engine: db as never, websocket: false });
    return {
      port: server.port,
      stop: async () => {
        await server.close();
        await db.close();
      },
    };
  };
}

/** Loads the run's Persons into `dir` (through a server without workers). */
async function load(ctx: BenchContext, open: Open, dir: string): Promise<void> {
  const served = await open(dir, 0);
  const driver = boltDriver(served.port, 1);
  try {
    await driver.executeQuery('CREATE INDEX person_email IF NOT EXISTS FOR (p:Person) ON (p.email)');
    const batch = 2_000;
    for (let from = 0; from < ctx.graph.persons; from += batch) {
      const rows = [];
      for (let id = from; id < Math.min(ctx.graph.persons, from + batch); id++) {
        const p = ctx.graph.person(id);
        rows.push({ id: BigInt(id), name: p.name, age: BigInt(p.age), email: p.email });
      }
      await driver.executeQuery('UNWIND $rows AS r CREATE (:Person {id: r.id, name: r.name, age: r.age, email: r.email})', { rows });
    }
  } finally {
    await driver.close();
    await served.stop();
  }
}

/** Sessions of one driver, closed together. */
async function withSessions<T>(port: number, n: number, body: (sessions: Session[]) => Promise<T>): Promise<T> {
  const driver = boltDriver(port, n);
  const sessions = Array.from({ length: n }, () => driver.session());
  try {
    return await body(sessions);
  } finally {
    for (const s of sessions) await s.close();
    await driver.close();
  }
}

/** Latencies of reads from `n` sessions until `stop` resolves. */
async function readUntil(sessions: Session[], emails: readonly string[], stop: Promise<unknown>): Promise<Timing & { maxMs: number }> {
  let stopped = false;
  void stop.finally(() => (stopped = true));
  const latencies: number[] = [];
  const start = performance.now();
  await Promise.all(
    sessions.map(async (s, c) => {
      for (let i = 0; !stopped; i++) {
        const t0 = performance.now();
        await s.run(LOOKUP, { e: emails[(i * 7 + c * 13) % emails.length] });
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { ...summarize(latencies, (performance.now() - start) / 1000), maxMs: Math.max(0, ...latencies) };
}

/** RS2 on one server: reads during a write lock held by another connection for STALL_MS. */
async function stall(
  port: number,
  file: string,
  emails: readonly string[],
): Promise<{ reads: Timing & { maxMs: number }; writeMs: number }> {
  return withSessions(port, 5, async ([writer, ...readers]) => {
    for (const s of readers) await s.run(LOOKUP, { e: emails[0] });
    const holder = new Database(file);
    holder.exec('BEGIN IMMEDIATE');
    const released = new Promise<void>((resolve) =>
      setTimeout(() => {
        holder.exec('COMMIT');
        holder.close();
        resolve();
      }, STALL_MS),
    );
    const writeStart = performance.now();
    const write = writer.run(WRITE, { at: BigInt(Date.now()) }).then(() => performance.now() - writeStart);
    const reads = await readUntil(readers, emails, released);
    return { reads, writeMs: await write };
  });
}

/** RS3 on one server: point reads of 4 sessions while a fifth runs SCAN back to back. */
async function underLoad(port: number, emails: readonly string[], budgetMs: number): Promise<Timing & { maxMs: number; scans: number }> {
  return withSessions(port, 5, async ([heavy, ...readers]) => {
    let scans = 0;
    let stop = false;
    await heavy.run(SCAN, { a: 0n });
    const scanning = (async () => {
      while (!stop) {
        await heavy.run(SCAN, { a: 0n });
        scans++;
      }
    })();
    const done = new Promise((resolve) => setTimeout(resolve, budgetMs));
    const reads = await readUntil(readers, emails, done);
    stop = true;
    await scanning;
    return { ...reads, scans };
  });
}

/** Runs RS1, RS2 and RS3 with no read workers and with `workerCount()` of them. */
export async function runReadScaling(ctx: BenchContext): Promise<WorkloadResult[]> {
  ctx.log('RS reads with and without read workers over Bolt');
  const n = workerCount();
  const ours = `graphdb Bolt, ${n} read worker(s)`;
  const base = 'graphdb Bolt, no read workers';
  const recs = new Map<string, WorkloadRecorder>();
  for (const shape of ['l', 's'] as const) {
    for (const c of ctx.profile.connections) {
      const what = shape === 'l' ? 'indexed lookup' : `filtered count over ${ctx.graph.persons} Persons`;
      const factor = shape === 'l' && c === 1 ? 0.9 : 1;
      recs.set(
        `RS1${shape}@${c}`,
        new WorkloadRecorder(`RS1${shape}@${c}`, `${what}, ${c} connection(s)`, 'queries/s', `≥ ${factor}× ${base}`, [
          { against: base, factor },
        ]),
      );
    }
  }
  recs.set(
    'RS2',
    new WorkloadRecorder(
      'RS2',
      `indexed lookups of 4 sessions while another process holds the write lock ${STALL_MS} ms and a write waits`,
      'queries/s',
      'reads answered throughout (p99 ≤ 100 ms)',
      [],
    ),
  );
  recs.set(
    'RS3',
    new WorkloadRecorder(
      'RS3',
      'indexed lookups of 4 sessions while a 5th runs the filtered count back to back',
      'queries/s',
      `≥ 1× ${base}`,
      [{ against: base, factor: 1 }],
    ),
  );
  const open = await opener(ctx);
  if (typeof open === 'string') {
    for (const r of recs.values()) r.pending(ours, open);
    return [...recs.values()].map((r) => r.finish());
  }
  const dir = join(ctx.tmp, 'read-scaling');
  mkdirSync(dir, { recursive: true });
  await load(ctx, open, dir);
  const ids = sampleIds(ctx.profile.seed + 11, ctx.graph.persons, 2000);
  const emails = ids.map((id) => ctx.graph.person(id).email);
  for (const [name, workers] of [
    [base, 0],
    [ours, n],
  ] as const) {
    const role = workers === 0 ? 'peer' : 'ours';
    const served = await open(dir, workers);
    try {
      for (const [key, rec] of recs) {
        try {
          if (key.startsWith('RS1')) {
            const c = Number(key.split('@')[1]);
            const small = key.startsWith('RS1l');
            const timing = await withSessions(served.port, c, async (sessions) => {
              const first = await sessions[0].run(LOOKUP, { e: emails[0] });
              rec.answer(name, Number(first.records[0]?.get('id')));
              const op = (s: number, i: number) =>
                small
                  ? sessions[s].run(LOOKUP, { e: emails[(i * 7 + s * 13) % emails.length] })
                  : sessions[s].run(SCAN, { a: BigInt(18 + ((i + s) % 50)) });
              return measureConcurrent(op, c, { budgetMs: ctx.profile.budgetMs });
            });
            rec.ok(name, role, timing, 'neo4j-driver auto-commit session.run');
            ctx.log(`  ${key} ${name}: ${timing.opsPerSec.toFixed(0)} q/s (p99 ${timing.p99Ms.toFixed(2)} ms)`);
          } else if (key === 'RS2') {
            const { reads, writeMs } = await stall(served.port, join(dir, 'graphdb.db'), emails);
            rec.ok(name, role, reads, `longest read ${reads.maxMs.toFixed(1)} ms; the write waited ${writeMs.toFixed(0)} ms`);
            rec.check(`${name}: reads p99 ≤ 100 ms during the stall`, reads.p99Ms <= 100, `p99 ${reads.p99Ms.toFixed(1)} ms`);
            ctx.log(
              `  RS2 ${name}: ${reads.ops} reads during ${STALL_MS} ms, p99 ${reads.p99Ms.toFixed(1)} ms, max ${reads.maxMs.toFixed(1)} ms; write ${writeMs.toFixed(0)} ms`,
            );
          } else {
            const reads = await underLoad(served.port, emails, ctx.profile.budgetMs * 2);
            rec.ok(name, role, reads, `longest read ${reads.maxMs.toFixed(1)} ms; ${reads.scans} counts meanwhile`);
            ctx.log(
              `  RS3 ${name}: ${reads.opsPerSec.toFixed(0)} q/s, p99 ${reads.p99Ms.toFixed(1)} ms, max ${reads.maxMs.toFixed(1)} ms; ${reads.scans} counts`,
            );
          }
        } catch (e) {
          rec.failed(name, role, e);
        }
      }
    } finally {
      await served.stop();
    }
  }
  for (const rec of recs.values()) rec.answer('generator', ids[0]);
  return [...recs.values()].map((r) => r.finish());
}
