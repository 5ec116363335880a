/**
 * A1: apoc.periodic.iterate over 1M nodes (100k in the smoke profile) in batches of 10k, one
 * transaction per batch, measured in its own process: throughput against the same work written
 * as `CALL { } IN TRANSACTIONS OF 10000 ROWS`, and the growth of the resident set while it runs
 * (bounded memory: the batches are committed and dropped, not accumulated).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchContext } from '../context.js';
import { WorkloadRecorder, type WorkloadResult } from '../report-model.js';
import { GRAPHDB_EMBEDDED } from './common.js';

const CHILD = fileURLToPath(new URL('../child/apoc-iterate.ts', import.meta.url));
const BATCH = 10_000;
const MIB = 2 ** 20;
/** Resident-set growth allowed while iterating (the graph's own pages are read into the cache too). */
const RSS_GROWTH_LIMIT = 512 * MIB;
const REFERENCE = 'graphdb CALL IN TRANSACTIONS';

interface Measured {
  readonly seconds: number;
  readonly peakRss: number;
  readonly baseRss: number;
  readonly row: readonly string[];
}

/** Runs A1. */
export async function runApocIterate(ctx: BenchContext): Promise<WorkloadResult[]> {
  const nodes = ctx.profile.name === 'smoke' ? 100_000 : 1_000_000;
  ctx.log(`A1 apoc.periodic.iterate over ${nodes} nodes`);
  const rec = new WorkloadRecorder(
    'A1',
    `apoc.periodic.iterate SET over ${nodes} nodes, batches of ${BATCH}`,
    'nodes/s',
    `≥ 0.5× ${REFERENCE}, RSS growth ≤ 512 MiB`,
    [{ against: REFERENCE, factor: 0.5 }],
  );
  if (typeof ctx.graphdb.embedded === 'string') {
    rec.pending(GRAPHDB_EMBEDDED, ctx.graphdb.embedded);
    return [rec.finish()];
  }
  const dir = join(ctx.tmp, 'a1');
  mkdirSync(dir, { recursive: true });
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', CHILD, dir, String(nodes), String(BATCH), ctx.engine], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  const line = child.stdout.trim().split('\n').pop() ?? '';
  try {
    const parsed = JSON.parse(line) as { pending?: string; iterate: Measured; reference: Measured; updated: string };
    if (parsed.pending) rec.pending(GRAPHDB_EMBEDDED, parsed.pending);
    else {
      const timing = (m: Measured) => ({ ops: nodes, seconds: m.seconds, opsPerSec: nodes / m.seconds, p50Ms: NaN, p99Ms: NaN });
      const growth = parsed.iterate.peakRss - parsed.iterate.baseRss;
      rec.ok(
        GRAPHDB_EMBEDDED,
        'ours',
        timing(parsed.iterate),
        `batches ${parsed.iterate.row[0]}, total ${parsed.iterate.row[1]}, RSS +${(growth / MIB).toFixed(0)} MiB`,
      );
      rec.ok(
        REFERENCE,
        'peer',
        timing(parsed.reference),
        `RSS +${((parsed.reference.peakRss - parsed.reference.baseRss) / MIB).toFixed(0)} MiB`,
      );
      rec.answer(GRAPHDB_EMBEDDED, parsed.updated);
      rec.answer(REFERENCE, String(nodes));
      rec.check('RSS growth ≤ 512 MiB', growth <= RSS_GROWTH_LIMIT, `${(growth / MIB).toFixed(0)} MiB`);
      ctx.log(
        `  A1 iterate ${(nodes / parsed.iterate.seconds).toFixed(0)} nodes/s, reference ${(nodes / parsed.reference.seconds).toFixed(0)} nodes/s, RSS +${(growth / MIB).toFixed(0)} MiB`,
      );
    }
  } catch {
    rec.failed(GRAPHDB_EMBEDDED, 'ours', `child failed: ${child.stderr.trim().split('\n').slice(-3).join(' ')}`);
  }
  return [rec.finish()];
}
