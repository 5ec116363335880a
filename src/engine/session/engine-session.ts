/**
 * Session and Transaction over the storage engine. Auto-commit statements open their own
 * transaction (read or write, chosen from the plan); explicit transactions hold one storage
 * transaction for their whole life and run statements through the same runner, so results are
 * identical in both modes.
 */
import { randomUUID } from 'node:crypto';
import { GraphError, StatusCodes, TransactionTimedOut } from '../errors/index.js';
import type { DatabaseStore } from '../storage/database-store.js';
import type { ReadTransaction } from '../storage/snapshot-reader.js';
import type { WriteTransaction } from '../storage/write-transaction.js';
import type { CypherValue } from '../values/types.js';
import { Kind } from '../cypher/ast/index.js';
import type { Expression, Statement } from '../cypher/ast/index.js';
import { StatementClock } from '../cypher/runtime/statement-clock.js';
import type { LogicalOperator } from '../cypher/planner/logical/logical-operator.js';
import { childrenOf } from '../cypher/planner/plan-tree.js';
import { StatementResult } from './result-stream.js';
import { planFor } from './statement-execution.js';
import type { EngineServices } from './statement-execution.js';
import { runAdmin, runPlanned } from './statement-runner.js';
import { requiredPermissions } from '../auth/statement-permissions.js';
import type { AuthCommandRunner } from '../auth/commands/runner.js';
import type { StatementPlan } from '../cypher/planner/plan-statement.js';
import type { QueryParameters, ResultStream, SecurityContext, Session, SessionOptions, Transaction, TransactionOptions } from './types.js';

/** What a session needs from the engine facade. */
export interface SessionHost {
  readonly services: EngineServices;
  readonly defaultDatabase: string;
  /** Default transaction timeout in ms (0 = none). */
  readonly defaultTimeoutMs: number;
  store(name: string): DatabaseStore;
  /** Parses and semantically checks a statement (cached by text). */
  compile(query: string, parameterNames: ReadonlySet<string>): Statement;
  bookmarkFor(database: string, version: bigint): string;
  /** User/role administration commands (installed by the server when auth is enabled), or null. */
  authCommands?(): AuthCommandRunner | null;
}

/** The database a leading `USE name` clause selects (dotted names and `graph.byName('x')`), or null. */
export function useTarget(statement: Statement, parameters: ReadonlyMap<string, CypherValue>): string | null {
  const body = statement.body;
  const first = body.kind === Kind.SingleQuery ? body.clauses[0] : null;
  if (!first || first.kind !== Kind.Use) return null;
  const name = (e: Expression): string | null => {
    if (e.kind === Kind.Variable) return e.name;
    if (e.kind === Kind.PropertyAccess) {
      const base = name(e.object);
      return base === null ? null : `${base}.${e.property}`;
    }
    if (e.kind === Kind.FunctionCall && e.args.length === 1) {
      const arg = e.args[0]!;
      if (arg.kind === Kind.StringLiteral) return arg.value;
      if (arg.kind === Kind.Parameter) {
        const value = parameters.get(arg.name);
        return typeof value === 'string' ? value : null;
      }
    }
    return null;
  };
  return name(first.graph);
}

/** True when the plan contains `CALL { } IN TRANSACTIONS`. */
function hasBatchedSubquery(plan: LogicalOperator): boolean {
  if (plan.op === 'SubqueryApply' && plan.batchSize !== null) return true;
  return childrenOf(plan).some(hasBatchedSubquery);
}

/** Normalizes edge parameters to a Map. */
export function parameterMap(parameters: QueryParameters | undefined): ReadonlyMap<string, CypherValue> {
  if (!parameters) return new Map();
  if (parameters instanceof Map) return parameters;
  return new Map(Object.entries(parameters as Record<string, CypherValue>));
}

function deadlineOf(timeoutMs: number | undefined, fallback: number, start: number): number {
  const ms = timeoutMs && timeoutMs > 0 ? timeoutMs : fallback;
  return ms > 0 ? start + ms : Infinity;
}

