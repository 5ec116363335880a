/**
 * E1: the event-loop delay while maintenance runs. A child process (child/e1-maintenance.ts)
 * starts the whole server, keeps a 1 ms timer and a Bolt client running `RETURN 1` in a loop, and
 * runs each maintenance operation in turn: a `/metrics` scrape at `rows` history rows, an MVCC
 * prune, an online backup, CREATE INDEX over `rows` nodes, LOAD CSV of `rows` rows and a bulk
 * import. One result per operation, with the idle phase as the reference: timer p99 ≤ 20 ms and
 * `RETURN 1` p99 ≤ 25 ms (BENCH.md E1). Each timer gap is also reported in process CPU time, which
 * a loaded shared machine does not inflate. `rows` is 1M in the default profile, 200k in medium,
 * 20k in smoke, or `--e1-rows`.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchContext } from '../context.js';
import { WorkloadRecorder, type WorkloadResult } from '../report-model.js';
import type { Phase } from '../child/e1-maintenance.js';

const CHILD = fileURLToPath(new URL('../child/e1-maintenance.ts', import.meta.url));
const ADAPTER = 'graphdb server';
const TIMER_P99_MS = 20;
const RETURN1_P99_MS = 25;

/** Rows per operation for a profile. */
export function e1Rows(profile: string): number {
  return profile === 'smoke' ? 20_000 : profile === 'medium' ? 200_000 : 1_000_000;
}

/** Runs E1 with `rows` per operation. */
export function runEventLoop(ctx: BenchContext, rows: number): WorkloadResult[] {
  ctx.log(`E1 event-loop delay during maintenance, ${rows} rows per operation`);
  const dir = join(ctx.tmp, 'e1');
  mkdirSync(dir, { recursive: true });
  const child = spawnSync(process.execPath, ['--import', 'tsx', CHILD, dir, String(rows), ctx.engine], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  const line = child.stdout.trim().split('\n').pop() ?? '';
  let parsed: { pending?: string; error?: string; phases?: Phase[] };
  try {
    parsed = JSON.parse(line) as typeof parsed;
  } catch {
    parsed = { error: `child failed: ${child.stderr.trim().split('\n').slice(-3).join(' ')}` };
  }
  if (parsed.phases === undefined) {
    const rec = new WorkloadRecorder('E1', 'event-loop delay during maintenance', 'ms', 'timer p99 ≤ 20 ms, RETURN 1 p99 ≤ 25 ms', []);
    if (parsed.pending !== undefined) rec.pending(ADAPTER, parsed.pending);
    else rec.failed(ADAPTER, 'ours', parsed.error ?? 'no result');
    return [rec.finish()];
  }
  return parsed.phases.map((phase, i) => {
    const rec = new WorkloadRecorder(
      i === 0 ? 'E1 idle' : `E1.${i}`,
      `event-loop delay: ${phase.name}`,
      'RETURN 1',
      `timer p99 ≤ ${TIMER_P99_MS} ms, RETURN 1 p99 ≤ ${RETURN1_P99_MS} ms`,
      [],
    );
    const seconds = phase.durationMs / 1000;
    rec.ok(
      ADAPTER,
      'ours',
      { ops: phase.return1.count, seconds, opsPerSec: phase.return1.count / seconds, p50Ms: phase.return1.p50, p99Ms: phase.return1.p99 },
      `${phase.detail.slice(0, 120)}; operation ${phase.durationMs.toFixed(0)} ms; timer p99 ${phase.timer.p99.toFixed(1)} ms, max ${phase.timer.max.toFixed(1)} ms (CPU between ticks p99 ${phase.timerCpu.p99.toFixed(1)}, max ${phase.timerCpu.max.toFixed(1)} ms); RETURN 1 max ${phase.return1.max.toFixed(1)} ms`,
    );
    rec.check(
      `timer p99 ≤ ${TIMER_P99_MS} ms`,
      phase.timer.p99 <= TIMER_P99_MS,
      `p99 ${phase.timer.p99.toFixed(1)} ms, max ${phase.timer.max.toFixed(1)} ms over ${phase.timer.samples} ticks`,
    );
    rec.check(
      `RETURN 1 p99 ≤ ${RETURN1_P99_MS} ms`,
      phase.return1.p99 <= RETURN1_P99_MS,
      `p99 ${phase.return1.p99.toFixed(1)} ms, max ${phase.return1.max.toFixed(1)} ms over ${phase.return1.count} queries`,
    );
    ctx.log(
      `  ${phase.name}: ${phase.durationMs.toFixed(0)} ms; timer p99 ${phase.timer.p99.toFixed(1)} / max ${phase.timer.max.toFixed(1)} ms (CPU ${phase.timerCpu.p99.toFixed(1)} / ${phase.timerCpu.max.toFixed(1)} ms); RETURN 1 p99 ${phase.return1.p99.toFixed(1)} / max ${phase.return1.max.toFixed(1)} ms (${phase.return1.count})`,
    );
    return rec.finish();
  });
}
