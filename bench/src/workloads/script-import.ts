/**
 * C1: Cypher-script import against CSV import of the same graph (BENCH.md: ≤ 2× CSV time). A
 * child process (child/c1-script-import.ts) exports the seeded social graph with `graphdb export`'s
 * code as neo4j-admin CSV and as a Cypher script, then imports each into a fresh database, the two
 * alternating for `ROUNDS` rounds; the fastest round of each is the figure (the least disturbed by
 * other work on the machine), and the process CPU time of each import is reported beside it. The
 * two imported graphs must be identical (digest of every node's labels and properties and every
 * relationship, ids aside), and the script import must report progress.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchContext } from '../context.js';
import { WorkloadRecorder, type WorkloadResult } from '../report-model.js';
import type { C1Import, C1Output } from '../child/c1-script-import.js';

const CHILD = fileURLToPath(new URL('../child/c1-script-import.ts', import.meta.url));
const OURS = 'graphdb Cypher script import';
const REFERENCE = 'graphdb CSV import';
const ROUNDS = 2;

/** Graph size of C1 for a profile: the smoke graph, else 100k persons and 500k relationships. */
export function c1Size(profile: string): { persons: number; relationships: number } {
  return profile === 'smoke' ? { persons: 10_000, relationships: 50_000 } : { persons: 100_000, relationships: 500_000 };
}

function fastest(runs: readonly C1Import[]): C1Import {
  return runs.reduce((a, b) => (b.wallMs < a.wallMs ? b : a));
}

/** Runs C1. */
export function runScriptImport(ctx: BenchContext): WorkloadResult[] {
  const { persons, relationships } = c1Size(ctx.profile.name);
  const rows = persons + relationships;
  ctx.log(`C1 Cypher-script import vs CSV import, ${persons} nodes and ${relationships} relationships`);
  const rec = new WorkloadRecorder(
    'C1',
    `Cypher-script import vs CSV import of the same graph (${persons} nodes, ${relationships} rels)`,
    'rows/s',
    '≤ 2× CSV time',
    [{ against: REFERENCE, factor: 0.5 }],
  );
  const dir = join(ctx.tmp, 'c1');
  mkdirSync(dir, { recursive: true });
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', CHILD, dir, String(persons), String(relationships), String(ctx.profile.seed), String(ROUNDS), ctx.engine],
    { encoding: 'utf8', maxBuffer: 1 << 24 },
  );
  let parsed: C1Output;
  try {
    parsed = JSON.parse(child.stdout.trim().split('\n').pop() ?? '') as C1Output;
  } catch {
    rec.failed(OURS, 'ours', `child failed: ${child.stderr.trim().split('\n').slice(-3).join(' ')}`);
    return [rec.finish()];
  }
  if (parsed.pending !== undefined || !parsed.csv || !parsed.script || !parsed.digests) {
    rec.pending(OURS, parsed.pending ?? 'no result');
    return [rec.finish()];
  }
  const csv = fastest(parsed.csv);
  const script = fastest(parsed.script);
  const timing = (m: C1Import) => ({
    ops: rows,
    seconds: m.wallMs / 1000,
    opsPerSec: rows / (m.wallMs / 1000),
    p50Ms: NaN,
    p99Ms: NaN,
    wallMs: m.wallMs,
  });
  const cpuRatio = script.cpuMs / csv.cpuMs;
  rec.ok(
    OURS,
    'ours',
    timing(script),
    `${(parsed.scriptBytes! / 2 ** 20).toFixed(1)} MiB script; wall ${script.wallMs.toFixed(0)} ms, CPU ${script.cpuMs.toFixed(0)} ms (${cpuRatio.toFixed(2)}× CSV's); runs ${parsed.script.map((r) => r.wallMs.toFixed(0)).join('/')} ms`,
  );
  rec.ok(
    REFERENCE,
    'peer',
    timing(csv),
    `${(parsed.csvBytes! / 2 ** 20).toFixed(1)} MiB CSV; wall ${csv.wallMs.toFixed(0)} ms, CPU ${csv.cpuMs.toFixed(0)} ms; runs ${parsed.csv.map((r) => r.wallMs.toFixed(0)).join('/')} ms`,
  );
  rec.answer(OURS, parsed.digests.script);
  rec.answer(REFERENCE, parsed.digests.csv);
  const calls = Math.min(...parsed.script.map((r) => r.progressCalls));
  rec.check('script import reports progress', calls > 0, `${calls} progress calls in the fastest-reporting run`);
  ctx.log(
    `  C1 script ${script.wallMs.toFixed(0)} ms (CPU ${script.cpuMs.toFixed(0)}), CSV ${csv.wallMs.toFixed(0)} ms (CPU ${csv.cpuMs.toFixed(0)}): ` +
      `${(script.wallMs / csv.wallMs).toFixed(2)}× wall, ${cpuRatio.toFixed(2)}× CPU`,
  );
  return [rec.finish()];
}