/** Asks the security context for every permission the planned statement needs (throws Forbidden). */
function authorizePlan(security: SecurityContext | undefined, database: string, plan: StatementPlan): void {
  if (!security?.authorize) return;
  for (const permission of requiredPermissions(plan)) security.authorize(database, permission);
}

/** A session on one database. */
export class EngineSession implements Session {
  readonly database: string;
  private bookmark: string | null;
  private running: StatementClock | null = null;
  private open = true;
  /** Lazily streaming results, discarded on close so their read snapshots are released. */
  private readonly streaming = new Set<StatementResult>();
  private readonly security: SecurityContext | undefined;

  constructor(
    private readonly host: SessionHost,
    options: SessionOptions = {},
  ) {
    this.database = options.database ?? host.defaultDatabase;
    this.security = options.security;
    this.bookmark = options.bookmarks?.[options.bookmarks.length - 1] ?? null;
  }

  lastBookmark(): string | null {
    return this.bookmark;
  }

  /** Terminates the statement this session is running (it fails with Transaction.Terminated). */
  terminate(): void {
    this.running?.terminate();
  }

  async run(query: string, parameters?: QueryParameters, options: TransactionOptions = {}): Promise<ResultStream> {
    this.assertOpen();
    const params = parameterMap(parameters);
    const authCommands = this.host.authCommands?.() ?? null;
    if (authCommands !== null) {
      const administered = await authCommands(query, params, this.security);
      if (administered) return administered;
    }
    const statement = this.host.compile(query, new Set(params.keys()));
    const database = useTarget(statement, params) ?? this.database;
    const store = this.host.store(database);
    const start = performance.now();
    const clock = new StatementClock(deadlineOf(options.timeoutMs, this.host.defaultTimeoutMs, start));
    this.running = clock;
    const reader = store.beginRead();
    let plan;
    try {
      plan = planFor(statement, reader, this.host.services);
      authorizePlan(this.security, store.name, plan);
    } catch (error) {
      reader.close();
      throw error;
    }
    const target = { database: store.name, reader, writer: null, transactionStart: Date.now() };
    if (plan.admin) {
      return runAdmin(plan, target, params, clock, this.host.services, async () => reader.close());
    }
    if (!plan.writes) {
      return this.track(await runPlanned(plan, target, params, clock, this.host.services, async () => reader.close()));
    }
    reader.close();
    if (options.mode === 'READ') {
      throw new GraphError(StatusCodes.ForbiddenDueToTransactionType, 'Writing in read access mode not allowed.');
    }
    let tx = await store.beginWrite();
    let version: bigint | null = null;
    try {
      const writePlan = planFor(statement, tx, this.host.services);
      const writeTarget = {
        database: store.name,
        reader: tx,
        writer: tx,
        transactionStart: target.transactionStart,
        nextBatch: async () => {
          clock.checkAlive();
          version = tx.commit();
          tx = await store.beginWrite();
          return tx;
        },
      };
      return await runPlanned(
        writePlan,
        writeTarget,
        params,
        clock,
        this.host.services,
        async (error) => {
          if (error !== null) tx.rollback();
          else {
            clock.checkAlive();
            version = tx.commit();
          }
        },
        () => {
          if (version === null) return undefined;
          this.bookmark = this.host.bookmarkFor(store.name, version);
          return this.bookmark;
        },
      );
    } catch (error) {
      if (tx.isOpen) tx.rollback();
      throw error;
    }
  }

  async beginTransaction(options: TransactionOptions = {}): Promise<Transaction> {
    this.assertOpen();
    const store = this.host.store(this.database);
    const storage = options.mode === 'READ' ? store.beginRead() : await store.beginWrite();
    const start = performance.now();
    return new EngineTransaction(this.host, this.database, storage, deadlineOf(options.timeoutMs, this.host.defaultTimeoutMs, start), (version) => {
      this.bookmark = this.host.bookmarkFor(this.database, version);
      return this.bookmark;
    }, (clock) => (this.running = clock), this.security);
  }

  async close(): Promise<void> {
    this.open = false;
    for (const result of this.streaming) if (!result.finished) await result.discard().catch(() => undefined);
    this.streaming.clear();
  }

