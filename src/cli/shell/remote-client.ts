/**
 * The shell against a running server over Bolt, through neo4j-driver (loaded on demand: it is
 * only needed for `--address`).
 */
import { randomUUID } from 'node:crypto';
import { type ResultSummary, type QueryType, type CypherValue, valueText, graphError } from '../../engine/index.js';
import { BATCH_ROWS, collect, type ShellBatch, type ShellClient, type ShellResult, type ShellStream, type Vocabulary } from './client.js';
import {
  fromDriver,
  toDriver,
  type DriverLike,
  type DriverModule,
  type DriverRecord,
  type DriverSummary,
  type DriverSession,
  type DriverTransaction,
} from './remote-values.js';

const COUNTER_KEYS = [
  'nodesCreated',
  'nodesDeleted',
  'relationshipsCreated',
  'relationshipsDeleted',
  'propertiesSet',
  'labelsAdded',
  'labelsRemoved',
  'indexesAdded',
  'indexesRemoved',
  'constraintsAdded',
  'constraintsRemoved',
] as const;

/** Connects; throws a readable error when neo4j-driver is not installed or the server refuses. */
export async function connectRemote(address: string, user: string, password: string, database?: string): Promise<RemoteClient> {
  let module: DriverModule;
  try {
    module = ((await import('neo4j-driver')) as unknown as { default: DriverModule }).default;
  } catch {
    throw new Error('Remote mode needs the neo4j-driver package (npm install neo4j-driver).');
  }
  const driver = module.driver(address, module.auth.basic(user, password), { useBigInt: true, disableLosslessIntegers: true });
  try {
    await driver.verifyConnectivity();
  } catch (error) {
    await driver.close();
    throw asGraphError(error);
  }
  const client = new RemoteClient(module, driver, database);
  if (database === undefined) await client.resolveDefaultDatabase();
  return client;
}

function asGraphError(error: unknown): unknown {
  const e = error as { code?: unknown; message?: unknown };
  return typeof e?.code === 'string' && e.code.startsWith('Neo.') ? graphError(e.code, String(e.message)) : error;
}

/** Transaction metadata key that marks this shell's statements, so Ctrl-C can find and terminate them. */
const RUN_TAG = 'graphdb.shell';

/** ShellClient over Bolt. */
export class RemoteClient implements ShellClient {
  private session: DriverSession;
  private tx: DriverTransaction | null = null;
  private name: string;
  /** Tags this shell's transactions (in their metadata) for SHOW/TERMINATE TRANSACTIONS. */
  private readonly tag = `${process.pid}-${randomUUID()}`;
  private running = false;

  constructor(
    private readonly module: DriverModule,
    private readonly driver: DriverLike,
    database: string | undefined,
  ) {
    this.name = database ?? '';
    this.session = driver.session(database === undefined ? {} : { database });
  }

  /** Asks the server which database a session without one uses. */
  async resolveDefaultDatabase(): Promise<void> {
    const result = await this.session.run('RETURN 1');
    this.name = result.summary.database?.name ?? 'neo4j';
  }

  get database(): string {
    return this.name;
  }

  get inTransaction(): boolean {
    return this.tx !== null;
  }

  async run(query: string, parameters: ReadonlyMap<string, CypherValue>): Promise<ShellResult> {
    return collect(await this.stream(query, parameters));
  }

  /**
   * Runs a statement and reads its records as the server sends them. A batch holds the records
   * that arrived without waiting on the network (at most BATCH_ROWS), so rows print as they come.
   */
  async stream(query: string, parameters: ReadonlyMap<string, CypherValue>): Promise<ShellStream> {
    const params = Object.fromEntries([...parameters].map(([k, v]) => [k, toDriver(v, this.module.types)]));
    const result = this.tx !== null ? this.tx.run(query, params) : this.session.run(query, params, { metadata: { [RUN_TAG]: this.tag } });
    this.running = true;
    const finished = () => {
      this.running = false;
    };
    let keys: string[];
    try {
      keys = await result.keys();
    } catch (error) {
      finished();
      throw asGraphError(error);
    }
    const records = result[Symbol.asyncIterator]();
    let waiting: Promise<IteratorResult<DriverRecord>> | null = null;
    let summary: ResultSummary | null = null;
    const convert = (record: DriverRecord) => keys.map((_k, i) => fromDriver(record.get(i), this.module.types));
    const end = async (batch: (readonly CypherValue[])[]): Promise<ShellBatch> => {
      summary = this.summaryOf(await result.summary());
      finished();
      return { records: batch, done: true };
    };
    return {
      keys,
      next: async () => {
        const batch: (readonly CypherValue[])[] = [];
        try {
          const first = await (waiting ?? records.next());
          waiting = null;
          if (first.done === true) return await end(batch);
          batch.push(convert(first.value));
          while (batch.length < BATCH_ROWS) {
            const next = records.next();
            const arrived = await Promise.race([next, new Promise<null>((resolve) => setImmediate(resolve, null))]);
            if (arrived === null) {
              waiting = next;
              break;
            }
            if (arrived.done === true) return await end(batch);
            batch.push(convert(arrived.value));
          }
          return { records: batch, done: false };
        } catch (error) {
          finished();
          throw asGraphError(error);
        }
      },
      summary: () => {
        if (summary === null) throw new Error('The result was not read to its end');
        return summary;
      },
    };
  }

