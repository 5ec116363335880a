/**
 * An explicit transaction. It starts as a reader on a snapshot; its first updating statement
 * starts a write set (session/transaction-writes.ts), kept in memory between statements and
 * applied on the writer connection only while a statement runs or the transaction commits, so a
 * client that thinks between statements blocks no other writer. From its first write on, each
 * statement reads the latest committed state plus its own writes (read committed, as Neo4j),
 * and each written entity stays locked until commit. See docs/transactions.md.
 */
import { StatusCodes, TransactionTimedOut, GraphError, graphError } from '../errors/index.js';
import type { DatabaseStore } from '../storage/database-store.js';
import { compositeAccessError } from './composite/composite-graphs.js';
import type { ReadTransaction } from '../storage/snapshot-reader.js';
import type { WriteTransaction } from '../storage/write-transaction.js';
import { LockWaitRequired } from '../mvcc/entity-locks.js';
import { TransactionWrites, type WriteLimits } from './transaction-writes.js';
import type { StatementClock } from '../cypher/runtime/statement-clock.js';
import { TransactionClock, afterPendingSlices } from './transaction-clock.js';
import type { LogicalOperator } from '../cypher/planner/logical/logical-operator.js';
import { childrenOf } from '../cypher/planner/plan-tree.js';
import type { StatementPlan } from '../cypher/planner/plan-statement.js';
import { authorizeStatement } from './authorize-statement.js';
import type { StatementResult } from './result-stream.js';
import { planFor } from './statement-execution.js';
import type { EngineServices } from './statement-execution.js';
import { runAdmin, runPlanned } from './statement-runner.js';
import type { TransactionHandle } from './transaction-registry.js';
import type { Statement } from '../cypher/ast/index.js';
import type { CypherValue } from '../values/types.js';
import type { AccessMode, QueryParameters, ResultStream, SecurityContext, Transaction } from './types.js';
import { openTemporalReader, temporalWriteRefused, useAtOf, type AsOf } from './temporal-reads.js';
import { pointOfUse, runTemporalStatement } from './temporal-statement.js';

/** The error every statement and the commit of a terminated transaction fail with. */
export function terminatedError(reason: string): GraphError {
  return graphError(
    StatusCodes.TransactionTerminated,
    `The transaction has been terminated. Retry your operation in a new transaction, and you should see a successful result. ${reason}`,
  );
}

/** True when the plan contains `CALL { } IN TRANSACTIONS`. */
export function hasBatchedSubquery(plan: LogicalOperator): boolean {
  if (plan.op === 'SubqueryApply' && plan.batchSize !== null) return true;
  return childrenOf(plan).some(hasBatchedSubquery);
}

/** What an explicit transaction needs from its session. */
export interface TransactionContext {
  readonly services: EngineServices;
  readonly store: DatabaseStore;
  readonly database: string;
  readonly mode: AccessMode;
  /** Set for a temporal transaction: it reads the database as it was at this point and cannot write. */
  readonly asOf?: AsOf;
  /** `performance.now()` deadline (Infinity for none). */
  readonly deadline: number;
  /** Milliseconds the transaction may stay idle between statements before it is rolled back (0: no limit). */
  readonly idleTimeoutMs: number;
  /** Longest wait for an entity lock, in ms (Infinity: no limit). */
  readonly lockTimeoutMs: number;
  /** Bytes the write set may hold. */
  readonly maxWriteSetBytes: number;
  readonly security: SecurityContext | undefined;
  readonly handle: TransactionHandle;
  compile(query: string, parameterNames: ReadonlySet<string>): Statement;
  useTarget(statement: Statement, parameters: ReadonlyMap<string, CypherValue>): string | null;
  /** True when `name` is a composite database or a constituent (refused from a transaction on a standard database). */
  isCompositeName?(name: string): boolean;
  parameterMap(parameters: QueryParameters | undefined): ReadonlyMap<string, CypherValue>;
  /** Records the bookmark of a commit and returns it. */
  committed(version: bigint): string;
  /** The clock of the statement now running (the session's terminate() interrupts it). */
  track(clock: StatementClock): void;
}