  private track(result: StatementResult): StatementResult {
    for (const old of this.streaming) if (old.finished) this.streaming.delete(old);
    if (!result.finished) this.streaming.add(result);
    return result;
  }

  private assertOpen(): void {
    if (!this.open) throw new GraphError(StatusCodes.InvalidRequest, 'The session is closed');
  }
}

/** An explicit transaction holding one storage transaction. */
export class EngineTransaction implements Transaction {
  readonly id = randomUUID();
  private current: StatementResult | null = null;
  private state: 'open' | 'committed' | 'rolledBack' = 'open';
  private readonly startedAt = Date.now();

  constructor(
    private readonly host: SessionHost,
    private readonly database: string,
    private readonly storage: ReadTransaction | WriteTransaction,
    private readonly deadline: number,
    private readonly committed: (version: bigint) => string,
    private readonly track: (clock: StatementClock) => void,
    private readonly security?: SecurityContext,
  ) {}

  get isOpen(): boolean {
    return this.state === 'open';
  }

  private get writer(): WriteTransaction | null {
    return 'commit' in this.storage ? this.storage : null;
  }

  async run(query: string, parameters?: QueryParameters): Promise<ResultStream> {
    this.assertOpen();
    await this.finishCurrent();
    const clock = new StatementClock(this.deadline);
    this.track(clock);
    try {
      clock.checkAlive();
      const params = parameterMap(parameters);
      const statement = this.host.compile(query, new Set(params.keys()));
      const used = useTarget(statement, params);
      if (used !== null && used.toLowerCase() !== this.database.toLowerCase()) {
        throw new GraphError(StatusCodes.InvalidRequest, `USE ${used} is not allowed in a transaction on database ${this.database}`);
      }
      const plan = planFor(statement, this.storage, this.host.services);
      authorizePlan(this.security, this.database, plan);
      if (hasBatchedSubquery(plan.plan)) {
        throw new GraphError(
          StatusCodes.InvalidRequest,
          "A query with 'CALL { ... } IN TRANSACTIONS' can only be executed in an implicit transaction, but tried to execute in an explicit transaction.",
        );
      }
      if (plan.admin) throw new GraphError(StatusCodes.ForbiddenDueToTransactionType, 'Database administration is not allowed in an explicit transaction.');
      const writer = this.writer;
      if (plan.writes && !writer) {
        throw new GraphError(StatusCodes.ForbiddenDueToTransactionType, 'Writing in read access mode not allowed.');
      }
      const savepoint = writer?.savepoint() ?? null;
      const target = { database: this.database, reader: this.storage, writer, transactionStart: this.startedAt };
      const result = await runPlanned(plan, target, params, clock, this.host.services, async (error) => {
        if (error === null) savepoint?.release();
        else await this.abort();
      });
      this.current = result;
      return result;
    } catch (error) {
      await this.abort();
      throw error;
    }
  }

  async commit(): Promise<string> {
    this.assertOpen();
    await this.finishCurrent();
    if (performance.now() > this.deadline) {
      await this.abort();
      throw new TransactionTimedOut();
    }
    this.state = 'committed';
    const writer = this.writer;
    if (!writer) {
      (this.storage as ReadTransaction).close();
      return this.committed(this.storage.version);
    }
    return this.committed(writer.commit());
  }

  async rollback(): Promise<void> {
    if (this.state !== 'open') return;
    if (this.current && !this.current.finished) await this.current.discard().catch(() => undefined);
    await this.abort();
  }

  private async finishCurrent(): Promise<void> {
    const current = this.current;
    this.current = null;
    if (current && !current.finished) await current.discard();
  }

  private async abort(): Promise<void> {
    if (this.state !== 'open') return;
    this.state = 'rolledBack';
    const writer = this.writer;
    if (writer) writer.rollback();
    else (this.storage as ReadTransaction).close();
  }

  private assertOpen(): void {
    if (this.state !== 'open') {
      throw new GraphError(StatusCodes.TransactionNotFound, 'The transaction is no longer open (it was committed, rolled back or failed).');
    }
  }
}
