/** G2 and G3: auto-commit single writes, explicit transactions of single-row writes and 1k-row UNWIND batches, run after the reads. */
import type { BenchContext } from '../context.js';
import { makePerson } from '../gen/social.js';
import { measure } from '../measure.js';
import { WorkloadRecorder, type WorkloadResult } from '../report-model.js';
import type { NewPerson } from '../subject.js';
import { GRAPHDB_EMBEDDED } from './common.js';
import { Rng } from '../rng.js';

const RAW = 'raw SQLite';
const BATCH = 1000;
const TX_STATEMENTS = 10;

/** A new Person with an id outside the generated range (each adapter gets its own id block). */
function newPerson(ctx: BenchContext, block: number, i: number): NewPerson {
  const id = ctx.graph.persons + block * 10_000_000 + i;
  const p = makePerson(ctx.profile.seed + 1, id);
  return { id, name: p.name, email: p.email, age: p.age };
}

/** Runs G2 (node, relationship, 10-statement transactions) and G3. */
export async function runWriteWorkloads(ctx: BenchContext): Promise<WorkloadResult[]> {
  const nodes = new WorkloadRecorder(
    'G2a',
    'auto-commit single CREATE node',
    'writes/s',
    '≥ 0.3× raw SQLite auto-commit, ≥ 1.0× best peer',
    [
      { against: RAW, factor: 0.3 },
      { against: 'best peer', factor: 1 },
    ],
  );
  const rels = new WorkloadRecorder(
    'G2b',
    'auto-commit single CREATE relationship',
    'writes/s',
    '≥ 0.3× raw SQLite auto-commit, ≥ 1.0× best peer',
    [
      { against: RAW, factor: 0.3 },
      { against: 'best peer', factor: 1 },
    ],
  );
  const inTx = new WorkloadRecorder(
    'G2c',
    `explicit transactions of ${TX_STATEMENTS} single-row CREATE statements`,
    'transactions/s',
    '≥ 0.3× raw SQLite (the same inserts in one transaction)',
    [{ against: RAW, factor: 0.3 }],
  );
  const batch = new WorkloadRecorder(
    'G3',
    `UNWIND $rows CREATE, ${BATCH} rows per transaction`,
    'nodes/s',
    '≥ 0.5× raw prepared inserts, ≥ 1.0× best peer',
    [
      { against: RAW, factor: 0.5 },
      { against: 'best peer', factor: 1 },
    ],
  );
  if (typeof ctx.graphdb.embedded === 'string') {
    for (const r of [nodes, rels, inTx, batch]) r.pending(GRAPHDB_EMBEDDED, ctx.graphdb.embedded);
  }
  const persons = ctx.graph.persons;
  const budget = { budgetMs: ctx.profile.budgetMs };
  for (const [block, s] of ctx.subjects.entries()) {
    const run = async (rec: WorkloadRecorder, body: () => Promise<void>): Promise<void> => {
      try {
        await body();
      } catch (e) {
        rec.failed(s.name, s.role, e);
        ctx.log(`  ${rec.id} ${s.name}: FAILED ${(e as Error).message}`);
      }
    };
    if (s.createNode) {
      await run(nodes, async () => {
        const t = await measure((i) => s.createNode!(newPerson(ctx, block, i)), budget);
        nodes.ok(s.name, s.role, t, s.note);
        ctx.log(`  G2a ${s.name}: ${t.opsPerSec.toFixed(0)}/s`);
      });
    }
    if (s.createRelationship) {
      await run(rels, async () => {
        const rng = new Rng(ctx.profile.seed + block);
        const t = await measure(() => s.createRelationship!(rng.int(persons), rng.int(persons)), budget);
        rels.ok(s.name, s.role, t, s.note);
        ctx.log(`  G2b ${s.name}: ${t.opsPerSec.toFixed(0)}/s`);
      });
    }
    if (s.createInTransaction) {
      await run(inTx, async () => {
        const base = 4_000_000;
        const t = await measure((i) => {
          const rows: NewPerson[] = [];
          for (let r = 0; r < TX_STATEMENTS; r++) rows.push(newPerson(ctx, block, base + i * TX_STATEMENTS + r));
          return s.createInTransaction!(rows);
        }, budget);
        inTx.ok(s.name, s.role, t, s.note);
        ctx.log(`  G2c ${s.name}: ${t.opsPerSec.toFixed(0)} transactions/s`);
      });
    }
    if (s.createBatch) {
      await run(batch, async () => {
        const base = 5_000_000;
        const t = await measure(
          (i) => {
            const rows: NewPerson[] = [];
            for (let r = 0; r < BATCH; r++) rows.push(newPerson(ctx, block, base + i * BATCH + r));
            return s.createBatch!(rows);
          },
          { ...budget, warmupOps: 1, minOps: 3 },
        );
        const perRow = { ...t, opsPerSec: t.opsPerSec * BATCH };
        batch.ok(s.name, s.role, perRow, s.note);
        ctx.log(`  G3 ${s.name}: ${perRow.opsPerSec.toFixed(0)} nodes/s`);
      });
    }
  }
  // Agreement: every adapter that wrote finds the first node it created, by its email.
  for (const [block, s] of ctx.subjects.entries()) {
    if (!s.createNode || !s.lookupByEmail) continue;
    const first = newPerson(ctx, block, 0);
    try {
      const found = await s.lookupByEmail(first.email);
      nodes.answer(s.name, found === first.id ? 'created node found by email' : `not found (${String(found)})`);
    } catch (e) {
      nodes.answer(s.name, `lookup failed: ${(e as Error).message}`);
    }
  }
  return [nodes.finish(), rels.finish(), inTx.finish(), batch.finish()];
}
