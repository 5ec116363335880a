/**
 * The running transactions of an engine, across Bolt, HTTP and embedded sessions: what
 * `SHOW TRANSACTIONS` lists and `TERMINATE TRANSACTIONS` acts on. Explicit transactions are
 * registered from BEGIN to commit/rollback, auto-commit statements while they run (a streaming
 * read until its last row is pulled or discarded).
 *
 * Ids follow Neo4j: `<database>-transaction-<n>` for transactions, `query-<n>` for queries.
 * A viewer who is not an admin sees (and may terminate) only transactions of the same user.
 */
import type { CypherValue } from '../values/types.js';

/** Where a session's statements come from (shown by SHOW TRANSACTIONS). */
export interface ClientInfo {
  readonly protocol: 'bolt' | 'http' | 'embedded';
  /** `bolt-12`, `http-3`; empty for embedded sessions. */
  readonly connectionId: string;
  /** `host:port` of the peer; empty when unknown. */
  readonly clientAddress: string;
  /** HTTP request URI (HTTP only). */
  readonly requestUri?: string;
}

/** The client of sessions opened without one (embedded use). */
export const EMBEDDED_CLIENT: ClientInfo = Object.freeze({ protocol: 'embedded', connectionId: '', clientAddress: '' });

/** Who is looking: admins see every transaction, other users their own. */
export interface TransactionViewer {
  readonly username: string | null;
  readonly admin: boolean;
}

/** What the owner of a transaction does when it is terminated (interrupt, roll back, release locks). */
export type TerminationHandler = (reason: string) => void;

/** What a transaction registers at its start. */
export interface TransactionStart {
  readonly database: string;
  readonly username: string | null;
  readonly client: ClientInfo;
  readonly metadata: ReadonlyMap<string, CypherValue>;
  /** False for the implicit transaction of an auto-commit statement. */
  readonly explicit: boolean;
  readonly onTerminate: TerminationHandler;
}

/** One row of SHOW TRANSACTIONS (before column selection). */
export interface TransactionInfo {
  readonly database: string;
  readonly transactionId: string;
  readonly currentQueryId: string;
  readonly connectionId: string;
  readonly clientAddress: string;
  readonly username: string;
  readonly currentQuery: string;
  /** Epoch milliseconds. */
  readonly startTime: number;
  /** `Running`, `Blocked by: [write lock]`, `Terminated with reason: ...`, `Closing`. */
  readonly status: string;
  readonly elapsedMs: number;
  readonly metaData: ReadonlyMap<string, CypherValue>;
  readonly parameters: ReadonlyMap<string, CypherValue>;
  readonly currentQueryStartTime: number | null;
  readonly currentQueryElapsedMs: number | null;
  readonly currentQueryStatus: string;
  readonly protocol: string;
  readonly requestUri: string | null;
  readonly activeLockCount: number;
  readonly waitMs: number;
  readonly idleMs: number;
  readonly explicit: boolean;
}

/** One row of TERMINATE TRANSACTIONS. */
export interface TerminationOutcome {
  readonly transactionId: string;
  readonly username: string | null;
  readonly message: string;
}

/** Reason recorded when a user terminates a transaction. */
export const TERMINATED_BY_USER = 'Explicitly terminated by the user.';

/** The owner's handle on its registry entry. */
export interface TransactionHandle {
  readonly id: string;
  /** The reason it was terminated, or null. */
  readonly terminatedReason: string | null;
  /** A statement starts running in this transaction. */
  queryStarted(text: string, parameters: ReadonlyMap<string, CypherValue>): void;
  /** The running statement finished (its last row was produced, or it failed). */
  queryFinished(): void;
  /** Waiting for (true) or done waiting for (false) the database's write lock. */
  blocked(waiting: boolean): void;
  /** The transaction holds the write lock from now on. */
  lockTaken(): void;
  /** The transaction is committing or rolling back. */
  closing(): void;
  /** Removes the entry (commit, rollback, end of an auto-commit statement). Idempotent. */
  end(): void;
}

const NO_PARAMETERS: ReadonlyMap<string, CypherValue> = new Map();

class Entry implements TransactionHandle {
  query: { id: string; text: string; parameters: ReadonlyMap<string, CypherValue>; start: number } | null = null;
  terminatedReason: string | null = null;
  blockedSince: number | null = null;
  waitedMs = 0;
  idleSince: number;
  holdsLock = false;
  isClosing = false;
  readonly startTime = Date.now();

