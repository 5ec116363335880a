/**
 * Read transactions: a HeadReader inside a SQLite read transaction on a pooled read-only
 * connection (a WAL snapshot), or a HistoryReader of an older version. Both must be closed.
 */
import { HeadReader } from './head-reader.js';
import { HistoryReader } from '../mvcc/history-reader.js';
import type { GraphReader } from './graph-store.js';
import { ClosedConnection } from './sqlite/connection.js';
import type { SharedSnapshot, SnapshotPool } from '../mvcc/shared-snapshots.js';
import type { Pin } from '../mvcc/snapshot-registry.js';
import type { GraphError } from '../errors/index.js';

/** A GraphReader that holds resources until `close()`. */
export interface ReadTransaction extends GraphReader {
  /** Ends the snapshot and returns its connection to the pool (idempotent). */
  close(): void;
  readonly isOpen: boolean;
  /** The committed version the reader sees. */
  readonly version: bigint;
  /**
   * Calls `listener` when the MVCC lifecycle cancels this reader (maximum snapshot lifetime,
   * hard expiry under pressure); from then on its version is no longer protected from pruning.
   */
  onCancel(listener: (error: GraphError) => void): void;
}

type Closer = () => void;

/** A connection that fails every read: what a closed reader holds instead of its pooled connection. */
const CLOSED = new ClosedConnection();

/** Reads the head state of one committed version, sharing its SQLite read transaction. */
export class SnapshotReader extends HeadReader implements ReadTransaction {
  private open = true;

  /**
   * @param snapshot the shared read transaction this reader uses (its `memo` keeps state-table
   *   values of the version for every reader of the snapshot)
   * @param pool where the reader gives the snapshot back when it closes
   * @param pin the reader's pin of its version
   */
  constructor(
    args: ConstructorParameters<typeof HeadReader>,
    private readonly snapshot: SharedSnapshot,
    private readonly pool: SnapshotPool,
    private readonly pin: Pin,
  ) {
    super(...args);
    pool.join(snapshot);
  }

  get isOpen(): boolean {
    return this.open;
  }

  onCancel(listener: (error: GraphError) => void): void {
    this.pin.onCancel(listener);
  }

  protected override committedState(key: string): bigint {
    const memo = this.snapshot.memo;
    let value = memo.get(key);
    if (value === undefined) {
      value = super.committedState(key);
      memo.set(key, value);
    }
    return value;
  }

  close(): void {
    if (!this.open) return;
    this.open = false;
    this.connection = CLOSED;
    this.pin.release();
    this.pool.leave(this.snapshot);
  }
}

/** Reads an older version through history rows. */
export class HistoricalSnapshot extends HistoryReader implements ReadTransaction {
  private closer: Closer | null;

  constructor(
    args: ConstructorParameters<typeof HistoryReader>,
    closer: Closer,
    private readonly pin: Pin,
  ) {
    super(...args);
    this.closer = closer;
  }

  onCancel(listener: (error: GraphError) => void): void {
    this.pin.onCancel(listener);
  }

  get isOpen(): boolean {
    return this.closer !== null;
  }

  close(): void {
    const closer = this.closer;
    this.closer = null;
    this.connection = CLOSED;
    closer?.();
  }
}