/** An explicit transaction: a snapshot reader until its first write, then the database's writer. */
export class EngineTransaction implements Transaction {
  readonly id: string;
  private current: StatementResult | null = null;
  private state: 'open' | 'committed' | 'rolledBack' = 'open';
  private readonly startedAt = Date.now();
  /** The snapshot statements read until the first write (null from then on). */
  private snapshot: ReadTransaction | null;
  /** The write set, from the first updating statement on. */
  private writes: TransactionWrites | null = null;
  /** Fails the entity-lock wait in progress (termination). */
  private cancelLockWait: ((error: Error) => void) | null = null;
  private clock: StatementClock | null = null;
  /** True while `run()` is between its start and the statement's result (or error). */
  private executing = false;
  /** Administration commands of this transaction, run in order at commit (as Neo4j, never mixed with queries). */
  private readonly adminCommands: { readonly plan: StatementPlan; readonly parameters: ReadonlyMap<string, CypherValue> }[] = [];
  /** True once a query (anything but an administration command) ran in this transaction. */
  private ranQuery = false;

  /** Fires when the transaction has been idle too long or passed its deadline (null while a statement runs). */
  private expiry: NodeJS.Timeout | null = null;

  /** Set when the MVCC lifecycle cancelled the snapshot (SnapshotExpired): every later operation fails with it. */
  private expired: GraphError | null = null;

  constructor(private readonly context: TransactionContext) {
    this.id = context.handle.id;
    this.snapshot = context.asOf === undefined ? context.store.beginRead('long') : openTemporalReader(context.store, context.asOf);
    this.snapshot.onCancel((error) => this.expire(error));
    this.armExpiry();
  }

  /**
   * While no statement runs, the transaction is bounded by its idle timeout and its deadline: when
   * either passes it is terminated (rolled back, its snapshot, locks and write set freed at once), so
   * an abandoned client holds nothing for longer than the configured time.
   */
  private armExpiry(): void {
    this.disarmExpiry();
    if (this.state !== 'open') return;
    const ctx = this.context;
    const untilDeadline = ctx.deadline - performance.now();
    const idle = ctx.idleTimeoutMs > 0 ? ctx.idleTimeoutMs : Infinity;
    const wait = Math.min(untilDeadline, idle);
    if (!Number.isFinite(wait)) return;
    const timedOut = untilDeadline <= idle;
    this.expiry = setTimeout(
      () => {
        this.expiry = null;
        ctx.handle.terminate(
          timedOut
            ? 'The transaction has not completed within the specified timeout (db.transaction.timeout).'
            : `The transaction has been idle for more than ${ctx.idleTimeoutMs} ms (server.transaction_idle_timeout) and was rolled back.`,
        );
      },
      Math.max(0, wait),
    );
    this.expiry.unref();
  }

  private disarmExpiry(): void {
    if (this.expiry !== null) clearTimeout(this.expiry);
    this.expiry = null;
  }

  get isOpen(): boolean {
    return this.state === 'open';
  }

  /** True once the transaction has a write set (its first updating statement). */
  get holdsWriteLock(): boolean {
    return this.writes !== null;
  }

  async run(query: string, parameters?: QueryParameters): Promise<ResultStream> {
    this.assertOpen();
    this.disarmExpiry();
    try {
      return await this.runStatement(query, parameters);
    } finally {
      this.armExpiry();
    }
  }

  private async runStatement(query: string, parameters?: QueryParameters): Promise<ResultStream> {
    await this.finishCurrent();
    this.assertOpen();
    const ctx = this.context;
    const clock = new TransactionClock(ctx.deadline);
    this.clock = clock;
    ctx.track(clock);
    this.executing = true;
    const params = ctx.parameterMap(parameters);
    ctx.handle.queryStarted(query, params);
    try {
      clock.checkAlive();
      const statement = ctx.compile(query, new Set(params.keys()));
      const used = ctx.useTarget(statement, params);
      if (used !== null && ctx.isCompositeName?.(used) === true) throw compositeAccessError(used, ctx.database);
      if (used !== null && used.toLowerCase() !== ctx.database.toLowerCase()) {
        throw graphError(StatusCodes.InvalidRequest, `USE ${used} is not allowed in a transaction on database ${ctx.database}`);
      }
      const at = useAtOf(statement);
      if (at !== null) {
        if (ctx.asOf !== undefined) {
          throw graphError(
            StatusCodes.InvalidRequest,
            'A temporal transaction cannot run a statement with USE ... AT; use one or the other.',
          );
        }
        const asOf = await pointOfUse(ctx, at, ctx.store, params, clock);
        const result = await runTemporalStatement(ctx, statement, ctx.store, params, clock, asOf, this.statementFinisher());
        this.current = result;
        return result;
      }
      authorizeStatement(ctx.security, ctx.database, statement, ctx.services.admin.procedures);
      const plan = this.writes === null ? planFor(statement, this.snapshot!, ctx.services) : null;
      if (plan !== null) {
        this.checkPlan(plan);
        if (plan.admin && ctx.asOf !== undefined) throw temporalWriteRefused(ctx.asOf);
        if (plan.admin) return await this.queueAdmin(plan, params, clock);
        if (plan.writes && plan.explain !== 'EXPLAIN') {
          if (ctx.asOf !== undefined) throw temporalWriteRefused(ctx.asOf);
          if (ctx.mode === 'READ') throw graphError(StatusCodes.ForbiddenDueToTransactionType, 'Writing in read access mode not allowed.');
          this.writes = new TransactionWrites(ctx.store, ctx.handle, this.writeLimits());
        }
      }
      const writes = this.writes;
      if (writes === null) {
        const target = { database: ctx.database, reader: this.snapshot!, writer: null, transactionStart: this.startedAt };
        const result = await runPlanned(plan!, target, params, clock, ctx.services, this.statementFinisher());
        this.current = result;
        return result;
      }
      const result = await this.runWriting(writes, statement, params, clock);
      this.current = result;
      writes.idle();
      return result;
    } catch (error) {
      await this.abort();
      throw this.terminationOr(error);
    } finally {
      this.executing = false;
    }
  }

