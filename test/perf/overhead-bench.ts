/**
 * Per-query overhead of the embedded engine against raw better-sqlite3 (BENCH.md G4), and
 * `RETURN 1`. Not a test (npm test does not run it):
 *   node --import tsx test/perf/overhead-bench.ts            # N=20000 queries per workload
 *   node --cpu-prof --import tsx test/perf/overhead-bench.ts # where the time goes
 * Prints wall and CPU microseconds per query; on a loaded machine compare CPU figures and
 * ratios within one run.
 */
import fs from 'node:fs';
import os from 'node:os';
import Database from 'better-sqlite3';
import { GraphDB } from '../../src/engine/index.js';
import type { Session } from '../../src/engine/index.js';

const PEOPLE = 10_000;
const N = Number(process.env.N ?? 20_000);
const WARMUP = 2_000;
const email = (i: number): string => `u${i % PEOPLE}@x.io`;

function report(label: string, run: (i: number) => void | Promise<void>): Promise<void> {
  return (async () => {
    for (let i = 0; i < WARMUP; i++) await run(i);
    const wall = performance.now();
    const cpu = process.cpuUsage();
    for (let i = 0; i < N; i++) await run(i);
    const elapsed = performance.now() - wall;
    const used = process.cpuUsage(cpu);
    console.log(
      `${label.padEnd(28)} ${((elapsed * 1000) / N).toFixed(1).padStart(7)} us wall  ${((used.user + used.system) / N).toFixed(1).padStart(7)} us cpu`,
    );
  })();
}

async function engine(dir: string): Promise<void> {
  const db = await GraphDB.open({ dataDir: dir });
  const session: Session = db.session();
  await (await session.run('CREATE INDEX person_email FOR (p:Person) ON (p.email)')).discard();
  await (
    await session.run('UNWIND range(0, $n - 1) AS i CREATE (:Person {email: "u" + i + "@x.io", name: "n" + i})', { n: BigInt(PEOPLE) })
  ).discard();
  await report('graphdb indexed lookup', async (i) => {
    const { records } = await (await session.run('MATCH (p:Person {email: $e}) RETURN p.name', { e: email(i) })).pull(-1);
    if (records.length !== 1) throw new Error(`expected one row, got ${records.length}`);
  });
  await report('graphdb RETURN 1', async () => {
    await (await session.run('RETURN 1')).pull(-1);
  });
  await session.close();
  await db.close();
}

function raw(dir: string): Promise<void> {
  const db = new Database(`${dir}/raw.db`);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE person (id INTEGER PRIMARY KEY, email TEXT, name TEXT); CREATE INDEX person_email ON person(email)');
  const insert = db.prepare('INSERT INTO person (email, name) VALUES (?, ?)');
  db.transaction(() => {
    for (let i = 0; i < PEOPLE; i++) insert.run(email(i), `n${i}`);
  })();
  const lookup = db.prepare('SELECT name FROM person WHERE email = ?');
  return report('raw better-sqlite3 lookup', (i) => {
    if (lookup.all(email(i)).length !== 1) throw new Error('expected one row');
  }).finally(() => db.close());
}

const dir = fs.mkdtempSync(`${os.tmpdir()}/graphdb-overhead-`);
try {
  await raw(dir);
  await engine(dir);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
