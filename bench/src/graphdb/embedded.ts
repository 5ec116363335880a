/**
 * graphdb embedded: the `GraphDB` facade from src/engine/index.ts driven through its Session, the
 * contract every edge uses (src/engine/session/types.ts).
 */
import type { Session } from '../../../src/engine/session/types.js';
import type { GraphSubject } from '../subject.js';
import { CypherSubject, type CypherConnection, type Params } from './cypher-subject.js';

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

/** The facade shape the bench relies on: `GraphDB.open({ dataDir })` and `db.session()`. */
interface GraphDBLike {
  session(options?: Record<string, unknown>): Session | Promise<Session>;
  close(): Promise<void> | void;
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

/** Opens graphdb in `dir` through the engine module's `GraphDB` export. */
export async function openEmbedded(engine: Record<string, unknown>, dir: string, startBolt: StartBolt | null): Promise<GraphSubject> {
  const db = await openGraphDB(engine, dir);
  const session = await db.session();
  const conn = new SessionConnection(session, async () => {
    await db.close();
  });
  const subject = new CypherSubject('graphdb embedded', 'ours', conn, 'GraphDB.open + Session.run; G1 imports through Cypher UNWIND in 2k-row transactions');
  if (startBolt) subject.serveBolt = () => serveBolt(startBolt, db);
  return subject;
}