  /** Refuses what an explicit transaction cannot run (batched subqueries, queries after admin commands); privileges were checked on the statement. */
  private checkPlan(plan: StatementPlan): void {
    if (hasBatchedSubquery(plan.plan)) {
      throw graphError(
        StatusCodes.InvalidRequest,
        "A query with 'CALL { ... } IN TRANSACTIONS' can only be executed in an implicit transaction, but tried to execute in an explicit transaction.",
      );
    }
    if (plan.admin) return;
    if (this.adminCommands.length > 0) {
      throw graphError(
        StatusCodes.ForbiddenDueToTransactionType,
        'Tried to execute a query after executing an administration command in the same transaction.',
      );
    }
    this.ranQuery = true;
  }

  private writeLimits(): WriteLimits {
    const ctx = this.context;
    return { deadline: ctx.deadline, lockTimeoutMs: ctx.lockTimeoutMs, maxWriteSetBytes: ctx.maxWriteSetBytes };
  }

  /** The end of a statement: frees its registry entry; an error (other than a lock wait) rolls the transaction back. */
  private statementFinisher(): (error: unknown) => Promise<void> {
    return async (error) => {
      if (error instanceof LockWaitRequired) return;
      this.context.handle.queryFinished();
      if (error !== null) await this.abort();
    };
  }

  /**
   * Runs a statement on the writer connection with the write set applied (reads included, run
   * to completion so nothing stays open on the connection between client round trips). When a
   * write meets an entity lock of another transaction, the statement is undone, the lock
   * awaited without holding the connection, and the statement run again on the latest state.
   */
  private async runWriting(
    writes: TransactionWrites,
    statement: Statement,
    params: ReadonlyMap<string, CypherValue>,
    clock: StatementClock,
  ): Promise<StatementResult> {
    const ctx = this.context;
    for (;;) {
      const writer = await writes.activate(clock, () => this.state === 'open');
      if (this.snapshot !== null) {
        this.snapshot.close();
        this.snapshot = null;
      }
      const plan = planFor(statement, writer, ctx.services);
      this.checkPlan(plan);
      const mark = writes.mark();
      const target = { database: ctx.database, reader: writer, writer, transactionStart: this.startedAt, runToCompletion: true };
      try {
        return await runPlanned(plan, target, params, clock, ctx.services, this.statementFinisher());
      } catch (error) {
        if (!(error instanceof LockWaitRequired)) throw error;
        await writes.waitForLock(error.key, mark, (cancel) => (this.cancelLockWait = cancel));
        this.cancelLockWait = null;
        clock.checkAlive();
      }
    }
  }

  async commit(): Promise<string> {
    this.assertOpen();
    this.disarmExpiry();
    await this.finishCurrent();
    this.assertOpen();
    if (performance.now() > this.context.deadline) {
      await this.abort();
      throw new TransactionTimedOut();
    }
    if (this.adminCommands.length > 0) {
      try {
        await this.runQueuedAdmin();
      } catch (error) {
        await this.abort();
        throw this.terminationOr(error);
      }
    }
    this.state = 'committed';
    this.context.handle.closing();
    try {
      const writes = this.writes;
      if (writes === null) {
        const snapshot = this.snapshot!;
        this.snapshot = null;
        snapshot.close();
        // A temporal transaction read an older version: the session's bookmark stays at the latest state.
        return this.context.committed(this.context.asOf === undefined ? snapshot.version : this.context.store.version);
      }
      return this.context.committed(await writes.commit(new TransactionClock(this.context.deadline), () => true));
    } finally {
      this.context.handle.end();
    }
  }

