/**
 * Read-only access to one database file from another thread (the read workers of
 * session/read-pool): its own better-sqlite3 connections, so a storage call that blocks there
 * (a lock held by another process, a stalled disk) blocks that thread only.
 *
 * Each read transaction is a SQLite read transaction on a connection of its own (WAL mode: it
 * sees the last committed version as of its first read, exactly as the main thread's snapshot
 * readers do). Token dictionaries and the schema catalog are loaded inside that transaction
 * whenever the committed version differs from the one they were loaded at, so they always
 * describe the snapshot being read.
 */
import { Tokens } from '../catalog/tokens.js';
import type { GraphError } from '../errors/index.js';
import type { SchemaCatalog } from '../catalog/schema-catalog.js';
import { loadCatalog } from '../catalog/catalog-loader.js';
import { HeadReader } from './head-reader.js';
import type { ReadTransaction } from './snapshot-reader.js';
import { ClosedConnection, openReaderConnection, type Connection } from './sqlite/connection.js';
import { LabelSetCache, type StoreContext } from './store-context.js';
import { StateKey, readState } from './sqlite/state-table.js';

/** Connections kept open while unused, per database. */
const MAX_IDLE_CONNECTIONS = 4;

const CLOSED = new ClosedConnection();

/** The tokens, catalog and identity of one committed version. */
interface VersionState {
  readonly version: bigint;
  readonly context: StoreContext;
  readonly catalog: SchemaCatalog;
}

/** A head reader inside its own SQLite read transaction; `close` ends it. */
class ReplicaReader extends HeadReader implements ReadTransaction {
  private open = true;

  constructor(
    connection: Connection,
    state: VersionState,
    private readonly release: (connection: Connection) => void,
  ) {
    super(connection, state.context, state.catalog, state.version);
  }

  get isOpen(): boolean {
    return this.open;
  }

  /** Never called: a worker's reader reads heads only, which the MVCC lifecycle never cancels. */
  onCancel(listener: (error: GraphError) => void): void {
    void listener;
  }

  close(): void {
    if (!this.open) return;
    this.open = false;
    const connection = this.connection;
    this.connection = CLOSED;
    this.release(connection);
  }
}

/** Read transactions on one database file through connections owned by the calling thread. */
export class ReplicaStore {
  private readonly idle: Connection[] = [];
  private state: VersionState | null = null;
  private closed = false;

  /**
   * @param name the database name (element ids and errors name it)
   * @param file the database file
   */
  constructor(
    readonly name: string,
    private readonly file: string,
  ) {}

  /** A read transaction on the last committed version (close it). */
  beginRead(): ReadTransaction {
    const connection = this.idle.pop() ?? openReaderConnection(this.file);
    try {
      connection.stmt('BEGIN').run();
      const state = this.stateAt(connection, readState(connection, StateKey.version));
      return new ReplicaReader(connection, state, (used) => this.release(used));
    } catch (error) {
      this.release(connection);
      throw error;
    }
  }

  private stateAt(connection: Connection, version: bigint): VersionState {
    if (this.state !== null && this.state.version === version) return this.state;
    const tokens = new Tokens();
    tokens.load(connection);
    const uuid = connection.pluck("SELECT value FROM meta WHERE key = 'uuid'").get() as string;
    const context: StoreContext = { databaseName: this.name, uuid, tokens, labelSets: new LabelSetCache(tokens) };
    this.state = { version, context, catalog: loadCatalog(connection, tokens) };
    return this.state;
  }

  private release(connection: Connection): void {
    if (connection.db.open && connection.db.inTransaction) connection.stmt('COMMIT').run();
    if (this.closed || this.idle.length >= MAX_IDLE_CONNECTIONS) connection.close();
    else this.idle.push(connection);
  }

  /** Closes the idle connections (open readers close theirs when they end). */
  close(): void {
    this.closed = true;
    for (const connection of this.idle.splice(0)) connection.close();
  }
}
