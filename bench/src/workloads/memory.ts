/**
 * M1: memory and start-up. RSS of a process holding only embedded graphdb with the profile's graph
 * loaded (measured in a child process); cold start to the first Bolt answer once Bolt exists.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchContext } from '../context.js';
import { WorkloadRecorder, type WorkloadResult } from '../report-model.js';
import { GRAPHDB_BOLT, GRAPHDB_EMBEDDED } from './common.js';

const CHILD = fileURLToPath(new URL('../child/m1-rss.ts', import.meta.url));
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
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', CHILD, dir, String(profile.persons),
      String(profile.relationships), String(profile.seed), 'src'], { encoding: 'utf8', maxBuffer: 1 << 24 });
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
  const start = new WorkloadRecorder('M1b', 'cold start to first Bolt answer, empty database', 'ms', '< 1 s', []);
  if (typeof ctx.graphdb.bolt === 'string') start.pending(GRAPHDB_BOLT, ctx.graphdb.bolt);
  else start.pending(GRAPHDB_BOLT, 'Bolt cold-start measurement not wired yet');
  return [rss.finish(), start.finish()];
}
