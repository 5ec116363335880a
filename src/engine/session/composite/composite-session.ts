/**
 * A session connected to a composite database. Auto-commit statements and explicit transactions
 * both run in a CompositeTransaction (composite-transaction.ts), so they give the same results;
 * every transaction is registered with the engine's TransactionRegistry (SHOW/TERMINATE
 * TRANSACTIONS) under the composite's name.
 */
import { DatabaseNotFound, StatusCodes, graphError } from '../../errors/index.js';
import type { DatabaseDirectory } from '../../catalog/database-directory.js';
import type { CypherValue } from '../../values/types.js';
import { terminatedError } from '../engine-transaction.js';
import { deadlineOf, parameterMap, type SessionHost } from '../engine-session.js';
import type { StatementResult } from '../result-stream.js';
import { sessionServices } from '../session-services.js';
import type { EngineServices } from '../statement-execution.js';
import { TransactionClock } from '../transaction-clock.js';
import { EMBEDDED_CLIENT, NO_METADATA, type TransactionHandle } from '../transaction-registry.js';
import type { QueryParameters, ResultStream, Session, SessionOptions, Transaction, TransactionOptions } from '../types.js';
import { CompositeTransaction } from './composite-transaction.js';

/** A session on one composite database. */
export class CompositeSession implements Session {
  readonly database: string;
  private bookmark: string | null;
  private open = true;
  private readonly services: EngineServices;
  private running: TransactionClock | null = null;

  constructor(
    private readonly host: SessionHost,
    private readonly directory: DatabaseDirectory,
    private readonly options: SessionOptions,
    composite: string,
  ) {
    this.database = composite.toLowerCase();
    this.bookmark = options.bookmarks?.[options.bookmarks.length - 1] ?? null;
    this.services = sessionServices(host.services, host.transactions, options.security);
  }

  lastBookmark(): string | null {
    return this.bookmark;
  }

  /** Terminates the statement this session is running (it fails with Transaction.Terminated). */
  terminate(): void {
    this.running?.terminate('The session was closed.');
  }

  async run(query: string, parameters?: QueryParameters, options: TransactionOptions = {}): Promise<ResultStream> {
    this.assertOpen();
    const params = parameterMap(parameters);
    const statement = this.host.compile(query, new Set(params.keys()));
    const clock = new TransactionClock(this.deadline(options.timeoutMs));
    this.running = clock;
    let tx: CompositeTransaction | null = null;
    const handle = this.register(
      false,
      options,
      (reason) => {
        clock.terminate(reason);
        tx?.interrupt(reason);
      },
      { text: query, parameters: params },
    );
    tx = this.transaction(handle, options, false, clock.deadline);
    const transaction = tx;
    let committed: string | null = null;
    const finish = async (error: unknown): Promise<void> => {
      if (error !== null) return transaction.abort();
      committed = await transaction.commit();
      if (committed !== null) this.bookmark = committed;
    };
    try {
      return await transaction.run(statement, params, clock, finish, () => committed ?? undefined);
    } catch (error) {
      transaction.abort();
      throw handle.terminatedReason === null ? error : terminatedError(handle.terminatedReason);
    }
  }

  async beginTransaction(options: TransactionOptions = {}): Promise<Transaction> {
    this.assertOpen();
    const deadline = this.deadline(options.timeoutMs);
    let clock: TransactionClock | null = null;
    let tx: CompositeTransaction | null = null;
    const handle = this.register(true, options, (reason) => {
      clock?.terminate(reason);
      tx?.interrupt(reason);
      if (clock === null) tx?.abort();
    });
    tx = this.transaction(handle, options, true, deadline);
    const transaction = tx;
    let current: StatementResult | null = null;
    const idle = new IdleExpiry(this.host.idleTimeoutMs, handle);
    idle.arm();
    return {
      id: handle.id,
      get isOpen() {
        return transaction.isOpen;
      },
      run: async (query: string, parameters?: QueryParameters): Promise<ResultStream> => {
        idle.disarm();
        if (current !== null && !current.finished) await current.discard();
        const params = parameterMap(parameters);
        clock = new TransactionClock(deadline);
        this.running = clock;
        handle.queryStarted(query, params);
        try {
          const statement = this.host.compile(query, new Set(params.keys()));
          current = await transaction.run(statement, params, clock, async (error) => {
            handle.queryFinished();
            if (error !== null) transaction.abort();
          });
          return current;
        } catch (error) {
          transaction.abort();
          throw handle.terminatedReason === null ? error : terminatedError(handle.terminatedReason);
        } finally {
          clock = null;
          if (transaction.isOpen) idle.arm();
        }
      },
      commit: async (): Promise<string> => {
        idle.disarm();
        if (current !== null && !current.finished) await current.discard();
        const bookmark = await transaction.commit();
        if (bookmark !== null) this.bookmark = bookmark;
        return bookmark ?? this.bookmark ?? this.host.bookmarkFor(this.database, 0n);
      },
      rollback: async (): Promise<void> => {
        idle.disarm();
        if (current !== null && !current.finished) await current.discard().catch(() => undefined);
        transaction.abort();
      },
    };
  }

  async close(): Promise<void> {
    this.open = false;
  }

  private transaction(handle: TransactionHandle, options: TransactionOptions, explicit: boolean, deadline: number): CompositeTransaction {
    if (!this.directory.composites.isComposite(this.database)) {
      handle.end();
      throw new DatabaseNotFound(this.database);
    }
    if (options.asOf !== undefined) {
      throw graphError(
        StatusCodes.UnsupportedOperation,
        'Temporal reads are not supported on composite databases; read a constituent database directly.',
      );
    }
    return new CompositeTransaction({
      composite: this.database,
      services: this.services,
      directory: this.directory,
      store: (database) => this.host.store(database),
      mode: options.mode ?? 'WRITE',
      deadline,
      lockTimeoutMs: this.host.lockTimeoutMs,
      maxWriteSetBytes: this.host.maxWriteSetBytes,
      security: this.options.security,
      handle,
      explicit,
      bookmarkFor: (database, version) => this.host.bookmarkFor(database, version),
    });
  }

  private register(
    explicit: boolean,
    options: TransactionOptions,
    onTerminate: (reason: string) => void,
    query?: { text: string; parameters: ReadonlyMap<string, CypherValue> },
  ): TransactionHandle {
    const start = {
      database: this.database,
      username: this.options.security?.username ?? null,
      client: this.options.client ?? EMBEDDED_CLIENT,
      metadata: options.metadata ?? NO_METADATA,
      explicit,
      onTerminate,
    };
    return this.host.transactions.begin(start, query);
  }

  private deadline(timeoutMs: number | undefined): number {
    return deadlineOf(timeoutMs, this.host.defaultTimeoutMs, performance.now());
  }

  private assertOpen(): void {
    if (!this.open) throw graphError(StatusCodes.InvalidRequest, 'The session is closed');
  }
}

/** Rolls an explicit transaction back once it has been idle longer than the idle timeout (0: never). */
class IdleExpiry {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly idleTimeoutMs: number,
    private readonly handle: TransactionHandle,
  ) {}

  arm(): void {
    this.disarm();
    if (this.idleTimeoutMs <= 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.handle.terminate(
        `The transaction has been idle for more than ${this.idleTimeoutMs} ms (server.transaction_idle_timeout) and was rolled back.`,
      );
    }, this.idleTimeoutMs);
    this.timer.unref();
  }

  disarm(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
