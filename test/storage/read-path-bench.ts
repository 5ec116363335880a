/**
 * Per-statement cost of the small reads of BENCH.md G4, G5, G6 and G9 through `Session.run`,
 * next to the same work on raw better-sqlite3 (a `person` table with an email index and a `knows`
 * edge table with covering indexes both ways). Not a test (npm test does not run it):
 *   node --import tsx test/storage/read-path-bench.ts               # N=20000 per workload
 *   ONLY=G4,G9c N=50000 node --import tsx test/storage/read-path-bench.ts
 *   node --cpu-prof --import tsx test/storage/read-path-bench.ts    # where the time goes
 *   ENGINE=dist node --import tsx test/storage/read-path-bench.ts   # the built dist/ (npm run build)
 * Prints wall and CPU microseconds per statement and the raw/ours CPU ratio; the machine is
 * shared, so compare figures within one run.
 */
import fs from 'node:fs';
import os from 'node:os';
import Database from 'better-sqlite3';
import type { GraphDB as GraphDBType, Session } from '../../src/engine/index.js';

const PEOPLE = Number(process.env['PEOPLE'] ?? 10_000);
const DEGREE = 5;
const N = Number(process.env['N'] ?? 20_000);
const ONLY = process.env['ONLY']?.split(',') ?? null;
const WARMUP = Math.min(2_000, N);
const email = (i: number): string => `u${i % PEOPLE}@x.io`;
/** Deterministic edges: person i knows i+1, i+7, i+31, ... (mod PEOPLE). */
const STEPS = [1, 7, 31, 127, 509];

interface Workload {
  readonly id: string;
  readonly cypher: string;
  readonly params: (i: number) => Map<string, unknown>;
  readonly raw: (db: Database.Database) => (i: number) => unknown;
}

const id = (i: number): Map<string, unknown> => new Map([['id', BigInt((i * 7919) % PEOPLE)]]);

const WORKLOADS: readonly Workload[] = [
  {
    id: 'G4',
    cypher: 'MATCH (p:Person {email: $e}) RETURN p.id AS id',
    params: (i) => new Map([['e', email(i)]]),
    raw: (db) => {
      const s = db.prepare('SELECT id FROM person WHERE email = ?').pluck();
      return (i) => s.all(email(i));
    },
  },
  {
    id: 'G5a',
    cypher: 'MATCH (a:Person {id: $id})-[:KNOWS]->(b) RETURN count(b) AS c',
    params: id,
    raw: (db) => {
      const s = db.prepare('SELECT count(*) FROM knows WHERE src = ?').pluck();
      return (i) => s.get((i * 7919) % PEOPLE);
    },
  },
  {
    id: 'G5b',
    cypher: 'MATCH (a:Person {id: $id})-[:KNOWS]->(b) RETURN b.name AS name, b.age AS age',
    params: id,
    raw: (db) => {
      const s = db.prepare('SELECT p.name, p.age FROM knows k JOIN person p ON p.id = k.dst WHERE k.src = ?').raw();
      return (i) => s.all((i * 7919) % PEOPLE);
    },
  },
  {
    id: 'G6',
    cypher: 'MATCH (a:Person {id: $id})-[:KNOWS]->()-[:KNOWS]->(c) WHERE c <> a RETURN count(DISTINCT c) AS c',
    params: id,
    raw: (db) => {
      const s = db
        .prepare('SELECT count(DISTINCT k2.dst) FROM knows k1 JOIN knows k2 ON k2.src = k1.dst WHERE k1.src = ? AND k2.dst <> k1.src')
        .pluck();
      return (i) => s.get((i * 7919) % PEOPLE);
    },
  },
  {
    id: 'G9a',
    cypher: 'MATCH (n) RETURN count(n) AS c',
    params: () => new Map(),
    raw: (db) => {
      const s = db.prepare('SELECT count(*) FROM person').pluck();
      return () => s.get();
    },
  },
  {
    id: 'G9b',
    cypher: 'MATCH ()-[r]->() RETURN count(r) AS c',
    params: () => new Map(),
    raw: (db) => {
      const s = db.prepare('SELECT count(*) FROM knows').pluck();
      return () => s.get();
    },
  },
  {
    id: 'G9c',
    cypher: 'MATCH (p:Person) RETURN p.id AS id LIMIT 100',
    params: () => new Map(),
    raw: (db) => {
      const s = db.prepare('SELECT id FROM person LIMIT 100').pluck();
      return () => s.all();
    },
  },
  {
    id: 'RETURN1',
    cypher: 'RETURN 1 AS x',
    params: () => new Map(),
    raw: () => () => 1,
  },
];

