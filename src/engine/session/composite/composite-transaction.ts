/**
 * A transaction on a composite database (auto-commit statements run in one too, so both modes
 * give the same results). It reads each constituent it touches on a snapshot of the constituent's
 * database, taken at first use and kept until the end, and writes at most one constituent: the
 * first write opens that database's write set (session/transaction-writes.ts, as an explicit
 * transaction of a standard database does); a write to a second one fails with Neo4j's
 * `Statement.AccessMode` error.
 *
 * A statement whose leading `USE composite.alias` names a constituent runs wholly on it. Any
 * other statement runs on the composite itself: its parts outside `USE` see no graph (any graph
 * access fails), and each `CALL { USE ... }` subquery or UNION part runs on the constituent it
 * selects (runtime/operators/graph-apply.ts). Statements run to completion before their result
 * is returned. See docs/composite-databases.md.
 */
import { StatusCodes, TransactionTimedOut, graphError, SemanticError, type GraphError } from '../../errors/index.js';
import { constituentName, type ConstituentEntry } from '../../catalog/composite-catalog.js';
import type { DatabaseDirectory } from '../../catalog/database-directory.js';
import type { Statement } from '../../cypher/ast/index.js';
import type { StatementClock } from '../../cypher/runtime/statement-clock.js';
import { LockWaitRequired } from '../../mvcc/entity-locks.js';
import type { DatabaseStore } from '../../storage/database-store.js';
import type { GraphReader, GraphWriter, WriteCounters } from '../../storage/graph-store.js';
import type { ReadTransaction } from '../../storage/snapshot-reader.js';
import type { WriteTransaction } from '../../storage/write-transaction.js';
import type { CypherValue } from '../../values/types.js';
import { authorizeStatement } from '../authorize-statement.js';
import { terminatedError } from '../engine-transaction.js';
import { useTarget } from '../engine-session.js';
import { ZERO_COUNTERS, type StatementResult } from '../result-stream.js';
import { planFor, type EngineServices } from '../statement-execution.js';
import { runAdmin, runPlanned, type Finisher, type RunTarget } from '../statement-runner.js';
import { TransactionClock } from '../transaction-clock.js';
import type { TransactionHandle } from '../transaction-registry.js';
import { TransactionWrites } from '../transaction-writes.js';
import type { AccessMode, SecurityContext } from '../types.js';
import { CompositeGraphs, ConstituentWriteRequired, outsideCompositeError, refusingGraph, secondWriteError } from './composite-graphs.js';

/** What a composite transaction needs from its session. */
export interface CompositeContext {
  readonly composite: string;
  readonly services: EngineServices;
  readonly directory: DatabaseDirectory;
  store(database: string): DatabaseStore;
  readonly mode: AccessMode;
  /** `performance.now()` deadline (Infinity for none). */
  readonly deadline: number;
  readonly lockTimeoutMs: number;
  readonly maxWriteSetBytes: number;
  readonly security: SecurityContext | undefined;
  readonly handle: TransactionHandle;
  /** True for an explicit transaction (snapshots are registered as long readers). */
  readonly explicit: boolean;
  /** The bookmark of a commit of `database` at `version`. */
  bookmarkFor(database: string, version: bigint): string;
}

/** The one constituent a transaction writes. */
interface WrittenConstituent {
  readonly name: string;
  readonly database: string;
  readonly store: DatabaseStore;
  readonly writes: TransactionWrites;
  /** The writer while a statement runs, else null. */
  live: WriteTransaction | null;
}

/** A transaction over the constituents of one composite database. */
export class CompositeTransaction {
  private state: 'open' | 'committed' | 'rolledBack' = 'open';
  private readonly snapshots = new Map<string, ReadTransaction>();
  private written: WrittenConstituent | null = null;
  private readonly startedAt = Date.now();
  private cancelLockWait: ((error: Error) => void) | null = null;
  /** The statement running now (the MVCC lifecycle's cancellation of a snapshot interrupts it). */
  private clock: StatementClock | null = null;
  /** Set when the MVCC lifecycle cancelled one of the snapshots: every later operation fails with it. */
  private expired: GraphError | null = null;

  constructor(private readonly context: CompositeContext) {}

