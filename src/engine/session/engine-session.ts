/**
 * Session over the storage engine. Auto-commit statements open their own transaction (read or
 * write, chosen from the plan); explicit transactions (engine-transaction.ts) start on a snapshot
 * and take the write lock at their first write. Both run statements through the same runner, so
 * results are identical in both modes. Every transaction is registered with the engine's
 * TransactionRegistry while it runs (SHOW/TERMINATE TRANSACTIONS).
 */
import { StatusCodes, TransientError, graphError } from '../errors/index.js';
import { compositeAccessError } from './composite/composite-graphs.js';
import { LockOwner, LockWaitRequired } from '../mvcc/entity-locks.js';
import { lockingGuard } from '../storage/write-set.js';
import { waitForEntityLock } from './transaction-writes.js';
import type { DatabaseStore } from '../storage/database-store.js';
import type { WriteTransaction } from '../storage/write-transaction.js';
import type { CypherValue } from '../values/types.js';
import { Kind } from '../cypher/ast/index.js';
import type { Expression, Statement } from '../cypher/ast/index.js';
import type { StatementClock } from '../cypher/runtime/statement-clock.js';
import { TransactionClock, afterPendingSlices } from './transaction-clock.js';
import type { StatementResult } from './result-stream.js';
import { planFor } from './statement-execution.js';
import type { EngineServices } from './statement-execution.js';
import { runAdmin, runPlanned } from './statement-runner.js';
import { EngineTransaction, terminatedError } from './engine-transaction.js';
import { authorizeStatement } from './authorize-statement.js';
import { EMBEDDED_CLIENT, NO_METADATA, type TransactionHandle, type TransactionRegistry } from './transaction-registry.js';
import { sessionServices } from './session-services.js';
import { SYSTEM_DATABASE } from '../storage/index.js';
import { workerEligible } from './read-pool/eligibility.js';
import type { ReadPool } from './read-pool/read-pool.js';
import type { WorkerResult } from './read-pool/worker-result.js';
import { asOfFromMetadata, useAtOf, type AsOf } from './temporal-reads.js';
import { pointOfUse, runTemporalStatement } from './temporal-statement.js';
import type { QueryParameters, ResultStream, SecurityContext, Session, SessionOptions, Transaction, TransactionOptions } from './types.js';

/** What a session needs from the engine facade. */
export interface SessionHost {
  readonly services: EngineServices;
  readonly defaultDatabase: string;
  /** Default transaction timeout in ms (0 = none). */
  readonly defaultTimeoutMs: number;
  /** Idle time after which an open explicit transaction is rolled back, in ms (0 = none). */
  readonly idleTimeoutMs: number;
  /** Longest wait for an entity lock, in ms (Infinity: no limit). */
  readonly lockTimeoutMs: number;
  /** Bytes an explicit transaction's write set may hold. */
  readonly maxWriteSetBytes: number;
  store(name: string): DatabaseStore;
  /** True when `name` is a composite database or a constituent (reachable only from a session on the composite). */
  isCompositeName?(name: string): boolean;
  /** Parses and semantically checks a statement (cached by text). */
  compile(query: string, parameterNames: ReadonlySet<string>): Statement;
  bookmarkFor(database: string, version: bigint): string;
  /** The engine's running transactions (SHOW/TERMINATE TRANSACTIONS). */
  readonly transactions: TransactionRegistry;
  /** Read workers for auto-commit reads (absent: every statement runs on this thread). */
  readonly readPool?: ReadPool;
}

/** A result this session may have to end: streamed on this thread or from a read worker. */
type RunningResult = StatementResult | WorkerResult;

/** A session of either kind: on a standard database (EngineSession) or a composite one. */
export type DatabaseSession = Session & {
  /** Terminates the statement the session is running. */
  terminate(): void;
};

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

/** Normalizes edge parameters to a Map. */
export function parameterMap(parameters: QueryParameters | undefined): ReadonlyMap<string, CypherValue> {
  if (!parameters) return new Map();
  if (parameters instanceof Map) return parameters;
  return new Map(Object.entries(parameters as Record<string, CypherValue>));
}

/** The `performance.now()` deadline of a transaction started at `start` (`fallback` ms when no positive timeout is given; Infinity for none). */
export function deadlineOf(timeoutMs: number | undefined, fallback: number, start: number): number {
  const ms = timeoutMs && timeoutMs > 0 ? timeoutMs : fallback;
  return ms > 0 ? start + ms : Infinity;
}

