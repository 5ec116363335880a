/**
 * G4S: the index-lookup series of issue 4 — point lookups by indexed email at growing node counts
 * (profile.seriesSizes, 10k → 1M in the large profile); the lookup time must stay flat.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchContext } from '../context.js';
import { generateSocialGraph, sampleIds } from '../gen/social.js';
import { measure } from '../measure.js';
import { SqliteSubject } from '../peers/sqlite.js';
import { WorkloadRecorder, type WorkloadResult } from '../report-model.js';
import type { GraphSubject } from '../subject.js';
import { GRAPHDB_EMBEDDED } from './common.js';

function label(n: number): string {
  return n >= 1_000_000 ? `${n / 1_000_000}M` : n >= 1000 ? `${n / 1000}k` : String(n);
}

/** Runs the series; one result row per size, the last one carrying the flatness check. */
export async function runIndexSeries(ctx: BenchContext): Promise<WorkloadResult[]> {
  const out: WorkloadResult[] = [];
  const oursBySize: { size: number; opsPerSec: number }[] = [];
  for (const size of ctx.profile.seriesSizes) {
    ctx.log(`G4S index lookup at ${label(size)} nodes`);
    const rec = new WorkloadRecorder(
      `G4S@${label(size)}`,
      `indexed email lookup with ${label(size)} nodes`,
      'queries/s',
      '≥ 0.5× raw SQLite at every size; graphdb at the largest size ≥ 0.5× its smallest-size rate (flat)',
      [{ against: 'raw SQLite', factor: 0.5 }],
    );
    const graph = generateSocialGraph(ctx.profile.seed, size, 0);
    const ids = sampleIds(ctx.profile.seed + 41, size, 2000);
    const emails = ids.map((id) => graph.person(id).email);
    const subjects: GraphSubject[] = [];
    const dir = join(ctx.tmp, `series-${size}`);
    mkdirSync(join(dir, 'graphdb'), { recursive: true });
    if (typeof ctx.graphdb.embedded === 'string') rec.pending(GRAPHDB_EMBEDDED, ctx.graphdb.embedded);
    else {
      try {
        const ours = await ctx.graphdb.embedded(join(dir, 'graphdb'));
        subjects.push(ours);
        ours.prepareImport?.(graph);
        await ours.load(graph);
      } catch (e) {
        rec.failed(GRAPHDB_EMBEDDED, 'ours', e);
        subjects.pop();
      }
    }
    const raw = new SqliteSubject(dir);
    await raw.load(graph);
    subjects.push(raw);
    for (const s of subjects) {
      try {
        rec.answer(s.name, await Promise.all(emails.slice(0, ctx.profile.sampleSize).map(async (e) => s.lookupByEmail!(e))));
        const t = await measure((i) => s.lookupByEmail!(emails[i % emails.length]), { budgetMs: ctx.profile.budgetMs });
        rec.ok(s.name, s.role, t);
        if (s.role === 'ours') oursBySize.push({ size, opsPerSec: t.opsPerSec });
        ctx.log(`  ${s.name}: ${t.opsPerSec.toFixed(0)} lookups/s, p50 ${t.p50Ms.toFixed(3)} ms`);
      } catch (e) {
        rec.failed(s.name, s.role, e);
      }
      await s.close().catch(() => undefined);
    }
    if (size === ctx.profile.seriesSizes[ctx.profile.seriesSizes.length - 1] && oursBySize.length >= 2) {
      const first = oursBySize[0];
      const last = oursBySize[oursBySize.length - 1];
      const ratio = last.opsPerSec / first.opsPerSec;
      rec.check(
        'flat from smallest to largest',
        ratio >= 0.5,
        `${label(last.size)}: ${last.opsPerSec.toFixed(0)}/s vs ${label(first.size)}: ${first.opsPerSec.toFixed(0)}/s (${ratio.toFixed(2)}×)`,
      );
    }
    out.push(rec.finish());
  }
  return out;
}