async function measure(run: (i: number) => unknown): Promise<{ wall: number; cpu: number }> {
  for (let i = 0; i < WARMUP; i++) await run(i);
  const wall = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < N; i++) await run(i);
  const elapsed = performance.now() - wall;
  const used = process.cpuUsage(cpu);
  return { wall: (elapsed * 1000) / N, cpu: (used.user + used.system) / N };
}

function rawDatabase(dir: string): Database.Database {
  const db = new Database(`${dir}/raw.db`);
  db.pragma('journal_mode = WAL');
  db.exec(`CREATE TABLE person (id INTEGER PRIMARY KEY, email TEXT, name TEXT, age INTEGER);
    CREATE INDEX person_email ON person(email);
    CREATE TABLE knows (src INTEGER, dst INTEGER);
    CREATE INDEX knows_out ON knows(src, dst); CREATE INDEX knows_in ON knows(dst, src);`);
  const person = db.prepare('INSERT INTO person (id, email, name, age) VALUES (?, ?, ?, ?)');
  const knows = db.prepare('INSERT INTO knows (src, dst) VALUES (?, ?)');
  db.transaction(() => {
    for (let i = 0; i < PEOPLE; i++) person.run(i, email(i), `n${i}`, i % 90);
    for (let i = 0; i < PEOPLE; i++) for (const step of STEPS.slice(0, DEGREE)) knows.run(i, (i + step) % PEOPLE);
  })();
  return db;
}

async function loadGraph(session: Session): Promise<void> {
  const run = async (q: string, p?: Map<string, unknown>): Promise<void> => {
    await (await session.run(q, p as never)).discard();
  };
  await run('CREATE INDEX person_email FOR (p:Person) ON (p.email)');
  await run('CREATE INDEX person_id FOR (p:Person) ON (p.id)');
  await run(
    'UNWIND range(0, $n - 1) AS i CREATE (:Person {id: i, email: "u" + i + "@x.io", name: "n" + i, age: i % 90})',
    new Map([['n', BigInt(PEOPLE)]]),
  );
  await run(
    'UNWIND range(0, $n - 1) AS i UNWIND $steps AS s MATCH (a:Person {id: i}), (b:Person {id: (i + s) % $n}) CREATE (a)-[:KNOWS]->(b)',
    new Map<string, unknown>([
      ['n', BigInt(PEOPLE)],
      ['steps', STEPS.slice(0, DEGREE).map(BigInt)],
    ]),
  );
}

/** The engine from src/ (through tsx) or, with ENGINE=dist, the built dist/ that ships. */
const { GraphDB } = (await import(process.env['ENGINE'] === 'dist' ? '../../dist/engine/index.js' : '../../src/engine/index.js')) as {
  GraphDB: typeof GraphDBType;
};

const dir = fs.mkdtempSync(`${os.tmpdir()}/graphdb-readpath-`);
try {
  const raw = rawDatabase(dir);
  const db = await GraphDB.open({ dataDir: `${dir}/graph` });
  const session = db.session();
  await loadGraph(session);
  console.log(`${'id'.padEnd(8)} ${'ours wall'.padStart(10)} ${'ours cpu'.padStart(10)} ${'raw cpu'.padStart(9)}  raw/ours`);
  for (const w of WORKLOADS) {
    if (ONLY !== null && !ONLY.includes(w.id)) continue;
    const rawRun = w.raw(raw);
    const rawFigures = await measure(rawRun);
    const ours = await measure(async (i) => (await session.run(w.cypher, w.params(i) as never)).pull(-1));
    console.log(
      `${w.id.padEnd(8)} ${ours.wall.toFixed(1).padStart(8)}us ${ours.cpu.toFixed(1).padStart(8)}us ${rawFigures.cpu.toFixed(1).padStart(7)}us  ${(rawFigures.cpu / ours.cpu).toFixed(2)}`,
    );
  }
  await session.close();
  await db.close();
  raw.close();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
