/**
 * The write path of the embedded engine against raw better-sqlite3 (BENCH.md G2a, G2b, G2c, G3).
 * Not a test (npm test does not run it):
 *   node --import tsx test/perf/write-path-bench.ts                  # 10k Person, 5 KNOWS each
 *   PEOPLE=1000000 RELS=5 N=3000 node --import tsx test/perf/write-path-bench.ts
 *   ONLY=G2b node --cpu-prof --import tsx test/perf/write-path-bench.ts   # where the time goes
 * The graph is loaded with the bulk loader (`db.importFiles`, like the bench's G1) with RANGE
 * indexes on `Person.id` and `Person.email`. Prints wall and CPU microseconds per operation and
 * the raw/ours ratio; on a loaded machine compare CPU figures and ratios within one run.
 */
import fs from 'node:fs';
import os from 'node:os';
import Database from 'better-sqlite3';
import { GraphDB } from '../../src/engine/index.js';
import type { CypherValue, Session } from '../../src/engine/index.js';

const PEOPLE = Number(process.env.PEOPLE ?? 10_000);
const RELS = Number(process.env.RELS ?? 5);
const N = Number(process.env.N ?? 3_000);
const WARMUP = Math.max(100, Math.floor(N / 10));
const ONLY = (process.env.ONLY ?? '').split(',').filter((s) => s !== '');
const wanted = (id: string): boolean => ONLY.length === 0 || ONLY.some((o) => id.startsWith(o));

/** A deterministic 32-bit generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Figure {
  readonly wallUs: number;
  readonly cpuUs: number;
  /** Median wall time of one operation (robust to preemption on a shared machine). */
  readonly p50Us: number;
}

async function time(ops: number, run: (i: number) => void | Promise<void>): Promise<Figure> {
  for (let i = 0; i < WARMUP; i++) await run(1_000_000_000 + i);
  const samples = new Float64Array(ops);
  const wall = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < ops; i++) {
    const start = performance.now();
    await run(i);
    samples[i] = performance.now() - start;
  }
  const elapsed = performance.now() - wall;
  const used = process.cpuUsage(cpu);
  samples.sort();
  return { wallUs: (elapsed * 1000) / ops, cpuUs: (used.user + used.system) / ops, p50Us: samples[ops >> 1] * 1000 };
}

const results = new Map<string, { ours?: Figure; raw?: Figure }>();
function record(id: string, side: 'ours' | 'raw', figure: Figure): void {
  const entry = results.get(id) ?? {};
  entry[side] = figure;
  results.set(id, entry);
}

function writeCsv(dir: string): { nodes: string; rels: string } {
  const nodes = `${dir}/person.csv`;
  const rels = `${dir}/knows.csv`;
  const people = fs.openSync(nodes, 'w');
  fs.writeSync(people, ':ID,id:int,name,age:int,email\n');
  let chunk = '';
  for (let i = 0; i < PEOPLE; i++) {
    chunk += `${i},${i},n${i},${20 + (i % 50)},u${i}@x.io\n`;
    if (chunk.length > 1 << 20) {
      fs.writeSync(people, chunk);
      chunk = '';
    }
  }
  fs.writeSync(people, chunk);
  fs.closeSync(people);
  const edges = fs.openSync(rels, 'w');
  fs.writeSync(edges, ':START_ID,:END_ID\n');
  chunk = '';
  const next = rng(7);
  for (let i = 0; i < PEOPLE; i++) {
    for (let r = 0; r < RELS; r++) {
      const to = Math.floor(next() * PEOPLE);
      if (to !== i) chunk += `${i},${to}\n`;
    }
    if (chunk.length > 1 << 20) {
      fs.writeSync(edges, chunk);
      chunk = '';
    }
  }
  fs.writeSync(edges, chunk);
  fs.closeSync(edges);
  return { nodes, rels };
}

async function drain(session: Session, query: string, params?: Map<string, CypherValue>): Promise<void> {
  await (await session.run(query, params)).pull(-1);
}