  get isOpen(): boolean {
    return this.state === 'open';
  }

  /**
   * Runs one statement to completion. `finish` ends the statement (an auto-commit statement
   * commits there); `bookmark` is asked for the result's bookmark after it.
   */
  async run(
    statement: Statement,
    params: ReadonlyMap<string, CypherValue>,
    clock: StatementClock,
    finish: Finisher,
    bookmark?: () => string | undefined,
  ): Promise<StatementResult> {
    this.assertOpen();
    if (statement.explain === 'PROFILE') throw new SemanticError("'PROFILE' is not supported on composite databases.");
    this.context.security?.authorizeAccess?.(this.context.composite, { needsDatabaseAccess: true, requirements: [] });
    const target = this.statementTarget(statement, params);
    this.clock = clock;
    for (;;) {
      const mark = this.written === null ? null : await this.activate(clock);
      try {
        return await this.attempt(statement, target, params, clock, finish, bookmark);
      } catch (error) {
        if (error instanceof ConstituentWriteRequired) {
          this.openWriter(error.constituent, error.database);
          continue;
        }
        if (error instanceof LockWaitRequired && this.written !== null && mark !== null) {
          this.written.live = null;
          await this.written.writes.waitForLock(error.key, mark, (cancel) => (this.cancelLockWait = cancel));
          this.cancelLockWait = null;
          clock.checkAlive();
          continue;
        }
        throw error;
      } finally {
        this.idle();
        this.clock = null;
      }
    }
  }

  /** The constituent a leading `USE` selects, or null for a statement on the composite itself. */
  private statementTarget(statement: Statement, params: ReadonlyMap<string, CypherValue>): ConstituentEntry | null {
    const used = useTarget(statement, params);
    if (used === null || used.toLowerCase() === this.context.composite) return null;
    const entry = this.context.directory.composites.constituent(used);
    if (entry === undefined || entry.composite !== this.context.composite) throw outsideCompositeError(used, this.context.composite);
    return entry;
  }

  private async attempt(
    statement: Statement,
    constituent: ConstituentEntry | null,
    params: ReadonlyMap<string, CypherValue>,
    clock: StatementClock,
    finish: Finisher,
    bookmark: (() => string | undefined) | undefined,
  ): Promise<StatementResult> {
    const services = this.context.services;
    const ending: Finisher = async (error) => {
      if (error instanceof ConstituentWriteRequired || error instanceof LockWaitRequired) return;
      await finish(error);
    };
    if (constituent === null) {
      const graphs = new CompositeGraphs(this.graphHost());
      const planning = this.readerFor(this.context.directory.resolve('system'));
      const plan = planFor(statement, planning, services);
      const composite = this.context.composite;
      const counters = (): WriteCounters => this.written?.live?.counters ?? ZERO_COUNTERS;
      const target: RunTarget = {
        database: composite,
        reader: refusingGraph<GraphReader>(composite),
        writer: plan.writes ? refusingGraph<GraphWriter>(composite, counters) : null,
        transactionStart: this.startedAt,
        runToCompletion: true,
        graphs,
      };
      if (plan.admin) {
        if (this.context.explicit) {
          throw graphError(
            StatusCodes.UnsupportedOperation,
            'Administration commands are not supported in a transaction on a composite database.',
          );
        }
        return runAdmin(plan, { ...target, reader: planning }, params, clock, services, ending);
      }
      return runPlanned(plan, target, params, clock, services, ending, bookmark);
    }
    const database = constituent.target;
    authorizeStatement(this.context.security, database, statement, services.admin.procedures);
    const reader = this.readerFor(database);
    const plan = planFor(statement, reader, services);
    if (plan.admin) throw new SemanticError('Administration commands cannot target a constituent of a composite database.');
    const writer = this.writerFor(database);
    if (plan.writes && plan.explain !== 'EXPLAIN' && writer === null)
      throw new ConstituentWriteRequired(constituentName(constituent), database);
    const target: RunTarget = {
      database,
      reader,
      writer: plan.writes ? writer : null,
      transactionStart: this.startedAt,
      runToCompletion: true,
    };
    return runPlanned(plan, target, params, clock, services, ending, bookmark);
  }