  constructor(
    readonly id: string,
    readonly start: TransactionStart,
    private readonly registry: TransactionRegistry,
  ) {
    this.idleSince = this.startTime;
  }

  queryStarted(text: string, parameters: ReadonlyMap<string, CypherValue>): void {
    this.query = { id: this.registry.nextQueryId(), text, parameters, start: Date.now() };
  }

  queryFinished(): void {
    this.query = null;
    this.idleSince = Date.now();
  }

  blocked(waiting: boolean): void {
    if (waiting) this.blockedSince = Date.now();
    else if (this.blockedSince !== null) {
      this.waitedMs += Date.now() - this.blockedSince;
      this.blockedSince = null;
    }
  }

  lockTaken(): void {
    this.holdsLock = true;
  }

  closing(): void {
    this.isClosing = true;
  }

  end(): void {
    this.registry.remove(this);
  }

  status(): string {
    if (this.terminatedReason !== null) return `Terminated with reason: ${this.terminatedReason}`;
    if (this.isClosing) return 'Closing';
    if (this.blockedSince !== null) return 'Blocked by: [write lock]';
    return 'Running';
  }

  info(now: number): TransactionInfo {
    const { start, query } = this;
    const waiting = this.blockedSince === null ? 0 : now - this.blockedSince;
    return {
      database: start.database,
      transactionId: this.id,
      currentQueryId: query?.id ?? '',
      connectionId: start.client.connectionId,
      clientAddress: start.client.clientAddress,
      username: start.username ?? '',
      currentQuery: query?.text ?? '',
      startTime: this.startTime,
      status: this.status(),
      elapsedMs: now - this.startTime,
      metaData: start.metadata,
      parameters: query?.parameters ?? NO_PARAMETERS,
      currentQueryStartTime: query?.start ?? null,
      currentQueryElapsedMs: query === null ? null : now - query.start,
      currentQueryStatus: query === null ? '' : this.blockedSince !== null ? 'waiting' : 'running',
      protocol: start.client.protocol,
      requestUri: start.client.requestUri ?? null,
      activeLockCount: this.holdsLock ? 1 : 0,
      waitMs: this.waitedMs + waiting,
      idleMs: query === null ? now - this.idleSince : 0,
      explicit: start.explicit,
    };
  }
}

/** Every running transaction of one engine. */
export class TransactionRegistry {
  private readonly entries = new Map<string, Entry>();
  private transactionCounter = 0;
  private queryCounter = 0;

  /** Registers a transaction; the owner ends it with `handle.end()`. */
  begin(start: TransactionStart): TransactionHandle {
    const id = `${start.database}-transaction-${++this.transactionCounter}`;
    const entry = new Entry(id, start, this);
    this.entries.set(id, entry);
    return entry;
  }

  /** @internal */
  nextQueryId(): string {
    return `query-${++this.queryCounter}`;
  }

  /** @internal */
  remove(entry: Entry): void {
    if (this.entries.get(entry.id) === entry) this.entries.delete(entry.id);
  }

  /** Number of registered transactions. */
  get size(): number {
    return this.entries.size;
  }

  private visible(entry: Entry, viewer: TransactionViewer): boolean {
    return viewer.admin || (viewer.username !== null && entry.start.username === viewer.username);
  }

  /** The transactions `viewer` may see, oldest first; only `ids` when given. */
  list(viewer: TransactionViewer, ids: readonly string[] | null = null): TransactionInfo[] {
    const now = Date.now();
    const wanted = ids === null ? null : new Set(ids);
    const out: TransactionInfo[] = [];
    for (const entry of this.entries.values()) {
      if ((wanted === null || wanted.has(entry.id)) && this.visible(entry, viewer)) out.push(entry.info(now));
    }
    return out;
  }

  /**
   * Terminates the transactions with these ids that `viewer` may see; one outcome per distinct
   * id, in the order given (`Transaction not found.` for the others).
   */
  terminate(ids: readonly string[], viewer: TransactionViewer, reason: string = TERMINATED_BY_USER): TerminationOutcome[] {
    const outcomes: TerminationOutcome[] = [];
    for (const id of new Set(ids)) {
      const entry = this.entries.get(id);
      if (entry === undefined || !this.visible(entry, viewer)) {
        outcomes.push({ transactionId: id, username: null, message: 'Transaction not found.' });
        continue;
      }
      if (entry.terminatedReason === null) {
        entry.terminatedReason = reason;
        entry.start.onTerminate(reason);
      }
      outcomes.push({ transactionId: id, username: entry.start.username ?? '', message: 'Transaction terminated.' });
    }
    return outcomes;
  }
}
