/**
 * SQLite read transactions shared by every reader of the same committed version.
 *
 * A head snapshot is a read transaction on a pooled read-only connection (WAL mode: it sees the
 * database as of its first read). All readers that begin while the committed version is
 * unchanged see the same state, so they can share one open read transaction instead of paying
 * `BEGIN` + a version read + `COMMIT` per statement. Sharing one connection is safe because no
 * reader keeps a SQLite statement open between calls (every read runs to completion: `get`,
 * `all`, paged scans with a cursor key), so interleaved readers never disturb each other.
 *
 * Life cycle: the *current* snapshot is the one new readers join. A commit (or a write by
 * another process) retires it: it stops taking readers and ends (`COMMIT`, connection back to
 * the pool) when its last reader closes. A current snapshot whose readers all closed stays open
 * for the next reader, until it is retired; so an idle database never holds a snapshot that
 * keeps the WAL from being checkpointed past a later commit.
 */
import type { Connection } from '../storage/sqlite/connection.js';

/** One open read transaction and the readers using it. */
export interface SharedSnapshot {
  readonly connection: Connection;
  /** The committed version the transaction sees. */
  readonly version: bigint;
  /** Readers that have not closed yet. */
  users: number;
  /** True once a newer version exists: ends when `users` drops to 0. */
  retired: boolean;
  /**
   * Values that are fixed for this version and cheap to keep (counts read from the state
   * table): readers of the same snapshot read them from SQLite once.
   */
  readonly memo: Map<string, bigint>;
}

/** Pool of read connections and the shared head snapshot of one database. */
export class SnapshotPool {
  private current: SharedSnapshot | null = null;
  private readonly idle: Connection[] = [];
  /** Connections in use: open snapshots and one-off reads. */
  private readonly busy = new Set<Connection>();
  private closed = false;

  /**
   * @param openConnection opens a new read-only connection to the database file
   * @param maxIdle connections kept open while unused
   */
  constructor(
    private readonly openConnection: () => Connection,
    private readonly maxIdle: number,
  ) {}

  /** A connection of the pool, outside any transaction (give it back with `release`). */
  acquire(): Connection {
    const connection = this.idle.pop() ?? this.openConnection();
    this.busy.add(connection);
    return connection;
  }

  /** Ends the connection's transaction, if any, and returns it to the pool. */
  release(connection: Connection): void {
    if (connection.db.open && connection.db.inTransaction) connection.stmt('COMMIT').run();
    this.busy.delete(connection);
    if (this.closed || this.idle.length >= this.maxIdle) connection.close();
    else this.idle.push(connection);
  }

  /** The current snapshot when it sees `version`, else null. */
  currentAt(version: bigint): SharedSnapshot | null {
    const current = this.current;
    return current !== null && current.version === version ? current : null;
  }

  /**
   * Opens a new current snapshot (retiring the previous one): `establish` runs on the connection
   * right after `BEGIN`, performs the first read (which fixes the snapshot) and returns the
   * version the transaction sees.
   */
  open(establish: (connection: Connection) => bigint): SharedSnapshot {
    this.retireCurrent();
    const connection = this.acquire();
    let version: bigint;
    try {
      connection.stmt('BEGIN').run();
      version = establish(connection);
    } catch (error) {
      this.release(connection);
      throw error;
    }
    const snapshot: SharedSnapshot = { connection, version, users: 0, retired: false, memo: new Map() };
    this.current = snapshot;
    return snapshot;
  }

  /** Registers one more reader of `snapshot`. */
  join(snapshot: SharedSnapshot): void {
    snapshot.users++;
  }

  /** A reader of `snapshot` closed; ends the snapshot when it was the last reader of a retired one. */
  leave(snapshot: SharedSnapshot): void {
    snapshot.users--;
    if (snapshot.users <= 0 && snapshot.retired) this.release(snapshot.connection);
  }

  /** A newer version exists: the current snapshot takes no more readers (and ends once unused). */
  retireCurrent(): void {
    const current = this.current;
    if (current === null) return;
    this.current = null;
    current.retired = true;
    if (current.users <= 0) this.release(current.connection);
  }

  /**
   * Ends the current snapshot now if no reader uses it. Called just before a commit: an idle
   * snapshot left open across the commit pins the WAL, so SQLite's checkpoint after the commit
   * could never reset it, and every later commit would re-run a checkpoint over a WAL that only
   * grows (its cost grows with the data written since the database was opened).
   */
  releaseIfIdle(): void {
    const current = this.current;
    if (current === null || current.users > 0) return;
    this.current = null;
    current.retired = true;
    this.release(current.connection);
  }

  /** Open snapshots and one-off reads right now (connections in use). */
  get connectionsInUse(): number {
    return this.busy.size;
  }

  /** Closes every connection; readers still open fail on their next read. */
  close(): void {
    this.closed = true;
    this.current = null;
    for (const connection of this.idle) connection.close();
    this.idle.length = 0;
    for (const connection of this.busy) connection.close();
    this.busy.clear();
  }
}