  async rollback(): Promise<void> {
    if (this.state !== 'open') return;
    if (this.current && !this.current.finished) await this.current.discard().catch(() => undefined);
    await this.abort();
  }

  /**
   * Terminates the transaction (TERMINATE TRANSACTIONS): a statement that is running fails at its
   * next row check or time slice and rolls the transaction back; an idle transaction (a streaming
   * result waiting for its next pull included) is rolled back right after, releasing its snapshot
   * and write lock. Later statements and the commit fail with Transaction.Terminated.
   */
  terminate(reason: string): void {
    if (this.state !== 'open') return;
    this.clock?.terminate(reason);
    this.cancelLockWait?.(terminatedError(reason));
    if (this.executing) return;
    afterPendingSlices(async () => {
      const current = this.current;
      if (current && !current.finished) await current.fail(terminatedError(reason)).catch(() => undefined);
      await this.abort();
    });
  }

  /**
   * The MVCC lifecycle cancelled this transaction's snapshot (maximum snapshot lifetime, hard
   * expiry): like a termination, but every later statement and the commit fail with `error`
   * (a TransientError, so drivers retry the transaction).
   */
  private expire(error: GraphError): void {
    if (this.state !== 'open' || this.expired !== null) return;
    this.expired = error;
    this.clock?.terminate(error.message);
    this.cancelLockWait?.(error);
    if (this.executing) return;
    afterPendingSlices(async () => {
      const current = this.current;
      if (current && !current.finished) await current.fail(error).catch(() => undefined);
      await this.abort();
    });
  }

  /**
   * Accepts an administration command: it runs at commit (so a rollback drops it), and the
   * transaction may hold only administration commands, like Neo4j's system transactions.
   */
  private async queueAdmin(
    plan: StatementPlan,
    parameters: ReadonlyMap<string, CypherValue>,
    clock: StatementClock,
  ): Promise<ResultStream> {
    if (this.ranQuery) {
      throw graphError(
        StatusCodes.ForbiddenDueToTransactionType,
        'Tried to execute an administration command after executing a query in the same transaction.',
      );
    }
    this.adminCommands.push({ plan, parameters });
    const ctx = this.context;
    const result = await runAdmin(plan, this.adminTarget(), parameters, clock, ctx.services, async () => ctx.handle.queryFinished(), false);
    this.current = result;
    return result;
  }

  /** Where administration commands run: this transaction's snapshot (they commit in `system` themselves). */
  private adminTarget(): { database: string; reader: ReadTransaction | WriteTransaction; writer: null; transactionStart: number } {
    return { database: this.context.database, reader: this.snapshot!, writer: null, transactionStart: this.startedAt };
  }

  /** Runs the queued administration commands in order (each commits in the system database). */
  private async runQueuedAdmin(): Promise<void> {
    const ctx = this.context;
    for (const { plan, parameters } of this.adminCommands.splice(0)) {
      const result = await runAdmin(
        plan,
        this.adminTarget(),
        parameters,
        new TransactionClock(ctx.deadline),
        ctx.services,
        async () => undefined,
      );
      await result.discard();
    }
  }

  private async finishCurrent(): Promise<void> {
    const current = this.current;
    this.current = null;
    if (current && !current.finished) await current.discard();
  }

  private async abort(): Promise<void> {
    if (this.state !== 'open') return;
    this.state = 'rolledBack';
    this.disarmExpiry();
    this.context.handle.closing();
    try {
      this.writes?.rollback();
      this.snapshot?.close();
      this.snapshot = null;
    } finally {
      this.context.handle.end();
    }
  }

  /** The termination error when the transaction was terminated, else `error`. */
  private terminationOr(error: unknown): unknown {
    if (this.expired !== null) return this.expired;
    const reason = this.context.handle.terminatedReason;
    return reason === null ? error : terminatedError(reason);
  }

  private assertOpen(): void {
    if (this.expired !== null) throw this.expired;
    const reason = this.context.handle.terminatedReason;
    if (reason !== null) throw terminatedError(reason);
    if (this.state !== 'open') {
      throw graphError(StatusCodes.TransactionNotFound, 'The transaction is no longer open (it was committed, rolled back or failed).');
    }
  }
}
