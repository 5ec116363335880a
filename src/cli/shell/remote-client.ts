/**
 * The shell against a running server over Bolt, through neo4j-driver (loaded on demand: it is
 * only needed for `--address`).
 */
import { randomUUID } from 'node:crypto';
import { GraphError, type ResultSummary, type QueryType, type CypherValue, valueText } from '../../engine/index.js';
import type { ShellClient, ShellResult, Vocabulary } from './client.js';
import {
  fromDriver,
  toDriver,
  type DriverLike,
  type DriverModule,
  type DriverResult,
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
  return typeof e?.code === 'string' && e.code.startsWith('Neo.') ? new GraphError(e.code, String(e.message)) : error;
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
    const params = Object.fromEntries([...parameters].map(([k, v]) => [k, toDriver(v, this.module.types)]));
    let result: DriverResult;
    try {
      this.running = true;
      result =
        this.tx !== null ? await this.tx.run(query, params) : await this.session.run(query, params, { metadata: { [RUN_TAG]: this.tag } });
    } catch (error) {
      throw asGraphError(error);
    } finally {
      this.running = false;
    }
    const keys = result.records[0]?.keys ?? [];
    const records = result.records.map((r) => keys.map((_k, i) => fromDriver(r.get(i), this.module.types)));
    return { keys, records, summary: this.summaryOf(result) };
  }

  private summaryOf(result: DriverResult): ResultSummary {
    const updates = result.summary.counters.updates();
    const counters = Object.fromEntries(COUNTER_KEYS.map((k) => [k, Number(updates[k] ?? 0)])) as unknown as ResultSummary['counters'];
    return {
      database: this.name,
      queryType: (result.summary.queryType ?? 'r') as QueryType,
      counters: {
        ...counters,
        systemUpdates: Number(result.summary.counters.systemUpdates?.() ?? 0),
        containsUpdates: result.summary.counters.containsUpdates(),
      },
      notifications: (result.summary.notifications ?? []).map((n) => ({
        code: n.code,
        title: n.title,
        description: n.description,
        severity: n.severity === 'WARNING' ? 'WARNING' : 'INFORMATION',
      })),
      resultAvailableAfter: Number(result.summary.resultAvailableAfter ?? 0),
      resultConsumedAfter: Number(result.summary.resultConsumedAfter ?? 0),
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