  /** Commits: the written constituent's write set, if any; returns the bookmark (null: nothing written). */
  async commit(): Promise<string | null> {
    if (this.expired !== null) {
      this.abort();
      throw this.expired;
    }
    this.assertOpen();
    if (performance.now() > this.context.deadline) {
      this.abort();
      throw new TransactionTimedOut();
    }
    this.state = 'committed';
    this.context.handle.closing();
    try {
      const written = this.written;
      this.closeSnapshots();
      if (written === null) return null;
      const version = await written.writes.commit(new TransactionClock(this.context.deadline), () => true);
      return this.context.bookmarkFor(written.database, version);
    } finally {
      this.context.handle.end();
    }
  }

  /** Rolls back: drops the write set and every snapshot (idempotent). */
  abort(): void {
    if (this.state !== 'open') return;
    this.state = 'rolledBack';
    this.context.handle.closing();
    try {
      this.written?.writes.rollback();
      this.closeSnapshots();
    } finally {
      this.context.handle.end();
    }
  }

  /** Interrupts a lock wait in progress (termination). */
  interrupt(reason: string): void {
    this.cancelLockWait?.(terminatedError(reason));
  }

  private graphHost(): ConstructorParameters<typeof CompositeGraphs>[0] {
    return {
      composite: this.context.composite,
      services: this.context.services,
      security: this.context.security,
      constituents: () => this.constituents(),
      readerFor: (database) => this.readerFor(database),
      writerFor: (database) => this.writerFor(database),
    };
  }

  private constituents(): ConstituentEntry[] {
    return this.context.directory.composites.constituentsOf(this.context.composite);
  }

  /** The written constituent's writer (active during a statement) when it is `database`, else null. */
  private writerFor(database: string): WriteTransaction | null {
    return this.written?.database === database ? this.written.live : null;
  }

  /** The reader of `database`: the writer when the transaction writes it, else a snapshot kept to the end. */
  private readerFor(database: string): GraphReader {
    const writer = this.writerFor(database);
    if (writer !== null) return writer;
    let snapshot = this.snapshots.get(database);
    if (snapshot === undefined) {
      snapshot = this.context.store(database).beginRead(this.context.explicit ? 'long' : 'short');
      snapshot.onCancel((error) => this.expire(error));
      this.snapshots.set(database, snapshot);
    }
    return snapshot;
  }

  /** Starts writing `database` (the statement is then run again); refused for a second constituent or in read mode. */
  private openWriter(name: string, database: string): void {
    if (this.written !== null) throw secondWriteError(name, this.written.name);
    if (this.context.mode === 'READ') {
      throw graphError(StatusCodes.AccessMode, `Writing in read access mode not allowed. Attempted write to ${name}`);
    }
    const store = this.context.store(database);
    const limits = {
      deadline: this.context.deadline,
      lockTimeoutMs: this.context.lockTimeoutMs,
      maxWriteSetBytes: this.context.maxWriteSetBytes,
    };
    this.written = { name, database, store, writes: new TransactionWrites(store, this.context.handle, limits), live: null };
    this.snapshots.get(database)?.close();
    this.snapshots.delete(database);
  }

  /** Makes the write set live for a statement; returns where the statement starts in it. */
  private async activate(clock: StatementClock): Promise<ReturnType<TransactionWrites['mark']>> {
    const written = this.written!;
    written.live = await written.writes.activate(clock, () => this.state === 'open');
    return written.writes.mark();
  }

  /** Between statements the written constituent's connection may be parked for other writers. */
  private idle(): void {
    const written = this.written;
    if (written === null || written.live === null) return;
    if (this.state === 'open') written.writes.idle();
    written.live = null;
  }

  private closeSnapshots(): void {
    for (const snapshot of this.snapshots.values()) snapshot.close();
    this.snapshots.clear();
  }

  /**
   * The MVCC lifecycle cancelled a snapshot (maximum snapshot lifetime, hard expiry): the running
   * statement stops with that transient error, and so does every later one and the commit, as in
   * an explicit transaction of a standard database.
   */
  private expire(error: GraphError): void {
    if (this.state !== 'open' || this.expired !== null) return;
    this.expired = error;
    this.clock?.terminate(error.message, error.code);
    this.cancelLockWait?.(error);
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