async function engine(dir: string, files: { nodes: string; rels: string }): Promise<void> {
  const db = await GraphDB.open({ dataDir: `${dir}/db`, transactionTimeoutMs: Number(process.env.TX_TIMEOUT ?? 0) });
  const session = db.session();
  await drain(session, 'CREATE INDEX person_id FOR (p:Person) ON (p.id)');
  await drain(session, 'CREATE INDEX person_email FOR (p:Person) ON (p.email)');
  const loadStart = performance.now();
  const summary = await db.importFiles({
    format: 'csv',
    inputs: [
      { file: files.nodes, kind: 'nodes', labels: ['Person'] },
      { file: files.rels, kind: 'relationships', type: 'KNOWS' },
    ],
  });
  if (!summary.completed) throw new Error(`import failed: ${JSON.stringify(summary.errors.slice(0, 3))}`);
  console.log(`loaded ${PEOPLE} Person, ${summary.relationships} KNOWS in ${(performance.now() - loadStart).toFixed(0)} ms`);

  const walPages = (): number => {
    try {
      return Math.round(fs.statSync(`${dir}/db/graphdb.db-wal`).size / 4096);
    } catch {
      return 0;
    }
  };
  console.log(`WAL after load: ${walPages()} pages`);
  if (wanted('G2a')) {
    const params = new Map<string, CypherValue>();
    record(
      'G2a',
      'ours',
      await time(N, async (i) => {
        const id = BigInt(PEOPLE + 10_000_000 + i);
        params.set('id', id).set('name', `m${i}`).set('age', 30n).set('email', `m${id}@x.io`);
        await drain(session, 'CREATE (:Person {id: $id, name: $name, age: $age, email: $email})', params);
      }),
    );
  }
  if (wanted('G2b')) {
    const next = rng(11);
    const params = new Map<string, CypherValue>();
    record(
      'G2b',
      'ours',
      await time(N, async () => {
        params.set('a', BigInt(Math.floor(next() * PEOPLE))).set('b', BigInt(Math.floor(next() * PEOPLE)));
        await drain(session, 'MATCH (a:Person {id: $a}), (b:Person {id: $b}) CREATE (a)-[:KNOWS]->(b)', params);
      }),
    );
  }
  if (wanted('G2c')) {
    record(
      'G2c',
      'ours',
      await time(Math.ceil(N / 10), async (i) => {
        const tx = await session.beginTransaction({ mode: 'WRITE' });
        for (let s = 0; s < 10; s++) {
          const id = BigInt(PEOPLE + 20_000_000 + i * 10 + s);
          const params = new Map<string, CypherValue>([
            ['id', id],
            ['name', `t${id}`],
          ]);
          await (await tx.run('CREATE (:Person {id: $id, name: $name})', params)).pull(-1);
        }
        await tx.commit();
      }),
    );
  }
  if (wanted('G3')) {
    record(
      'G3',
      'ours',
      await time(Math.max(5, Math.ceil(N / 1000)), async (i) => {
        const rows: CypherValue[] = [];
        for (let r = 0; r < 1000; r++) {
          const id = BigInt(PEOPLE + 30_000_000 + i * 1000 + r);
          rows.push(
            new Map<string, CypherValue>([
              ['id', id],
              ['name', `b${id}`],
              ['age', 40n],
              ['email', `b${id}@x.io`],
            ]),
          );
        }
        const tx = await session.beginTransaction({ mode: 'WRITE' });
        await (
          await tx.run(
            'UNWIND $rows AS r CREATE (:Person {id: r.id, name: r.name, age: r.age, email: r.email})',
            new Map<string, CypherValue>([['rows', rows]]),
          )
        ).pull(-1);
        await tx.commit();
      }),
    );
  }
  console.log(`WAL at the end: ${walPages()} pages`);
  await session.close();
  await db.close();
}