  private summaryOf(summary: DriverSummary): ResultSummary {
    const updates = summary.counters.updates();
    const counters = Object.fromEntries(COUNTER_KEYS.map((k) => [k, Number(updates[k] ?? 0)])) as unknown as ResultSummary['counters'];
    return {
      database: this.name,
      queryType: (summary.queryType ?? 'r') as QueryType,
      counters: {
        ...counters,
        systemUpdates: Number(summary.counters.systemUpdates?.() ?? 0),
        containsUpdates: summary.counters.containsUpdates(),
      },
      notifications: (summary.notifications ?? []).map((n) => ({
        code: n.code,
        title: n.title,
        description: n.description,
        severity: n.severity === 'WARNING' ? 'WARNING' : 'INFORMATION',
      })),
      resultAvailableAfter: Number(summary.resultAvailableAfter ?? 0),
      resultConsumedAfter: Number(summary.resultConsumedAfter ?? 0),
    };
  }

  async begin(): Promise<void> {
    if (this.tx !== null) throw new Error('There is already an open transaction');
    this.tx = this.session.beginTransaction({ metadata: { [RUN_TAG]: this.tag } });
  }

  async commit(): Promise<void> {
    if (this.tx === null) throw new Error('There is no open transaction to commit');
    const tx = this.tx;
    this.tx = null;
    await tx.commit().catch((e: unknown) => Promise.reject(asGraphError(e)));
  }

  async rollback(): Promise<void> {
    if (this.tx === null) throw new Error('There is no open transaction to rollback');
    const tx = this.tx;
    this.tx = null;
    await tx.rollback();
  }

  async use(database: string): Promise<void> {
    if (this.tx !== null) throw new Error('There is an open transaction. You need to close it before switching database');
    const next = this.driver.session({ database });
    try {
      await next.run('RETURN 1');
    } catch (error) {
      await next.close();
      throw asGraphError(error);
    }
    await this.session.close();
    this.session = next;
    this.name = database;
  }

  async vocabulary(): Promise<Vocabulary> {
    const column = async (query: string) => (await this.run(query, new Map())).records.map((r) => valueText(r[0]));
    return {
      labels: await column('CALL db.labels() YIELD label RETURN label'),
      types: await column('CALL db.relationshipTypes() YIELD relationshipType RETURN relationshipType'),
      propertyKeys: await column('CALL db.propertyKeys() YIELD propertyKey RETURN propertyKey'),
      procedures: await column('SHOW PROCEDURES YIELD name RETURN name'),
      functions: await column('SHOW FUNCTIONS YIELD name RETURN name'),
    };
  }

  /**
   * Terminates this shell's running transaction from a second session, as an operator would with
   * SHOW TRANSACTIONS / TERMINATE TRANSACTION (the statement fails with Transaction.Terminated).
   */
  async cancel(): Promise<void> {
    if (!this.running) return;
    const control = this.driver.session(this.name === '' ? {} : { database: this.name });
    try {
      const found = await control.run(
        `SHOW TRANSACTIONS YIELD transactionId, metaData WHERE metaData['${RUN_TAG}'] = $tag RETURN transactionId`,
        { tag: this.tag },
      );
      const ids = found.records.map((r) => String(r.get(0)));
      if (ids.length > 0) await control.run('TERMINATE TRANSACTIONS $ids', { ids });
    } catch (error) {
      throw asGraphError(error);
    } finally {
      await control.close();
    }
  }

  async close(): Promise<void> {
    if (this.tx !== null) await this.tx.rollback().catch(() => undefined);
    await this.session.close();
    await this.driver.close();
  }
}
