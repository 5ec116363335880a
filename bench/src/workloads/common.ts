/** Helpers shared by the graph workloads: run one operation on every adapter that has it. */
import type { BenchContext } from '../context.js';
import { measure } from '../measure.js';
import type { WorkloadRecorder } from '../report-model.js';
import type { GraphSubject, Maybe } from '../subject.js';

/** The graphdb adapter names, so pending rows read the same everywhere. */
export const GRAPHDB_EMBEDDED = 'graphdb embedded';
export const GRAPHDB_BOLT = 'graphdb Bolt';
export const GRAPHDB_HTTP = 'graphdb HTTP';

/**
 * For every loaded adapter with the operation: records its canonical answers on the sample inputs,
 * then measures it over `inputs` (cycled). Marks graphdb pending when it is not available at all.
 */
export async function runOnSubjects<T>(
  ctx: BenchContext,
  rec: WorkloadRecorder,
  pick: (s: GraphSubject) => ((input: number) => Maybe<T>) | undefined,
  inputs: readonly number[],
  canonical: (answers: T[]) => unknown,
  options: { sample?: number; maxOps?: number } = {},
): Promise<void> {
  if (typeof ctx.graphdb.embedded === 'string') rec.pending(GRAPHDB_EMBEDDED, ctx.graphdb.embedded);
  const sample = inputs.slice(0, options.sample ?? ctx.profile.sampleSize);
  for (const subject of ctx.subjects) {
    const op = pick(subject)?.bind(subject);
    if (!op) continue;
    const skipped = subject.role === 'ours' ? ctx.skipOurs.get(rec.id) : undefined;
    if (skipped !== undefined) {
      rec.failed(subject.name, subject.role, skipped);
      ctx.log(`  ${rec.id} ${subject.name}: not run — ${skipped}`);
      continue;
    }
    try {
      const answers: T[] = [];
      for (const input of sample) answers.push(await op(input));
      rec.answer(subject.name, canonical(answers));
      const timing = await measure((i) => op(inputs[i % inputs.length]), {
        budgetMs: ctx.profile.budgetMs,
        ...(options.maxOps ? { maxOps: options.maxOps } : {}),
      });
      rec.ok(subject.name, subject.role, timing, subject.note);
      ctx.log(`  ${rec.id} ${subject.name}: ${timing.opsPerSec.toFixed(0)} ops/s, p50 ${timing.p50Ms.toFixed(3)} ms`);
    } catch (e) {
      rec.failed(subject.name, subject.role, e);
      ctx.log(`  ${rec.id} ${subject.name}: FAILED ${(e as Error).message}`);
    }
  }
}