function raw(dir: string, files: { nodes: string; rels: string }): Promise<void> {
  const db = new Database(`${dir}/raw.db`);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(
    'CREATE TABLE person (id INTEGER PRIMARY KEY, pid INTEGER, name TEXT, age INTEGER, email TEXT);' +
      'CREATE INDEX person_pid ON person(pid); CREATE INDEX person_email ON person(email);' +
      'CREATE TABLE knows (src INTEGER, dst INTEGER); CREATE INDEX knows_out ON knows(src, dst); CREATE INDEX knows_in ON knows(dst, src);',
  );
  const insertPerson = db.prepare('INSERT INTO person (pid, name, age, email) VALUES (?, ?, ?, ?)');
  const insertKnows = db.prepare('INSERT INTO knows (src, dst) VALUES (?, ?)');
  db.transaction(() => {
    for (let i = 0; i < PEOPLE; i++) insertPerson.run(i, `n${i}`, 20 + (i % 50), `u${i}@x.io`);
    const lines = fs.readFileSync(files.rels, 'utf8').split('\n');
    for (let l = 1; l < lines.length; l++) {
      const line = lines[l];
      if (line === '') continue;
      const comma = line.indexOf(',');
      insertKnows.run(Number(line.slice(0, comma)), Number(line.slice(comma + 1)));
    }
  })();
  return (async () => {
    if (wanted('G2a')) {
      record(
        'G2a',
        'raw',
        await time(N, (i) => {
          const id = PEOPLE + 10_000_000 + i;
          insertPerson.run(id, `m${i}`, 30, `m${id}@x.io`);
        }),
      );
    }
    if (wanted('G2b')) {
      const next = rng(11);
      const find = db.prepare('SELECT id FROM person WHERE pid = ?').pluck();
      record(
        'G2b',
        'raw',
        await time(N, () => {
          const a = find.get(Math.floor(next() * PEOPLE));
          const b = find.get(Math.floor(next() * PEOPLE));
          insertKnows.run(a, b);
        }),
      );
    }
    if (wanted('G2c')) {
      const ten = db.transaction((i: number) => {
        for (let s = 0; s < 10; s++) {
          const id = PEOPLE + 20_000_000 + i * 10 + s;
          insertPerson.run(id, `t${id}`, null, null);
        }
      });
      record('G2c', 'raw', await time(Math.ceil(N / 10), (i) => ten(i)));
    }
    if (wanted('G3')) {
      const batch = db.transaction((i: number) => {
        for (let r = 0; r < 1000; r++) {
          const id = PEOPLE + 30_000_000 + i * 1000 + r;
          insertPerson.run(id, `b${id}`, 40, `b${id}@x.io`);
        }
      });
      record('G3', 'raw', await time(Math.max(5, Math.ceil(N / 1000)), (i) => batch(i)));
    }
  })().finally(() => db.close());
}

const dir = fs.mkdtempSync(`${os.tmpdir()}/graphdb-writepath-`);
try {
  const files = writeCsv(dir);
  if (process.env.SKIP_RAW !== '1') await raw(dir, files);
  await engine(dir, files);
  const cell = (n: number | undefined): string => (n === undefined ? '-' : n.toFixed(1)).padStart(9);
  console.log(
    `op     ${['ours cpu', 'ours p50', 'raw cpu', 'raw p50', 'cpu ratio', 'p50 ratio'].map((h) => h.padStart(9)).join(' ')}  (µs per operation; ratio = raw / ours)`,
  );
  for (const [id, { ours, raw: limit }] of results) {
    const cpuRatio = ours && limit ? limit.cpuUs / ours.cpuUs : undefined;
    const p50Ratio = ours && limit ? limit.p50Us / ours.p50Us : undefined;
    console.log(
      `${id.padEnd(6)} ${[ours?.cpuUs, ours?.p50Us, limit?.cpuUs, limit?.p50Us].map(cell).join(' ')} ${(cpuRatio?.toFixed(2) ?? '-').padStart(9)} ${(p50Ratio?.toFixed(2) ?? '-').padStart(9)}`,
    );
  }
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
