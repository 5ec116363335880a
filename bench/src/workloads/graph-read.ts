/** G4–G9: the read workloads on the loaded social graph. */
import type { BenchContext } from '../context.js';
import { sampleIds } from '../gen/social.js';
import { BEST_PEER, WorkloadRecorder, type WorkloadResult } from '../report-model.js';
import { canonicalCityStats, sortNameAge, type GraphSubject, type PlannedQuery } from '../subject.js';
import { runOnSubjects } from './common.js';

const RAW = 'raw SQLite';
const CSR = 'JS CSR';

/** Records graphdb's EXPLAIN of the workload query and checks that its anchor is an index seek. */
async function checkPlan(ctx: BenchContext, rec: WorkloadRecorder, query: PlannedQuery): Promise<void> {
  for (const s of ctx.subjects) {
    if (s.role !== 'ours' || !s.explain) continue;
    try {
      const plan = await s.explain(query);
      rec.plan(plan);
      rec.check('plan anchors on an index seek', /index ?seek/i.test(plan) && !/AllNodesScan|NodeByLabelScan/i.test(plan), plan);
    } catch (e) {
      rec.check('plan anchors on an index seek', false, `EXPLAIN failed: ${(e as Error).message}`);
    }
  }
}

/** G4: point lookup by indexed email; also records graphdb's plan for it (EXPLAIN). */
async function g4(ctx: BenchContext): Promise<WorkloadResult> {
  const rec = new WorkloadRecorder(
    'G4',
    'point lookup by indexed email, embedded',
    'queries/s',
    '≥ 0.5× raw SQLite and ≥ 1.0× best peer; plan uses the index',
    [
      { against: RAW, factor: 0.5 },
      { against: BEST_PEER, factor: 1 },
    ],
  );
  const ids = sampleIds(ctx.profile.seed, ctx.graph.persons, 2000);
  const emails = ids.map((id) => ctx.graph.person(id).email);
  await runOnSubjects(
    ctx,
    rec,
    (s) => s.lookupByEmail && ((i: number) => s.lookupByEmail!(emails[i])),
    ids.map((_, i) => i),
    (a) => a,
  );
  await checkPlan(ctx, rec, 'lookup');
  return rec.finish();
}

/** G5: 1-hop count and 1-hop expansion returning properties. */
async function g5(ctx: BenchContext): Promise<WorkloadResult[]> {
  const ids = sampleIds(ctx.profile.seed + 5, ctx.graph.persons, 2000);
  const count = new WorkloadRecorder('G5a', '1-hop count', 'queries/s', '≥ 0.5× raw SQLite, ≥ 1.0× best peer', [
    { against: RAW, factor: 0.5 },
    { against: BEST_PEER, factor: 1 },
  ]);
  await runOnSubjects(
    ctx,
    count,
    (s) => s.oneHopCount?.bind(s),
    ids,
    (a) => a,
  );
  await checkPlan(ctx, count, 'oneHopCount');
  const expand = new WorkloadRecorder('G5b', '1-hop expand returning name, age', 'queries/s', '≥ 0.5× raw SQLite, ≥ 1.0× best peer', [
    { against: RAW, factor: 0.5 },
    { against: BEST_PEER, factor: 1 },
  ]);
  await runOnSubjects(
    ctx,
    expand,
    (s) => s.oneHopExpand?.bind(s),
    ids,
    (a) => a.map(sortNameAge),
  );
  await checkPlan(ctx, expand, 'oneHopExpand');
  return [count.finish(), expand.finish()];
}

/** G6: 2-hop distinct count excluding the start node. */
async function g6(ctx: BenchContext): Promise<WorkloadResult> {
  const rec = new WorkloadRecorder(
    'G6',
    '2-hop distinct count WHERE c <> a',
    'queries/s',
    '≥ 0.5× raw SQLite, ≥ 1.0× best peer (CSR shown as in-memory limit)',
    [
      { against: RAW, factor: 0.5 },
      { against: BEST_PEER, factor: 1 },
    ],
  );
  await runOnSubjects(
    ctx,
    rec,
    (s) => s.twoHopDistinct?.bind(s),
    sampleIds(ctx.profile.seed + 6, ctx.graph.persons, 2000),
    (a) => a,
  );
  await checkPlan(ctx, rec, 'twoHop');
  return rec.finish();
}

