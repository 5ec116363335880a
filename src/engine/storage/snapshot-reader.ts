/**
 * Read transactions: a HeadReader inside a SQLite read transaction on a pooled read-only
 * connection (a WAL snapshot), or a HistoryReader of an older version. Both must be closed.
 */
import { HeadReader } from './head-reader.js';
import { HistoryReader } from '../mvcc/history-reader.js';
import type { GraphReader } from './graph-store.js';
import { ClosedConnection } from './sqlite/connection.js';

/** A GraphReader that holds resources until `close()`. */
export interface ReadTransaction extends GraphReader {
  /** Ends the snapshot and returns its connection to the pool (idempotent). */
  close(): void;
  readonly isOpen: boolean;
}

type Closer = () => void;

/** Reads the head state of one committed version. */
export class SnapshotReader extends HeadReader implements ReadTransaction {
  private closer: Closer | null;

  constructor(args: ConstructorParameters<typeof HeadReader>, closer: Closer) {
    super(...args);
    this.closer = closer;
  }

  get isOpen(): boolean {
    return this.closer !== null;
  }

  close(): void {
    const closer = this.closer;
    this.closer = null;
    this.connection = new ClosedConnection();
    closer?.();
  }
}

/** Reads an older version through history rows. */
export class HistoricalSnapshot extends HistoryReader implements ReadTransaction {
  private closer: Closer | null;

  constructor(args: ConstructorParameters<typeof HistoryReader>, closer: Closer) {
    super(...args);
    this.closer = closer;
  }

  get isOpen(): boolean {
    return this.closer !== null;
  }

  close(): void {
    const closer = this.closer;
    this.closer = null;
    this.connection = new ClosedConnection();
    closer?.();
  }
}
