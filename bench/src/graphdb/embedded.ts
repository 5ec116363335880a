/**
 * graphdb embedded: the `GraphDB` facade from src/engine/index.ts driven through its Session, the
 * contract every edge uses (src/engine/session/types.ts).
 */
import { writeFileSync } from 'node:fs';
import type { Session } from '../../../src/engine/session/types.js';
import type { SocialGraph } from '../gen/social.js';
import type { GraphSubject } from '../subject.js';
import { CypherSubject, QUERIES, type CypherConnection, type Params } from './cypher-subject.js';

/** Converts bench parameters (plain objects, Maps, bigints, arrays) to the engine's value model. */
function toCypher(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toCypher);
  if (value instanceof Map) return new Map([...value].map(([k, v]) => [k, toCypher(v)]));
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  return value;
}

function toParams(params: Params | undefined): Map<string, never> {
  return new Map(Object.entries(params ?? {}).map(([k, v]) => [k, toCypher(v) as never]));
}

async function allRows(stream: Awaited<ReturnType<Session['run']>>): Promise<unknown[][]> {
  const rows: unknown[][] = [];
  for (;;) {
    const { records, hasMore } = await stream.pull(-1);
    for (const r of records) rows.push([...r]);
    if (!hasMore) return rows;
  }
}

function operatorNames(plan: { operatorType: string; children: readonly unknown[] } | undefined): string[] {
  if (!plan) return ['no plan in the summary'];
  const out = [plan.operatorType];
  for (const c of plan.children) out.push(...operatorNames(c as typeof plan));
  return out;
}

/** A CypherConnection over an engine Session. */
export class SessionConnection implements CypherConnection {
  constructor(
    private readonly session: Session,
    private readonly onClose: () => Promise<void>,
  ) {}

  async run(query: string, params?: Params): Promise<unknown[][]> {
    return allRows(await this.session.run(query, toParams(params)));
  }

  async inTransaction(statements: readonly (readonly [string, Params])[]): Promise<void> {
    const tx = await this.session.beginTransaction({ mode: 'WRITE' });
    try {
      for (const [q, p] of statements) await allRows(await tx.run(q, toParams(p)));
      await tx.commit();
    } catch (e) {
      if (tx.isOpen) await tx.rollback();
      throw e;
    }
  }

  async explain(query: string, params?: Params): Promise<string[]> {
    const stream = await this.session.run(`EXPLAIN ${query}`, toParams(params));
    await allRows(stream);
    return operatorNames(stream.summary().plan);
  }

  async close(): Promise<void> {
    await this.session.close();
    await this.onClose();
  }
}

/** What `GraphDB.importFiles` (the `graphdb import` bulk loader path) takes and returns, as far as the bench uses it. */
interface ImportFilesLike {
  (options: { format: 'csv'; inputs: { file: string; kind: 'nodes' | 'relationships'; labels?: string[]; type?: string }[] }): Promise<{
    completed: boolean;
    nodes: number;
    relationships: number;
    errors: readonly { file: string; line: number; message: string }[];
  }>;
}

/** The facade shape the bench relies on: `GraphDB.open({ dataDir })` and `db.session()`. */
interface GraphDBLike {
  session(options?: Record<string, unknown>): Session | Promise<Session>;
  close(): Promise<void> | void;
  importFiles?: ImportFilesLike;
}

/**
 * Longest a single bench statement may run in graphdb (its own transaction timeout), so a runaway
 * query is reported as a failure instead of stalling the run. Override with GRAPHDB_BENCH_QUERY_TIMEOUT_MS.
 */
export const QUERY_TIMEOUT_MS = Number(process.env['GRAPHDB_BENCH_QUERY_TIMEOUT_MS'] ?? 30_000);

/** `startBoltServer` from src/server/bolt, when it exists. */
export type StartBolt = (options: { port: number; host: string; engine: GraphDBLike; websocket?: boolean }) => Promise<{
  readonly port: number;
  close(): Promise<void>;
}>;