/** Pairs connected within `maxHops` (found with the CSR limit), so every query has an answer. */
function connectedPairs(ctx: BenchContext, count: number, maxHops: number): [number, number][] {
  const csr = ctx.subjects.find((s) => s.name === CSR);
  const candidates = sampleIds(ctx.profile.seed + 7, ctx.graph.persons, count * 8);
  const pairs: [number, number][] = [];
  for (let i = 0; i + 1 < candidates.length && pairs.length < count; i += 2) {
    const a = candidates[i];
    const b = candidates[i + 1];
    if (a === b) continue;
    const len = csr?.shortestPath?.(a, b, maxHops);
    if (typeof len === 'number') pairs.push([a, b]);
  }
  return pairs;
}

/** G7: shortestPath up to 6 hops between connected pairs. */
async function g7(ctx: BenchContext): Promise<WorkloadResult> {
  const rec = new WorkloadRecorder('G7', 'shortestPath ≤ 6 hops, connected pairs', 'queries/s', '≥ 10× Kuzu, ≥ 0.2× JS CSR', [
    { against: 'Kuzu', factor: 10 },
    { against: CSR, factor: 0.2 },
  ]);
  const pairs = connectedPairs(ctx, 200, 6);
  await runOnSubjects(
    ctx,
    rec,
    (s) => s.shortestPath && ((i: number) => s.shortestPath!(pairs[i][0], pairs[i][1], 6)),
    pairs.map((_, i) => i),
    (a) => a,
    { sample: 5 },
  );
  await checkPlan(ctx, rec, 'shortestPath');
  return rec.finish();
}

/** G8: count and average age by city over all Persons. */
async function g8(ctx: BenchContext): Promise<WorkloadResult> {
  const rec = new WorkloadRecorder(
    'G8',
    'aggregation by city (count, avg age)',
    'queries/s',
    'time ≤ 1.0× Kuzu (SQLite covering index and JS column shown as limits)',
    [{ against: 'Kuzu', factor: 1 }],
  );
  await runOnSubjects(
    ctx,
    rec,
    (s) => s.cityAggregate && (() => s.cityAggregate!()),
    [0],
    (a) => a.map(canonicalCityStats),
    { sample: 1 },
  );
  return rec.finish();
}

/** G9: count(*) of nodes and relationships, and a label scan with LIMIT 100. */
async function g9(ctx: BenchContext): Promise<WorkloadResult[]> {
  const out: WorkloadResult[] = [];
  const variants = [
    ['G9a', 'count(*) of nodes', (s: GraphSubject) => s.countNodes && (() => s.countNodes!())],
    ['G9b', 'count(*) of relationships', (s: GraphSubject) => s.countRelationships && (() => s.countRelationships!())],
  ] as const;
  for (const [id, title, pick] of variants) {
    const rec = new WorkloadRecorder(id, title, 'queries/s', 'time ≤ 2× raw SQLite', [{ against: RAW, factor: 0.5 }]);
    await runOnSubjects(ctx, rec, pick, [0], (a) => a, { sample: 1 });
    out.push(rec.finish());
  }
  const scan = new WorkloadRecorder('G9c', 'label scan LIMIT 100', 'queries/s', 'time ≤ 2× raw SQLite (answers: 100 distinct valid ids)', [
    { against: RAW, factor: 0.5 },
  ]);
  await runOnSubjects(
    ctx,
    scan,
    (s) => s.labelScan100 && (() => s.labelScan100!()),
    [0],
    (a) => a.map((ids) => ({ rows: ids.length, distinct: new Set(ids).size, valid: ids.every((x) => x >= 0 && x < ctx.graph.persons) })),
    { sample: 1 },
  );
  out.push(scan.finish());
  return out;
}

/** Runs G4–G9 in order. */
export async function runReadWorkloads(ctx: BenchContext): Promise<WorkloadResult[]> {
  const out: WorkloadResult[] = [];
  ctx.log('G4 point lookup');
  out.push(await g4(ctx));
  ctx.log('G5 1-hop');
  out.push(...(await g5(ctx)));
  ctx.log('G6 2-hop');
  out.push(await g6(ctx));
  ctx.log('G7 shortestPath');
  out.push(await g7(ctx));
  ctx.log('G8 aggregation');
  out.push(await g8(ctx));
  ctx.log('G9 counts and scan');
  out.push(...(await g9(ctx)));
  return out;
}
