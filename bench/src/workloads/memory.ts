/**
 * M1: memory and start-up. RSS of a process holding only embedded graphdb with the profile's graph
 * loaded (measured in a child process); cold start to the first Bolt answer once Bolt exists.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchContext } from '../context.js';
import { boltDriver } from '../graphdb/bolt.js';
import { WorkloadRecorder, type WorkloadResult } from '../report-model.js';
import { GRAPHDB_BOLT, GRAPHDB_EMBEDDED } from './common.js';

const CHILD = fileURLToPath(new URL('../child/m1-rss.ts', import.meta.url));
const START_CHILD = fileURLToPath(new URL('../child/bolt-start.ts', import.meta.url));
const GIB = 2 ** 30;

/** Runs M1 (RSS with the graph loaded; Bolt cold start). */
export async function runMemory(ctx: BenchContext): Promise<WorkloadResult[]> {
  ctx.log('M1 memory');
  const rss = new WorkloadRecorder('M1a', 'RSS with the graph loaded (embedded, own process)', 'MiB', 'RSS ≤ 1 GiB', []);
  if (typeof ctx.graphdb.embedded === 'string') rss.pending(GRAPHDB_EMBEDDED, ctx.graphdb.embedded);
  else {
    const dir = join(ctx.tmp, 'm1');
    mkdirSync(dir, { recursive: true });
    const { profile } = ctx;
    const child = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--expose-gc',
        CHILD,
        dir,
        String(profile.persons),
        String(profile.relationships),
        String(profile.seed),
        ctx.engine,
      ],
      { encoding: 'utf8', maxBuffer: 1 << 24 },
    );
    const line = child.stdout.trim().split('\n').pop() ?? '';
    try {
      const parsed = JSON.parse(line) as { rssBytes?: number; pending?: string };
      if (parsed.pending) rss.pending(GRAPHDB_EMBEDDED, parsed.pending);
      else {
        const mib = parsed.rssBytes! / 2 ** 20;
        rss.ok(GRAPHDB_EMBEDDED, 'ours', { ops: 1, seconds: 0, opsPerSec: mib, p50Ms: NaN, p99Ms: NaN }, `${mib.toFixed(0)} MiB resident`);
        rss.check('RSS ≤ 1 GiB', parsed.rssBytes! <= GIB, `${mib.toFixed(0)} MiB`);
        ctx.log(`  M1 RSS ${mib.toFixed(0)} MiB`);
      }
    } catch {
      rss.failed(GRAPHDB_EMBEDDED, 'ours', `child failed: ${child.stderr.trim().split('\n').slice(-3).join(' ')}`);
    }
  }
  return [rss.finish(), await coldStart(ctx)];
}

/** M1b: spawn a process that opens an empty database and serves Bolt; time until RETURN 1 answers. */
async function coldStart(ctx: BenchContext): Promise<WorkloadResult> {
  const rec = new WorkloadRecorder(
    'M1b',
    'cold start to first Bolt answer, empty database',
    'ms',
    `< 1 s (measured from process spawn${ctx.engine === 'src' ? '; tsx transpiles src/ on the fly, use --engine dist for the shipped path' : ''})`,
    [],
  );
  if (typeof ctx.graphdb.bolt === 'string') {
    rec.pending(GRAPHDB_BOLT, ctx.graphdb.bolt);
    return rec.finish();
  }
  const dir = join(ctx.tmp, 'm1b');
  mkdirSync(dir, { recursive: true });
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', START_CHILD, dir, ctx.engine], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const line = await new Promise<string>((resolve, reject) => {
      let buffered = '';
      child.stdout.on('data', (d: Buffer) => {
        buffered += d.toString('utf8');
        const nl = buffered.indexOf('\n');
        if (nl >= 0) resolve(buffered.slice(0, nl));
      });
      child.once('exit', (code) => reject(new Error(`child exited with ${String(code)} before listening`)));
      setTimeout(() => reject(new Error('no Bolt listener within 30 s')), 30_000).unref();
    });
    const parsed = JSON.parse(line) as { port?: number; pending?: string };
    if (parsed.pending) rec.pending(GRAPHDB_BOLT, parsed.pending);
    else {
      const driver = boltDriver(parsed.port!, 1);
      try {
        const session = driver.session();
        const answer = Number((await session.run('RETURN 1 AS x')).records[0]?.get('x'));
        const ms = performance.now() - t0;
        await session.close();
        rec.ok(GRAPHDB_BOLT, 'ours', { ops: 1, seconds: ms / 1000, opsPerSec: ms, p50Ms: NaN, p99Ms: NaN }, `${ms.toFixed(0)} ms`);
        rec.check('cold start < 1 s', ms < 1000, `${ms.toFixed(0)} ms`);
        rec.check('RETURN 1 answers 1', answer === 1, String(answer));
        ctx.log(`  M1b cold start to first Bolt answer: ${ms.toFixed(0)} ms`);
      } finally {
        await driver.close();
      }
    }
  } catch (e) {
    rec.failed(GRAPHDB_BOLT, 'ours', e);
  } finally {
    child.kill('SIGTERM');
  }
  return rec.finish();
}