/**
 * Compiled statements whose plan writes (and is not an administration command). Whether a
 * statement writes depends on its clauses and the procedures it calls, never on the catalog, and
 * the query cache compiles a new Statement when a procedure it calls changes; so an auto-commit
 * run of a known writer goes straight to the writer connection, without first opening a read
 * snapshot to plan on (every commit retires the snapshot, so that was a fresh one each time).
 */
const KNOWN_WRITES = new WeakSet<Statement>();

/** Fails the entity-lock wait of an auto-commit statement (set while it waits). */
interface LockWaitCancel {
  cancel: ((error: Error) => void) | null;
}

/** A session on one database. */
export class EngineSession implements Session {
  readonly database: string;
  private bookmark: string | null;
  private running: StatementClock | null = null;
  private open = true;
  /**
   * Lazily streaming results, discarded on close so their read snapshots are released. An array
   * compacted in place: a Set emptied by a delete is reallocated by V8 on every statement.
   */
  private readonly streaming: RunningResult[] = [];
  private readonly security: SecurityContext | undefined;
  private readonly options: SessionOptions;
  /** The engine services with SHOW/TERMINATE TRANSACTIONS bound to this session's user. */
  private readonly services: EngineServices;

  constructor(
    private readonly host: SessionHost,
    options: SessionOptions = {},
  ) {
    this.options = options;
    this.database = options.database ?? host.defaultDatabase;
    this.security = options.security;
    this.bookmark = options.bookmarks?.[options.bookmarks.length - 1] ?? null;
    this.services = sessionServices(host.services, host.transactions, options.security);
  }

  lastBookmark(): string | null {
    return this.bookmark;
  }

  /** Terminates the statement this session is running (it fails with Transaction.Terminated). */
  terminate(): void {
    this.running?.terminate();
  }

  /** Registers a transaction of this session; `onTerminate` interrupts it. */
  private register(
    database: string,
    explicit: boolean,
    metadata: TransactionOptions['metadata'],
    onTerminate: (reason: string) => void,
    query?: { text: string; parameters: ReadonlyMap<string, CypherValue> },
  ): TransactionHandle {
    const start = {
      database,
      username: this.security?.username ?? null,
      client: this.options.client ?? EMBEDDED_CLIENT,
      metadata: metadata ?? NO_METADATA,
      explicit,
      onTerminate,
    };
    return this.host.transactions.begin(start, query);
  }

  async run(query: string, parameters?: QueryParameters, options: TransactionOptions = {}): Promise<ResultStream> {
    this.assertOpen();
    const params = parameterMap(parameters);
    const statement = this.host.compile(query, new Set(params.keys()));
    const database = useTarget(statement, params) ?? this.database;
    if (database !== this.database && this.host.isCompositeName?.(database) === true) throw compositeAccessError(database, this.database);
    const store = this.host.store(database);
    const start = performance.now();
    const clock = new TransactionClock(deadlineOf(options.timeoutMs, this.host.defaultTimeoutMs, start));
    this.running = clock;
    let result: RunningResult | null = null;
    const lockWait: LockWaitCancel = { cancel: null };
    const onTerminate = (reason: string): void => {
      clock.terminate(reason);
      lockWait.cancel?.(terminatedError(reason));
      afterPendingSlices(async () => {
        if (result !== null && !result.finished) await result.fail(terminatedError(reason));
      });
    };
    const handle = this.register(store.name, false, options.metadata, onTerminate, { text: query, parameters: params });
    const end = (): void => handle.end();
    try {
      const asOf = await this.temporalPoint(statement, store, params, clock, options);
      result =
        asOf !== undefined
          ? await this.runTemporal(statement, store, params, clock, handle, asOf)
          : ((await this.runOnReadWorker(query, statement, store, params, clock, handle, lockWait)) ??
            (await this.runAutoCommit(statement, store, params, clock, options, handle, lockWait)));
      if (result.finished) end();
      return result;
    } catch (error) {
      end();
      throw handle.terminatedReason === null ? error : terminatedError(handle.terminatedReason);
    }
  }

  /**
   * The point in time an auto-commit statement reads at: its `USE ... AT` clause, or the
   * transaction options (`asOf`, or the `graphdb.asOfVersion` / `graphdb.asOfTime` metadata).
   */
  private async temporalPoint(
    statement: Statement,
    store: DatabaseStore,
    params: ReadonlyMap<string, CypherValue>,
    clock: StatementClock,
    options: TransactionOptions,
  ): Promise<AsOf | undefined> {
    const requested = options.asOf ?? asOfFromMetadata(options.metadata);
    const at = useAtOf(statement);
    if (at === null) return requested;
    if (requested !== undefined) {
      throw graphError(StatusCodes.InvalidRequest, 'A temporal transaction cannot run a statement with USE ... AT; use one or the other.');
    }
    const run = {
      services: this.services,
      security: this.security,
      compile: (query: string, names: ReadonlySet<string>) => this.host.compile(query, names),
    };
    return pointOfUse(run, at, store, params, clock);
  }

