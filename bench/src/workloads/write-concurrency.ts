/**
 * W1: write throughput of explicit transactions over Bolt at 1, 4 and 16 connections, on disjoint
 * data (each connection its own node) and on one hot key, against graphdb's previous write path
 * (one database-wide lock from the first write to commit) in the same run. Each transaction is
 * neo4j-driver `executeWrite` with two statements (two client round trips before COMMIT):
 * `MERGE (w:W {k}) SET w.v = coalesce(w.v, 0) + 1`, then `MATCH (w:W {k}) RETURN w.v`.
 * The baseline is a checkout of the earlier commit given with `--baseline <dir>` (e.g.
 * `git worktree add /tmp/graphdb-baseline <commit>`, node_modules linked); without it the
 * baseline is reported unavailable. After each cell, the sum of `w.v` must equal the number of
 * committed transactions (no lost update).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Session } from 'neo4j-driver';
import type { BenchContext } from '../context.js';
import { boltDriver } from '../graphdb/bolt.js';
import { openGraphDB, serveBolt, type StartBolt } from '../graphdb/embedded.js';
import { measureConcurrent } from '../measure.js';
import { WorkloadRecorder, type WorkloadResult } from '../report-model.js';

const OURS = 'graphdb Bolt (write sets)';
const BASELINE = 'graphdb Bolt (lock at first write)';

type Served = { port: number; stop(): Promise<void> };

/** Starts the baseline checkout's engine over Bolt in `dir`, or explains why it cannot. */
async function baselineBolt(baselineDir: string | null): Promise<((dir: string) => Promise<Served>) | string> {
  if (baselineDir === null) return 'no --baseline checkout given';
  const engineFile = join(baselineDir, 'src/engine/index.ts');
  const boltFile = join(baselineDir, 'src/server/bolt/index.ts');
  if (!existsSync(engineFile) || !existsSync(boltFile)) return `${baselineDir} has no src/engine/index.ts or src/server/bolt/index.ts`;
  const engine = (await import(pathToFileURL(engineFile).href)) as Record<string, unknown>;
  const bolt = (await import(pathToFileURL(boltFile).href)) as Record<string, unknown>;
  const startBolt = bolt['startBoltServer'] as StartBolt;
  return async (dir: string) => {
    const db = await openGraphDB(engine, dir);
    const served = await serveBolt(startBolt, db);
    return {
      port: served.port,
      stop: async () => {
        await served.stop();
        await db.close();
      },
    };
  };
}

const UPDATE = 'MERGE (w:W {k: $k}) SET w.v = coalesce(w.v, 0) + 1';
const READ_BACK = 'MATCH (w:W {k: $k}) RETURN w.v AS v';

/** Runs one cell (shape, connections) on one server; returns the timing and whether no update was lost. */
async function cell(port: number, shape: 'disjoint' | 'hot', n: number, budgetMs: number, tag: string) {
  const driver = boltDriver(port, n);
  const sessions: Session[] = Array.from({ length: n }, () => driver.session());
  let committed = 0;
  try {
    const key = (c: number): string => (shape === 'hot' ? `${tag}-hot` : `${tag}-c${c}`);
    const op = async (c: number): Promise<void> => {
      const k = key(c);
      await sessions[c].executeWrite(async (tx) => {
        await tx.run(UPDATE, { k });
        await tx.run(READ_BACK, { k });
      });
      committed++;
    };
    const timing = await measureConcurrent(op, n, { budgetMs, warmupOps: 2 });
    const sum = await driver.executeQuery('MATCH (w:W) WHERE w.k STARTS WITH $tag RETURN sum(w.v) AS s', { tag: `${tag}-` });
    const total = Number(sum.records[0]?.get('s') ?? 0);
    return { timing, lost: committed - total };
  } finally {
    for (const s of sessions) await s.close();
    await driver.close();
  }
}

/** Runs W1 for every connection level and both shapes, ours and the baseline interleaved per cell. */
export async function runWriteConcurrency(ctx: BenchContext, baselineDir: string | null): Promise<WorkloadResult[]> {
  ctx.log('W1 concurrent write transactions over Bolt');
  const shapes = ['disjoint', 'hot'] as const;
  const recs = new Map<string, WorkloadRecorder>();
  for (const shape of shapes) {
    for (const n of ctx.profile.connections) {
      const id = `W1${shape === 'hot' ? 'h' : 'd'}@${n}`;
      const title = `executeWrite, 2 statements + COMMIT, ${shape === 'hot' ? 'one hot key' : 'disjoint keys'}, ${n} connection(s)`;
      const target = shape === 'disjoint' && n > 1 ? `≥ 1× ${BASELINE}; no lost update` : 'no lost update';
      recs.set(
        `${shape}@${n}`,
        new WorkloadRecorder(id, title, 'transactions/s', target, shape === 'disjoint' && n > 1 ? [{ against: BASELINE, factor: 1 }] : []),
      );
    }
  }
  const servers: { name: string; role: 'ours' | 'peer'; served: Served | string }[] = [];
  const oursStart = ctx.graphdb.bolt;
  const baseStart = await baselineBolt(baselineDir);
  const start = async (starter: ((dir: string) => Promise<Served>) | string, name: string): Promise<Served | string> => {
    if (typeof starter === 'string') return starter;
    const dir = join(ctx.tmp, `w1-${name.replace(/\W+/g, '-')}`);
    mkdirSync(dir, { recursive: true });
    return starter(dir);
  };
  servers.push({ name: BASELINE, role: 'peer', served: await start(baseStart, BASELINE) });
  servers.push({ name: OURS, role: 'ours', served: await start(oursStart, OURS) });
  try {
    for (const shape of shapes) {
      for (const n of ctx.profile.connections) {
        const rec = recs.get(`${shape}@${n}`)!;
        for (const { name, role, served } of servers) {
          if (typeof served === 'string') {
            if (role === 'ours') rec.pending(name, served);
            else rec.unavailable(name, role, served);
            continue;
          }
          try {
            const { timing, lost } = await cell(served.port, shape, n, ctx.profile.budgetMs, `${shape}${n}`);
            rec.ok(name, role, timing, `neo4j-driver executeWrite; lost updates ${lost}`);
            rec.check(`${name}: no lost update`, lost === 0, `${lost} lost`);
            ctx.log(`  ${rec.id} ${name}: ${timing.opsPerSec.toFixed(0)} tx/s (p99 ${timing.p99Ms.toFixed(1)} ms), lost ${lost}`);
          } catch (e) {
            rec.failed(name, role, e);
          }
        }
      }
    }
  } finally {
    for (const { served } of servers) if (typeof served !== 'string') await served.stop();
  }
  return [...recs.values()].map((r) => r.finish());
}
