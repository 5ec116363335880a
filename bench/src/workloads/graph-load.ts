/**
 * G1: bulk import until queryable. Every adapter imports the same seeded graph into a fresh store;
 * the loaded adapters are then kept in the context for the read and write workloads.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchContext } from '../context.js';
import { throughputOf, timeOnce } from '../measure.js';
import { CsrSubject } from '../peers/csr.js';
import { KuzuSubject, loadKuzu } from '../peers/kuzu.js';
import { SqliteSubject } from '../peers/sqlite.js';
import { WorkloadRecorder, type WorkloadResult } from '../report-model.js';
import type { GraphSubject } from '../subject.js';
import { GRAPHDB_EMBEDDED } from './common.js';

/** Imports the graph into every adapter (timing G1) and leaves them loaded in `ctx.subjects`. */
export async function runLoad(ctx: BenchContext, options: { kuzuThreads: number }): Promise<WorkloadResult> {
  const { graph } = ctx;
  const rels = graph.src.length;
  const rec = new WorkloadRecorder(
    'G1',
    `bulk import until queryable (${graph.persons} nodes, ${rels} rels)`,
    'relationships/s',
    '≥ 1.0× Kuzu COPY',
    [{ against: 'Kuzu', factor: 1 }],
  );
  const dir = (name: string): string => {
    const d = join(ctx.tmp, name);
    mkdirSync(d, { recursive: true });
    return d;
  };
  const subjects: GraphSubject[] = [];
  const importInto = async (subject: GraphSubject, before?: () => void): Promise<void> => {
    try {
      before?.();
      const ms = await timeOnce(() => subject.load(graph));
      rec.ok(subject.name, subject.role, throughputOf(rels, ms), subject.note);
      ctx.log(`  G1 ${subject.name}: ${ms.toFixed(0)} ms`);
      const counts = [await subject.countNodes?.(), await subject.countRelationships?.()];
      rec.answer(subject.name, counts);
      subjects.push(subject);
    } catch (e) {
      rec.failed(subject.name, subject.role, e);
      ctx.log(`  G1 ${subject.name}: FAILED ${(e as Error).message}`);
      await subject.close().catch(() => undefined);
    }
  };

  if (typeof ctx.graphdb.embedded === 'string') rec.pending(GRAPHDB_EMBEDDED, ctx.graphdb.embedded);
  else {
    try {
      const ours = await ctx.graphdb.embedded(dir('graphdb'));
      // Like Kuzu's CSV files, graphdb's import files are written before the timer starts.
      await importInto(ours, () => ours.prepareImport?.(graph));
    } catch (e) {
      rec.failed(GRAPHDB_EMBEDDED, 'ours', e);
    }
  }

  const kuzu = loadKuzu();
  if (typeof kuzu === 'string') {
    rec.unavailable('Kuzu', 'peer', kuzu);
    ctx.log(`  ${kuzu}`);
  } else {
    const k = new KuzuSubject(kuzu, dir('kuzu'), options.kuzuThreads);
    await importInto(k, () => k.prepareImport(graph));
  }

  await importInto(new SqliteSubject(dir('sqlite')));

  const csrMs = await timeOnce(() => CsrSubject.buildOnly(graph));
  rec.ok('JS CSR', 'limit', throughputOf(rels, csrMs), 'packed adjacency both directions only (ids are dense)');
  const csr = new CsrSubject();
  await csr.load(graph);
  rec.answer(csr.name, [csr.countNodes(), csr.countRelationships()]);
  subjects.push(csr);

  ctx.subjects = subjects;
  return rec.finish();
}