/** Opens the engine's GraphDB on `dir`. */
export async function openGraphDB(engine: Record<string, unknown>, dir: string): Promise<GraphDBLike> {
  const GraphDB = engine['GraphDB'] as {
    open?: (options: { dataDir: string; transactionTimeoutMs: number }) => GraphDBLike | Promise<GraphDBLike>;
  };
  if (typeof GraphDB.open !== 'function') throw new Error('GraphDB.open({ dataDir }) is not available');
  return GraphDB.open({ dataDir: dir, transactionTimeoutMs: QUERY_TIMEOUT_MS });
}

/** Serves an open GraphDB over Bolt on 127.0.0.1 and an ephemeral port. */
export async function serveBolt(startBolt: StartBolt, db: GraphDBLike): Promise<{ port: number; stop(): Promise<void> }> {
  const server = await startBolt({ port: 0, host: '127.0.0.1', engine: db, websocket: false });
  return { port: server.port, stop: () => server.close() };
}

function csvField(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}

/**
 * graphdb embedded. G1 loads like Kuzu's COPY: `prepareImport` writes neo4j-admin CSV files (not
 * timed), `load` creates the email/id indexes and runs `db.importFiles` (CSV parsing, id mapping,
 * the storage bulk loader, index builds and the commit are timed). Without `importFiles` (an
 * older checkout) it falls back to Cypher UNWIND batches.
 */
class EmbeddedSubject extends CypherSubject {
  private files: { nodes: string; rels: string } | null = null;

  constructor(
    conn: CypherConnection,
    private readonly db: GraphDBLike,
    private readonly dir: string,
  ) {
    super(
      'graphdb embedded',
      'ours',
      conn,
      db.importFiles
        ? 'GraphDB.open + Session.run; G1: db.importFiles from neo4j-admin CSV (bulk loader; CSV writing not timed, parsing and index builds timed, like Kuzu COPY)'
        : 'GraphDB.open + Session.run; G1 imports through Cypher UNWIND in 2k-row transactions',
    );
  }

  /** Writes the CSV inputs of the import (not part of the timed load). */
  prepareImport(graph: SocialGraph): void {
    if (!this.db.importFiles) return;
    const people: string[] = [':ID,id:int,name,age:int,city,email,bio'];
    for (let i = 0; i < graph.persons; i++) {
      const p = graph.person(i);
      people.push(`${p.id},${p.id},${csvField(p.name)},${p.age},${csvField(p.city)},${csvField(p.email)},${csvField(p.bio)}`);
    }
    const edges: string[] = [':START_ID,:END_ID'];
    for (let i = 0; i < graph.src.length; i++) edges.push(`${graph.src[i]},${graph.dst[i]}`);
    this.files = { nodes: `${this.dir}-person.csv`, rels: `${this.dir}-knows.csv` };
    writeFileSync(this.files.nodes, people.join('\n') + '\n');
    writeFileSync(this.files.rels, edges.join('\n') + '\n');
  }

  override async load(graph: SocialGraph): Promise<void> {
    if (!this.db.importFiles || this.files === null) return super.load(graph);
    await this.run(QUERIES.indexEmail);
    await this.run(QUERIES.indexId);
    const summary = await this.db.importFiles({
      format: 'csv',
      inputs: [
        { file: this.files.nodes, kind: 'nodes', labels: ['Person'] },
        { file: this.files.rels, kind: 'relationships', type: 'KNOWS' },
      ],
    });
    if (!summary.completed) throw new Error(`import failed: ${JSON.stringify(summary.errors.slice(0, 3))}`);
  }
}

/** Opens graphdb in `dir` through the engine module's `GraphDB` export. */
export async function openEmbedded(engine: Record<string, unknown>, dir: string, startBolt: StartBolt | null): Promise<GraphSubject> {
  const db = await openGraphDB(engine, dir);
  const session = await db.session();
  const conn = new SessionConnection(session, async () => {
    await db.close();
  });
  const subject = new EmbeddedSubject(conn, db, dir);
  if (startBolt) subject.serveBolt = () => serveBolt(startBolt, db);
  return subject;
}
