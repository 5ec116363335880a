/**
 * Child process of C1: the seeded social graph (`gen/social.ts`) is bulk-loaded into a source
 * database, exported with `exportGraph` as neo4j-admin CSV and as a Cypher script (not timed), and
 * both exports are imported with `importGraph` into fresh databases, each `rounds` times, CSV and
 * script alternating so that both see the same machine. Prints one JSON line: the wall and process
 * CPU milliseconds of every import, the progress calls of the script imports, and a digest of
 * each imported graph (labels, properties and endpoints of everything, ids left out).
 * Arguments: <dir> <persons> <relationships> <seed> <rounds> <src|dist>.
 */
import { createHash } from 'node:crypto';
import { rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateSocialGraph } from '../gen/social.js';
import { engineModule, type EngineSource } from '../graphdb/probe.js';

interface Summary {
  readonly completed: boolean;
  readonly nodes: number;
  readonly relationships: number;
  readonly errors: readonly unknown[];
}
interface Db {
  session(): {
    run(q: string): Promise<{ pull(n: number): Promise<{ records: unknown[][] }> }>;
    close(): Promise<void>;
  };
  close(): Promise<void>;
}
interface Transfer {
  importGraph: (db: Db, options: Record<string, unknown>) => Promise<Summary>;
  exportGraph: (db: Db, options: Record<string, unknown>) => Promise<{ nodes: number; relationships: number }>;
}

/** One timed import. */
export interface C1Import {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly progressCalls: number;
}

/** What the child prints. */
export interface C1Output {
  readonly pending?: string;
  readonly csv?: C1Import[];
  readonly script?: C1Import[];
  readonly scriptBytes?: number;
  readonly csvBytes?: number;
  readonly digests?: { readonly csv: string; readonly script: string };
  readonly counts?: { readonly nodes: number; readonly relationships: number };
}

const [dir, personsArg, relsArg, seedArg, roundsArg, source] = process.argv.slice(2);
const engineUrl = engineModule((source ?? 'src') as EngineSource, 'engine/index');
const transferUrl = engineModule((source ?? 'src') as EngineSource, 'engine/transfer/index');

function csvField(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}

/** A digest of the graph that ignores ids: every node's labels and properties, every relationship with its ends' `id`. */
async function digest(db: Db): Promise<string> {
  const session = db.session();
  const rows = async (q: string) => (await (await session.run(q)).pull(-1)).records.map((r) => JSON.stringify(r, bigints)).sort();
  const nodes = await rows('MATCH (n) RETURN labels(n), properties(n)');
  const rels = await rows('MATCH (a)-[r]->(b) RETURN a.id, type(r), properties(r), b.id');
  await session.close();
  return createHash('sha256').update(nodes.join('\n')).update('\n--\n').update(rels.join('\n')).digest('hex');
}

function bigints(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

async function main(): Promise<C1Output> {
  if (engineUrl === null || transferUrl === null) return { pending: 'the engine or transfer entry point does not exist' };
  const { GraphDB } = (await import(engineUrl)) as { GraphDB: { open(o: { dataDir: string; search: false }): Promise<Db> } };
  const { importGraph, exportGraph } = (await import(transferUrl)) as Transfer;
  const graph = generateSocialGraph(Number(seedArg), Number(personsArg), Number(relsArg));
  const people = [':ID,id:int,name,age:int,city,email,bio'];
  for (let i = 0; i < graph.persons; i++) {
    const p = graph.person(i);
    people.push(`${p.id},${p.id},${csvField(p.name)},${p.age},${csvField(p.city)},${csvField(p.email)},${csvField(p.bio)}`);
  }
  const edges = [':START_ID,:END_ID,weight:int'];
  for (let i = 0; i < graph.src.length; i++) edges.push(`${graph.src[i]},${graph.dst[i]},${i % 7}`);
  writeFileSync(join(dir, 'people.csv'), people.join('\n') + '\n');
  writeFileSync(join(dir, 'knows.csv'), edges.join('\n') + '\n');

  const sourceDb = await GraphDB.open({ dataDir: join(dir, 'source'), search: false });
  const loaded = await importGraph(sourceDb, {
    format: 'csv',
    inputs: [
      { file: join(dir, 'people.csv'), kind: 'nodes', labels: ['Person'] },
      { file: join(dir, 'knows.csv'), kind: 'relationships', type: 'KNOWS' },
    ],
  });
  if (!loaded.completed) throw new Error(`source import failed: ${JSON.stringify(loaded.errors.slice(0, 2))}`);
  const csvDir = join(dir, 'export-csv');
  const script = join(dir, 'export.cypher');
  await exportGraph(sourceDb, { format: 'csv', target: csvDir });
  await exportGraph(sourceDb, { format: 'cypher', target: script });
  await sourceDb.close();

  const csvInputs = [
    { file: join(csvDir, 'nodes.csv'), kind: 'nodes' },
    { file: join(csvDir, 'relationships.csv'), kind: 'relationships' },
  ];
  const timed = async (name: string, options: Record<string, unknown>, keep: boolean): Promise<C1Import & { digest?: string }> => {
    const dataDir = join(dir, name);
    const db = await GraphDB.open({ dataDir, search: false });
    let progressCalls = 0;
    const cpu = process.cpuUsage();
    const started = performance.now();
    const summary = await importGraph(db, { ...options, onProgress: () => progressCalls++, progressIntervalMs: 100 });
    const wallMs = performance.now() - started;
    const used = process.cpuUsage(cpu);
    if (!summary.completed) throw new Error(`${name} import failed: ${JSON.stringify(summary.errors.slice(0, 2))}`);
    const result = { wallMs, cpuMs: (used.user + used.system) / 1000, progressCalls, ...(keep ? { digest: await digest(db) } : {}) };
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
    return result;
  };
  const csv: C1Import[] = [];
  const scripts: C1Import[] = [];
  const digests = { csv: '', script: '' };
  const rounds = Number(roundsArg);
  for (let round = 0; round < rounds; round++) {
    const first = round === 0;
    const c = await timed(`csv-${round}`, { format: 'csv', inputs: csvInputs }, first);
    const s = await timed(`script-${round}`, { format: 'cypher', inputs: [{ file: script }] }, first);
    if (first) {
      digests.csv = c.digest!;
      digests.script = s.digest!;
    }
    csv.push({ wallMs: c.wallMs, cpuMs: c.cpuMs, progressCalls: c.progressCalls });
    scripts.push({ wallMs: s.wallMs, cpuMs: s.cpuMs, progressCalls: s.progressCalls });
  }
  return {
    csv,
    script: scripts,
    scriptBytes: statSync(script).size,
    csvBytes: statSync(csvInputs[0].file).size + statSync(csvInputs[1].file).size,
    digests,
    counts: { nodes: graph.persons, relationships: graph.src.length },
  };
}

console.log(JSON.stringify(await main()));