  /** A statement that reads the database as it was at `asOf` (read-only: writes are refused). */
  private async runTemporal(
    statement: Statement,
    store: DatabaseStore,
    params: ReadonlyMap<string, CypherValue>,
    clock: StatementClock,
    handle: TransactionHandle,
    asOf: AsOf,
  ): Promise<StatementResult> {
    const run = {
      services: this.services,
      security: this.security,
      compile: (query: string, names: ReadonlySet<string>) => this.host.compile(query, names),
    };
    return this.track(await runTemporalStatement(run, statement, store, params, clock, asOf, async () => handle.end()));
  }

  /**
   * An auto-commit read on a read worker, when the engine has a pool and the statement qualifies
   * (read-pool/eligibility.ts); null when it runs on this thread instead. Authorization and the
   * database's query limits apply as for statements run here.
   */
  private async runOnReadWorker(
    query: string,
    statement: Statement,
    store: DatabaseStore,
    params: ReadonlyMap<string, CypherValue>,
    clock: TransactionClock,
    handle: TransactionHandle,
    cancel: LockWaitCancel,
  ): Promise<WorkerResult | null> {
    const pool = this.host.readPool;
    if (pool === undefined || store.name === SYSTEM_DATABASE || !workerEligible(statement, this.services.functions)) return null;
    authorizeStatement(this.security, store.name, statement, this.services.admin.procedures);
    const admitted = this.services.admitQuery?.(store.name, clock);
    // A short reader of the committed version, as a read on this thread would take.
    const pin = store.readerRegistry.pin(store.version, 'short');
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      pin.release();
      admitted?.();
    };
    const finish = async (): Promise<void> => {
      release();
      handle.end();
    };
    try {
      const read = {
        database: store.name,
        file: store.file,
        query,
        parameters: params,
        deadline: clock.effectiveDeadline,
        transactionStart: Date.now(),
        cancel,
        pin,
      };
      const result = await pool.run(read, finish);
      if (result === null) release();
      else this.track(result);
      return result;
    } catch (error) {
      release();
      throw error;
    }
  }

  /** One auto-commit statement: a read on a snapshot, or a write under the write lock. */
  private async runAutoCommit(
    statement: Statement,
    store: DatabaseStore,
    params: ReadonlyMap<string, CypherValue>,
    clock: StatementClock,
    options: TransactionOptions,
    handle: TransactionHandle,
    lockWait: LockWaitCancel,
  ): Promise<StatementResult> {
    const services = this.services;
    if (KNOWN_WRITES.has(statement)) {
      authorizeStatement(this.security, store.name, statement, services.admin.procedures);
      return this.runWrite(statement, store, params, clock, options, handle, lockWait, Date.now());
    }
    const reader = store.beginRead();
    let plan;
    try {
      authorizeStatement(this.security, store.name, statement, services.admin.procedures);
      plan = planFor(statement, reader, services);
    } catch (error) {
      reader.close();
      throw error;
    }
    // The MVCC lifecycle's reader policy (maximum snapshot lifetime, hard expiry) stops the statement.
    reader.onCancel((error) => clock.terminate(error.message, error.code));
    const target = { database: store.name, reader, writer: null, transactionStart: Date.now() };
    const closeReader = async (): Promise<void> => {
      reader.close();
      handle.end();
    };
    if (plan.admin) {
      return runAdmin(plan, target, params, clock, services, closeReader);
    }
    if (!plan.writes) {
      return this.track(await runPlanned(plan, target, params, clock, services, closeReader));
    }
    reader.close();
    KNOWN_WRITES.add(statement);
    return this.runWrite(statement, store, params, clock, options, handle, lockWait, target.transactionStart);
  }

  /** An auto-commit write statement: attempts under the writer connection until no entity lock is in the way. */
  private async runWrite(
    statement: Statement,
    store: DatabaseStore,
    params: ReadonlyMap<string, CypherValue>,
    clock: StatementClock,
    options: TransactionOptions,
    handle: TransactionHandle,
    lockWait: LockWaitCancel,
    transactionStart: number,
  ): Promise<StatementResult> {
    if (options.mode === 'READ') {
      throw graphError(StatusCodes.ForbiddenDueToTransactionType, 'Writing in read access mode not allowed.');
    }
    const owner = new LockOwner(handle.id);
    const limits = { deadline: clock.deadline, lockTimeoutMs: this.host.lockTimeoutMs };
    try {
      for (;;) {
        try {
          return await this.runAutoCommitWrite(statement, store, params, clock, handle, owner, transactionStart);
        } catch (error) {
          if (!(error instanceof LockWaitRequired)) throw error;
          // Undone (nothing committed): wait for the entity without holding anything, then run it again.
          store.entityLocks.releaseAll(owner);
          await waitForEntityLock(store, owner, error.key, limits, handle, (cancel) => (lockWait.cancel = cancel));
          lockWait.cancel = null;
          clock.checkAlive();
        }
      }
    } finally {
      store.entityLocks.releaseAll(owner);
    }
  }

  /**
   * One attempt of an auto-commit write: under the writer connection for the statement only (idle
   * explicit transactions park), honouring the entity locks other transactions hold.
   */
  private async runAutoCommitWrite(
    statement: Statement,
    store: DatabaseStore,
    params: ReadonlyMap<string, CypherValue>,
    clock: StatementClock,
    handle: TransactionHandle,
    owner: LockOwner,
    transactionStart: number,
  ): Promise<StatementResult> {
    const services = this.services;
    handle.blocked(true);
    let tx: WriteTransaction;
    try {
      tx = await store.beginWrite();
    } finally {
      handle.blocked(false);
    }
    const guard = lockingGuard(store.entityLocks, owner);
    tx.guard = guard;
    tx.origin = handle.origin;
    handle.lockTaken();
    let version: bigint | null = null;
    try {
      clock.checkAlive();
      const writePlan = planFor(statement, tx, services);
      const writeTarget = {
        database: store.name,
        reader: tx,
        writer: tx,
        transactionStart,
        nextBatch: async () => {
          clock.checkAlive();
          version = await store.commitWrite(tx);
          store.entityLocks.releaseAll(owner);
          tx = await store.beginWrite();
          tx.guard = guard;
          tx.origin = handle.origin;
          return tx;
        },
      };
      return await runPlanned(
        writePlan,
        writeTarget,
        params,
        clock,
        services,
        async (error) => {
          if (error instanceof LockWaitRequired && version === null) {
            tx.rollback();
            return;
          }
          try {
            if (error !== null) tx.rollback();
            else {
              clock.checkAlive();
              version = await store.commitWrite(tx);
            }
          } finally {
            store.entityLocks.releaseAll(owner);
            handle.end();
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
      if (error instanceof LockWaitRequired && version !== null) {
        throw new TransientError(
          StatusCodes.LockAcquisitionTimeout,
          `CALL { ... } IN TRANSACTIONS met ${error.message} after committing earlier batches; it cannot wait without holding the database. Retry the statement.`,
        );
      }
      throw error;
    }
  }

  async beginTransaction(options: TransactionOptions = {}): Promise<Transaction> {
    this.assertOpen();
    const store = this.host.store(this.database);
    const start = performance.now();
    let transaction: EngineTransaction | null = null;
    const handle = this.register(store.name, true, options.metadata, (reason) => transaction?.terminate(reason));
    try {
      transaction = new EngineTransaction({
        services: this.services,
        store,
        database: this.database,
        mode: options.mode ?? 'WRITE',
        asOf: options.asOf ?? asOfFromMetadata(options.metadata),
        deadline: deadlineOf(options.timeoutMs, this.host.defaultTimeoutMs, start),
        idleTimeoutMs: this.host.idleTimeoutMs,
        lockTimeoutMs: this.host.lockTimeoutMs,
        maxWriteSetBytes: this.host.maxWriteSetBytes,
        security: this.security,
        handle,
        compile: (query, names) => this.host.compile(query, names),
        useTarget,
        isCompositeName: (name: string) => this.host.isCompositeName?.(name) === true,
        parameterMap,
        committed: (version) => {
          this.bookmark = this.host.bookmarkFor(this.database, version);
          return this.bookmark;
        },
        track: (clock) => (this.running = clock),
      });
    } catch (error) {
      handle.end();
      throw error;
    }
    return transaction;
  }

  async close(): Promise<void> {
    this.open = false;
    for (const result of this.streaming.splice(0)) if (!result.finished) await result.discard().catch(() => undefined);
  }

  private track<R extends RunningResult>(result: R): R {
    const streaming = this.streaming;
    let kept = 0;
    for (let i = 0; i < streaming.length; i++) {
      const old = streaming[i]!;
      if (!old.finished) streaming[kept++] = old;
    }
    if (kept < streaming.length) streaming.length = kept;
    if (!result.finished) streaming.push(result);
    return result;
  }

  private assertOpen(): void {
    if (!this.open) throw graphError(StatusCodes.InvalidRequest, 'The session is closed');
  }
}
