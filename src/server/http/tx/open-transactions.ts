/**
 * Explicit transactions of the HTTP API (`POST /db/{db}/tx` ... `/commit` / `DELETE`). Each has
 * an unguessable id (128 random bits, URL-safe), belongs to one database and to the principal
 * that opened it, and is rolled back when idle longer than the idle timeout; every request that
 * touches it pushes the expiry back. One request at a time may use it. A request by another
 * principal finds nothing: it gets the same TransactionNotFound as for an id that never existed.
 */
import { randomBytes } from 'node:crypto';
import { StatusCodes, type Session, type Transaction, graphError } from '../../../engine/index.js';

/** An open HTTP transaction. */
export interface OpenTransaction {
  readonly id: string;
  readonly database: string;
  /** The principal that opened it (its username; null when authentication is disabled). */
  readonly owner: string | null;
  readonly session: Session;
  readonly transaction: Transaction;
  /** Epoch milliseconds after which it is rolled back. */
  expiresAt: number;
  busy: boolean;
}

/** The registry of open transactions. */
export class OpenTransactions {
  private readonly open = new Map<string, OpenTransaction>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly idleTimeoutMs: number,
    /** Told about each expired transaction, with the error of its rollback if it failed. */
    private readonly onExpired: (entry: OpenTransaction, error: unknown) => void = () => {},
  ) {
    const period = Math.max(10, Math.min(1_000, Math.floor(idleTimeoutMs / 4)));
    this.sweeper = setInterval(() => void this.expireIdle(), period);
    this.sweeper.unref();
  }

  /** Registers a newly begun transaction. */
  add(database: string, owner: string | null, session: Session, transaction: Transaction): OpenTransaction {
    const entry: OpenTransaction = {
      id: randomBytes(16).toString('base64url'),
      database,
      owner,
      session,
      transaction,
      expiresAt: Date.now() + this.idleTimeoutMs,
      busy: false,
    };
    this.open.set(entry.id, entry);
    return entry;
  }

  /**
   * Takes a transaction for one request: checks it exists, belongs to `database` and to `owner`
   * and is not in use, and marks it busy. Call `release` or `finish` afterwards.
   */
  acquire(database: string, id: string, owner: string | null): OpenTransaction {
    const entry = this.open.get(id);
    if (entry === undefined || entry.database !== database || entry.owner !== owner) {
      throw graphError(
        StatusCodes.TransactionNotFound,
        `Unrecognized transaction id. Transaction may have timed out and been rolled back. (id: ${id})`,
      );
    }
    if (entry.busy) {
      throw graphError(StatusCodes.InvalidRequest, `Transaction ${id} is in use by another request`);
    }
    entry.busy = true;
    return entry;
  }

  /** Ends a request's use of an open transaction and pushes its expiry back. */
  release(entry: OpenTransaction): void {
    entry.busy = false;
    entry.expiresAt = Date.now() + this.idleTimeoutMs;
  }

  /** Forgets a transaction that was committed or rolled back, and closes its session. */
  async finish(entry: OpenTransaction): Promise<void> {
    this.open.delete(entry.id);
    await entry.session.close();
  }

  /** Number of open transactions. */
  get size(): number {
    return this.open.size;
  }

  /** Rolls back every transaction idle past its expiry. */
  async expireIdle(now = Date.now()): Promise<void> {
    for (const entry of [...this.open.values()]) {
      if (entry.busy || entry.expiresAt > now) continue;
      this.open.delete(entry.id);
      let failure: unknown = null;
      try {
        if (entry.transaction.isOpen) await entry.transaction.rollback();
        await entry.session.close();
      } catch (error) {
        failure = error;
      }
      this.onExpired(entry, failure);
    }
  }

  /** Rolls back everything (shutdown). */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    for (const entry of this.open.values()) entry.expiresAt = 0;
    for (const entry of this.open.values()) entry.busy = false;
    await this.expireIdle(Infinity);
  }
}
