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
import type { CommitOrigin } from '../storage/graph-store.js';

/** Where a session's statements come from (shown by SHOW TRANSACTIONS). */
export interface ClientInfo {
  readonly protocol: 'bolt' | 'http' | 'embedded';
  /** `bolt-12`, `http-3`; empty for embedded sessions. */
  readonly connectionId: string;
  /** `host:port` of the peer; empty when unknown. */
  readonly clientAddress: string;
  /** HTTP request URI (HTTP only). */
  readonly requestUri?: string;
  /** `host:port` of the listener the client reached; empty or absent when unknown (embedded). */
  readonly serverAddress?: string;
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
  /** Terminates the transaction from inside (its timeout or idle timeout), as TERMINATE TRANSACTION does. */
  terminate(reason: string): void;
  /** Who runs it, since when, with which metadata (what change data capture records). */
  readonly origin: CommitOrigin;
}

const NO_PARAMETERS: ReadonlyMap<string, CypherValue> = new Map();

/** Metadata of transactions started without any. */
export const NO_METADATA: ReadonlyMap<string, CypherValue> = NO_PARAMETERS;

class Entry implements TransactionHandle {
  query: { number: number; text: string; parameters: ReadonlyMap<string, CypherValue>; start: number } | null = null;
  terminatedReason: string | null = null;
  blockedSince: number | null = null;
  waitedMs = 0;
  idleSince: number;
  holdsLock = false;
  isClosing = false;
  readonly startTime = Date.now();
  private text: string | null = null;
  /** Neighbours in the registry's list of running transactions (oldest first). */
  previous: Entry | null = null;
  next: Entry | null = null;
  /** True while the entry is in the registry's list. */
  listed = false;

  constructor(
    /** The registry's number of this transaction (the id is built from it on demand). */
    readonly number: number,
    readonly start: TransactionStart,
    private readonly registry: TransactionRegistry,
  ) {
    this.idleSince = this.startTime;
  }

  get origin(): CommitOrigin {
    const user = this.start.username ?? '';
    const client = this.start.client;
    return {
      startedAt: this.startTime,
      executingUser: user,
      authenticatedUser: user,
      metadata: this.start.metadata,
      connectionType: client.protocol,
      connectionClient: client.clientAddress,
      connectionServer: client.serverAddress ?? '',
      serverId: this.registry.serverId,
    };
  }

  get id(): string {
    this.text ??= `${this.start.database}-transaction-${this.number}`;
    return this.text;
  }

  queryStarted(text: string, parameters: ReadonlyMap<string, CypherValue>, at: number = Date.now()): void {
    this.query = { number: this.registry.nextQueryNumber(), text, parameters, start: at };
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

  terminate(reason: string): void {
    if (this.terminatedReason !== null) return;
    this.terminatedReason = reason;
    this.start.onTerminate(reason);
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
      currentQueryId: query === null ? '' : `query-${query.number}`,
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
  /** Identifier of this server in change data capture (`serverId`); GraphDB sets it when it opens. */
  serverId = '';
  /**
   * Running transactions, oldest first, as a doubly linked list through the entries: an
   * auto-commit statement registers and removes one each time, and a Map emptied by the removal
   * is reallocated by V8 (about a microsecond per statement). Lookups by id (SHOW/TERMINATE
   * TRANSACTIONS) walk the list.
   */
  private first: Entry | null = null;
  private last: Entry | null = null;
  private count = 0;
  private transactionCounter = 0;
  private queryCounter = 0;

  /**
   * Registers a transaction; the owner ends it with `handle.end()`. `query` is the statement an
   * auto-commit transaction runs (it starts with the transaction).
   */
  begin(
    start: TransactionStart,
    query?: { readonly text: string; readonly parameters: ReadonlyMap<string, CypherValue> },
  ): TransactionHandle {
    const entry = new Entry(++this.transactionCounter, start, this);
    if (query !== undefined) entry.queryStarted(query.text, query.parameters, entry.startTime);
    entry.previous = this.last;
    if (this.last === null) this.first = entry;
    else this.last.next = entry;
    this.last = entry;
    entry.listed = true;
    this.count++;
    return entry;
  }

  /** @internal */
  nextQueryNumber(): number {
    return ++this.queryCounter;
  }

  /** @internal */
  remove(entry: Entry): void {
    if (!entry.listed) return;
    entry.listed = false;
    if (entry.previous === null) this.first = entry.next;
    else entry.previous.next = entry.next;
    if (entry.next === null) this.last = entry.previous;
    else entry.next.previous = entry.previous;
    entry.previous = null;
    entry.next = null;
    this.count--;
  }

  /** The running transactions, oldest first. */
  private *entries(): Generator<Entry> {
    for (let entry = this.first; entry !== null;) {
      const next = entry.next;
      yield entry;
      entry = next;
    }
  }

  /** The entry a `<database>-transaction-<n>` id names, or undefined. */
  private lookup(id: string): Entry | undefined {
    const match = /-transaction-(\d+)$/.exec(id);
    if (match === null) return undefined;
    const number = Number(match[1]);
    for (const entry of this.entries()) if (entry.number === number) return entry.id === id ? entry : undefined;
    return undefined;
  }

  /** Number of registered transactions. */
  get size(): number {
    return this.count;
  }

  private visible(entry: Entry, viewer: TransactionViewer): boolean {
    return viewer.admin || (viewer.username !== null && entry.start.username === viewer.username);
  }

  /** The transactions `viewer` may see: oldest first, or those of `ids` in that order. */
  list(viewer: TransactionViewer, ids: readonly string[] | null = null): TransactionInfo[] {
    const now = Date.now();
    const wanted = ids === null ? null : new Set(ids);
    const out: TransactionInfo[] = [];
    for (const entry of wanted === null ? [...this.entries()] : [...wanted].flatMap((id) => this.lookup(id) ?? [])) {
      if (this.visible(entry, viewer)) out.push(entry.info(now));
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
      const entry = this.lookup(id);
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
