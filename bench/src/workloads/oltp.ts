/**
 * G10: mixed OLTP over Bolt at 1, 4 and 16 connections against the loaded graph — 80 % indexed
 * lookups, 10 % 1-hop counts, 10 % auto-commit CREATEs — compared with `RETURN 1` (P1) on the same
 * server and connection count.
 */
import type { Session } from 'neo4j-driver';
import type { BenchContext } from '../context.js';
import { makePerson, sampleIds } from '../gen/social.js';
import { boltDriver } from '../graphdb/bolt.js';
import { QUERIES } from '../graphdb/cypher-subject.js';
import { measureConcurrent } from '../measure.js';
import { WorkloadRecorder, type WorkloadResult } from '../report-model.js';
import { GRAPHDB_BOLT } from './common.js';

const P1_SAME = 'graphdb Bolt RETURN 1';

/** Runs G10 on the loaded embedded graphdb (served over Bolt for the duration). */
export async function runOltp(ctx: BenchContext): Promise<WorkloadResult[]> {
  const levels = ctx.profile.connections;
  const recs = levels.map(
    (n) =>
      new WorkloadRecorder(
        `G10@${n}`,
        `mixed OLTP over Bolt (80 % lookup, 10 % 1-hop, 10 % CREATE), ${n} connection(s)`,
        'queries/s',
        '≥ 0.5× P1 (RETURN 1 on the same server) at 1 connection; p99 ≤ 5 ms',
        n === 1 ? [{ against: P1_SAME, factor: 0.5 }] : [],
      ),
  );
  const ours = ctx.subjects.find((s) => s.role === 'ours' && typeof s.serveBolt === 'function');
  if (!ours) {
    const reason = typeof ctx.graphdb.bolt === 'string' ? ctx.graphdb.bolt : 'graphdb embedded did not load the graph';
    for (const r of recs) r.pending(GRAPHDB_BOLT, reason);
    return recs.map((r) => r.finish());
  }
  ctx.log('G10 mixed OLTP over Bolt');
  const server = await ours.serveBolt!();
  const ids = sampleIds(ctx.profile.seed + 10, ctx.graph.persons, 4000);
  const emails = ids.map((id) => ctx.graph.person(id).email);
  let created = 0;
  try {
    for (const [k, n] of levels.entries()) {
      const rec = recs[k];
      const driver = boltDriver(server.port, n);
      const sessions: Session[] = Array.from({ length: n }, () => driver.session());
      try {
        const op = async (c: number, i: number): Promise<void> => {
          const s = sessions[c];
          const pick = (i * 7 + c * 13) % ids.length;
          const slot = i % 10;
          if (slot < 8) await s.run(QUERIES.lookup, { e: emails[pick] });
          else if (slot === 8) await s.run(QUERIES.oneHopCount, { id: BigInt(ids[pick]) });
          else {
            const id = ctx.graph.persons + 90_000_000 + created++;
            const p = makePerson(ctx.profile.seed + 3, id);
            await s.run(QUERIES.createNode, { id: BigInt(id), name: p.name, age: BigInt(p.age), email: p.email });
          }
        };
        const first = await sessions[0].run(QUERIES.lookup, { e: emails[0] });
        rec.answer(GRAPHDB_BOLT, Number(first.records[0]?.get('id')));
        rec.answer('generator', ids[0]);
        const t = await measureConcurrent(op, n, { budgetMs: ctx.profile.budgetMs });
        rec.ok(GRAPHDB_BOLT, 'ours', t, 'neo4j-driver 6.3, auto-commit session.run');
        rec.check('p99 ≤ 5 ms', t.p99Ms <= 5, `p99 ${t.p99Ms.toFixed(2)} ms`);
        const p1 = await measureConcurrent((c) => sessions[c].run('RETURN 1 AS x'), n, { budgetMs: ctx.profile.budgetMs });
        rec.ok(P1_SAME, 'limit', p1, 'same server and connections');
        ctx.log(`  G10@${n}: ${t.opsPerSec.toFixed(0)} q/s (p99 ${t.p99Ms.toFixed(2)} ms); RETURN 1 ${p1.opsPerSec.toFixed(0)}/s`);
      } catch (e) {
        rec.failed(GRAPHDB_BOLT, 'ours', e);
      } finally {
        for (const s of sessions) await s.close();
        await driver.close();
      }
    }
  } finally {
    await server.stop();
  }
  return recs.map((r) => r.finish());
}
