/**
 * Exclusive entity locks of one database, as Neo4j takes them at the write: a node, a
 * relationship, a unique-index key or a MERGE key belongs to one transaction from its first
 * write until it commits or rolls back. Taking a lock never blocks synchronously: `take` throws
 * `LockWaitRequired` and the caller undoes its statement, awaits `acquire` (FIFO, bounded by the
 * lock acquisition timeout, DeadlockDetected when the wait would close a cycle) and runs the
 * statement again on the latest committed state. See docs/transactions.md.
 */
import { ClientError, TransientError } from '../errors/index.js';
import { StatusCodes } from '../errors/status-codes.js';

/** One transaction (or auto-commit statement) as the holder of entity locks. */
export class LockOwner {
  /** Keys this owner holds. */
  readonly keys = new Set<string>();
  /** The key this owner waits for, or null. */
  waitingFor: string | null = null;

  /** `name` is the transaction id shown in deadlock messages. */
  constructor(readonly name: string) {}
}

/**
 * Thrown by `take` when another transaction holds the key: undo the statement, `acquire`, run it
 * again. A TransientError, so code that wraps errors (procedure calls) passes it through, and a
 * client would only ever see a retriable error.
 */
export class LockWaitRequired extends TransientError {
  constructor(readonly key: string) {
    super(StatusCodes.LockAcquisitionTimeout, `The entity lock ${describeKey(key)} is held by another transaction.`);
    this.name = 'LockWaitRequired';
  }
}

interface Waiter {
  readonly owner: LockOwner;
  readonly grant: () => void;
  readonly fail: (error: Error) => void;
}

/** How a lock key reads in messages: `NODE(3)`, `RELATIONSHIP(7)`, `INDEX ENTRY(...)`. */
function describeKey(key: string): string {
  if (key.startsWith('n')) return `NODE(${key.slice(1)})`;
  if (key.startsWith('r')) return `RELATIONSHIP(${key.slice(1)})`;
  return `INDEX_ENTRY(${key.slice(1)})`;
}

/** The exclusive entity locks of one database. */
export class EntityLocks {
  private readonly holders = new Map<string, LockOwner>();
  private readonly queues = new Map<string, Waiter[]>();

  /** Number of keys held. */
  get size(): number {
    return this.holders.size;
  }

  /** Takes `key` for `owner` when it is free or already its own; otherwise throws LockWaitRequired. */
  take(owner: LockOwner, key: string): void {
    const holder = this.holders.get(key);
    if (holder === owner) return;
    if (holder !== undefined) throw new LockWaitRequired(key);
    this.holders.set(key, owner);
    owner.keys.add(key);
  }

  /**
   * Resolves once `owner` holds `key` (waiters are served in arrival order). Rejects at once with
   * DeadlockDetected when the holder waits, directly or through others, for `owner`; with
   * LockAcquisitionTimeout after `timeoutMs` (Infinity: no limit); or with `cancel`'s error.
   */
  acquire(owner: LockOwner, key: string, timeoutMs: number, cancel?: (fail: (error: Error) => void) => void): Promise<void> {
    const holder = this.holders.get(key);
    if (holder === undefined || holder === owner) {
      this.take(owner, key);
      return Promise.resolve();
    }
    for (let h: LockOwner | undefined = holder; h !== undefined; h = h.waitingFor === null ? undefined : this.holders.get(h.waitingFor)) {
      if (h === owner) {
        return Promise.reject(
          new TransientError(
            StatusCodes.DeadlockDetected,
            `LockClient[${owner.name}] can't acquire ExclusiveLock{owner=LockClient[${holder.name}]} on ${describeKey(key)}, because holders of that lock are waiting for LockClient[${owner.name}].`,
          ),
        );
      }
    }
    return new Promise<void>((resolve, reject) => {
      let timer: NodeJS.Timeout | null = null;
      const queue = this.queues.get(key) ?? [];
      this.queues.set(key, queue);
      const leave = (): void => {
        if (timer !== null) clearTimeout(timer);
        owner.waitingFor = null;
        const index = queue.indexOf(waiter);
        if (index >= 0) queue.splice(index, 1);
        if (queue.length === 0 && this.queues.get(key) === queue) this.queues.delete(key);
      };
      const waiter: Waiter = {
        owner,
        grant: () => {
          leave();
          resolve();
        },
        fail: (error) => {
          leave();
          reject(error);
        },
      };
      queue.push(waiter);
      owner.waitingFor = key;
      if (Number.isFinite(timeoutMs)) {
        timer = setTimeout(
          () =>
            waiter.fail(
              new TransientError(
                StatusCodes.LockAcquisitionTimeout,
                `Unable to acquire lock for ${describeKey(key)} within ${timeoutMs} ms (db.lock.acquisition.timeout): another transaction holds it.`,
              ),
            ),
          timeoutMs,
        );
      }
      cancel?.((error) => waiter.fail(error));
    });
  }

  /**
   * Releases every lock of `owner`, handing each to its first waiter; a wait of `owner` still in
   * progress fails with LockClientStopped (the transaction ended while it waited).
   */
  releaseAll(owner: LockOwner): void {
    const waitingFor = owner.waitingFor;
    if (waitingFor !== null) {
      const waiter = this.queues.get(waitingFor)?.find((w) => w.owner === owner);
      waiter?.fail(
        new ClientError(
          StatusCodes.LockClientStopped,
          'The transaction has been terminated, so no more locks can be acquired. This can occur because the transaction ran longer than the configured transaction timeout, or because a human operator manually terminated the transaction, or because the database is shutting down.',
        ),
      );
    }
    for (const key of owner.keys) {
      const next = this.queues.get(key)?.[0];
      if (next === undefined) {
        this.holders.delete(key);
        continue;
      }
      this.holders.set(key, next.owner);
      next.owner.keys.add(key);
      next.grant();
    }
    owner.keys.clear();
  }
}
