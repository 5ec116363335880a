/**
 * The write-behind engine of the transactional endpoint: pure auto-commit CREATE statements are
 * accepted into a per-database queue and flushed in one transaction per batch, every
 * `flush_interval`, or at once when the pending created nodes or relationships reach the cache
 * limits (0 = unlimited). `close()` flushes everything, so a clean shutdown loses nothing.
 *
 * A batch that fails as a whole is retried statement by statement, so one bad statement does
 * not drop the others; every statement's outcome (written with its bookmark, or failed with its
 * error) is reported through the callbacks, so nothing acknowledged disappears unreported.
 */
import type { AsyncWriteSettings } from '../../../engine/config/index.js';
import type { QueryParameters, Session, SessionOptions } from '../../../engine/index.js';

/** One accepted statement waiting to be written. */
export interface PendingWrite {
  /** The acknowledged write it belongs to (see write-statuses.ts). */
  readonly id: string;
  readonly statement: string;
  readonly parameters: QueryParameters;
  /** Who sent it (null: no authentication): a cluster follower writes it on the leader as that user. */
  readonly username: string | null;
  /** Estimated nodes and relationships it creates (for the cache limits). */
  readonly nodes: number;
  readonly relationships: number;
}

/** Callbacks and inputs of the queue. */
export interface WriteBehindOptions {
  /** Opens a session for flushing the writes of `username` (system security context, named after the sender). */
  readonly openSession: (options: SessionOptions, username: string | null) => Session;
  /** The async-write settings in effect for a database. */
  readonly settingsFor: (database: string) => AsyncWriteSettings;
  /** Reports a statement that could not be written. */
  readonly onFailure: (database: string, write: PendingWrite, error: unknown) => void;
  /** Reports a statement written, with the bookmark of its commit. */
  readonly onWritten?: (database: string, write: PendingWrite, bookmark: string | null) => void;
}

class DatabaseQueue {
  pending: PendingWrite[] = [];
  nodes = 0;
  relationships = 0;
  timer: NodeJS.Timeout | null = null;
  /** The flush in progress; flushes of one database run one after another. */
  flushing: Promise<void> = Promise.resolve();
}

/** Totals for `/admin/stats`. */
export interface WriteBehindStats {
  readonly pendingStatements: number;
  readonly pendingNodes: number;
  readonly pendingRelationships: number;
  readonly flushedStatements: number;
  readonly failedStatements: number;
}

/** Per-database write-behind queues. */
export class WriteBehindQueue {
  private readonly queues = new Map<string, DatabaseQueue>();
  private flushed = 0;
  private failed = 0;
  private closed = false;

  constructor(private readonly options: WriteBehindOptions) {}

  /** Accepts a write; it becomes durable at the next flush of its database. */
  enqueue(database: string, write: PendingWrite): void {
    if (this.closed) throw new Error('the write-behind queue is closed');
    let queue = this.queues.get(database);
    if (queue === undefined) {
      queue = new DatabaseQueue();
      this.queues.set(database, queue);
    }
    queue.pending.push(write);
    queue.nodes += write.nodes;
    queue.relationships += write.relationships;
    const settings = this.options.settingsFor(database);
    const overNodes = settings.max_node_cache_size > 0 && queue.nodes >= settings.max_node_cache_size;
    const overEdges = settings.max_edge_cache_size > 0 && queue.relationships >= settings.max_edge_cache_size;
    if (overNodes || overEdges) {
      void this.flushDatabase(database);
    } else if (queue.timer === null) {
      queue.timer = setTimeout(() => void this.flushDatabase(database), settings.flush_interval);
      queue.timer.unref();
    }
  }

  /** True when a database has writes not yet flushed. */
  hasPending(database: string): boolean {
    const queue = this.queues.get(database);
    return queue !== undefined && queue.pending.length > 0;
  }

  /** Writes everything pending for one database; resolves once it is durable. */
  flushDatabase(database: string): Promise<void> {
    const queue = this.queues.get(database);
    if (queue === undefined) return Promise.resolve();
    if (queue.timer !== null) {
      clearTimeout(queue.timer);
      queue.timer = null;
    }
    const batch = queue.pending;
    queue.pending = [];
    queue.nodes = 0;
    queue.relationships = 0;
    queue.flushing = queue.flushing.then(() => (batch.length === 0 ? undefined : this.writeBatchSafely(database, batch)));
    return queue.flushing;
  }

  /** Writes everything pending in every database. */
  async flushAll(): Promise<void> {
    await Promise.all([...this.queues.keys()].map((database) => this.flushDatabase(database)));
  }

  /** Flushes everything and refuses further writes. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flushAll();
  }

  /** Pending and processed totals. */
  stats(): WriteBehindStats {
    let statements = 0;
    let nodes = 0;
    let relationships = 0;
    for (const queue of this.queues.values()) {
      statements += queue.pending.length;
      nodes += queue.nodes;
      relationships += queue.relationships;
    }
    return {
      pendingStatements: statements,
      pendingNodes: nodes,
      pendingRelationships: relationships,
      flushedStatements: this.flushed,
      failedStatements: this.failed,
    };
  }

  /** Writes a batch, one run of consecutive writes of one sender after the other; never rejects, so one failed flush cannot block the database's later flushes. */
  private async writeBatchSafely(database: string, batch: readonly PendingWrite[]): Promise<void> {
    for (let start = 0; start < batch.length;) {
      let end = start + 1;
      while (end < batch.length && batch[end]!.username === batch[start]!.username) end++;
      const run = batch.slice(start, end);
      start = end;
      try {
        await this.writeBatch(database, run);
      } catch (error) {
        this.failed += run.length;
        for (const write of run) this.options.onFailure(database, write, error);
      }
    }
  }

  private async writeBatch(database: string, batch: readonly PendingWrite[]): Promise<void> {
    const session = this.options.openSession({ database }, batch[0]!.username);
    try {
      try {
        const tx = await session.beginTransaction({ mode: 'WRITE' });
        try {
          for (const write of batch) await (await tx.run(write.statement, write.parameters)).discard();
          const bookmark = await tx.commit();
          this.flushed += batch.length;
          for (const write of batch) this.options.onWritten?.(database, write, bookmark);
          return;
        } catch (error) {
          if (tx.isOpen) await tx.rollback();
          throw error;
        }
      } catch {
        // The batch failed as a whole: write each statement alone so only the bad ones are lost.
      }
      for (const write of batch) {
        try {
          await (await session.run(write.statement, write.parameters, { mode: 'WRITE' })).discard();
          this.flushed++;
          this.options.onWritten?.(database, write, session.lastBookmark());
        } catch (error) {
          this.failed++;
          this.options.onFailure(database, write, error);
        }
      }
    } finally {
      await session.close();
    }
  }
}
