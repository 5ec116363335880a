/**
 * The storage engine of a data directory: the database catalog (kept in the `system`
 * database), one DatabaseStore per database (one SQLite file each), and the change-event bus.
 *
 * Layout of the data directory: `system.db` and `<name>.db` per database, each with its
 * `-wal`/`-shm` companions while open.
 */
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { DatabaseNotFound, ClientError, StatusCodes, TransientError } from '../errors/index.js';
import {
  SYSTEM_DATABASE,
  deleteCatalogRow,
  ensureCatalogTable,
  insertCatalogRow,
  normalizeDatabaseName,
  readCatalog,
  type DatabaseInfo,
} from '../catalog/database-catalog.js';
import { DatabaseDirectory } from '../catalog/database-directory.js';
import { readCatalogTables, writeCatalogTables } from '../catalog/catalog-tables.js';
import { openReaderConnection, openWriterConnection, type Connection, type SyncMode } from './sqlite/connection.js';
import { DatabaseStore } from './database-store.js';
import { EventBus, type ChangeEventSource } from './event-bus.js';

/** Where storage reports problems it recovers from (a pino logger fits). */
export interface StorageLogger {
  warn(object: object, message?: string): void;
}

/** Options of `StorageEngine.open`. */
export interface StorageEngineOptions {
  readonly dataDir: string;
  /** Durability level, default `normal` (survives a process crash / kill -9; see SyncMode). */
  readonly syncMode?: SyncMode;
  /** Small SQLite page caches (`resources.low_memory`); default false. */
  readonly lowMemory?: boolean;
  /** Name of the default database, created when missing (default `graphdb`). */
  readonly defaultDatabase?: string;
  /**
   * Name of the built-in alias of the default database, seeded once per data directory
   * (default `neo4j`, the name Neo4j clients ask for; null: none). See `seedHomeAlias`.
   */
  readonly homeAlias?: string | null;
  /** How long a writer waits for a database's write lock before WriteConflict (default 10 s). */
  readonly writeLockTimeoutMs?: number;
  readonly logger?: StorageLogger;
}

/** Opens databases of one data directory. */
export class StorageEngine {
  readonly dataDir: string;
  readonly defaultDatabase: string;
  private readonly bus: EventBus;
  private readonly stores = new Map<string, DatabaseStore>();
  private catalog = new Map<string, { file: string; createdAt: Date }>();
  private closed = false;
  /** Aliases and per-database limits (kept in the system database). */
  readonly directory: DatabaseDirectory = new DatabaseDirectory({
    isDatabase: (name) => this.hasDatabase(name),
    changeCatalog: (change) => this.changeCatalog(change),
  });

  private constructor(private readonly options: StorageEngineOptions) {
    this.dataDir = options.dataDir;
    this.defaultDatabase = normalizeDatabaseName(options.defaultDatabase ?? 'graphdb');
    this.bus = new EventBus((error) => options.logger?.warn({ err: error }, 'change event listener failed'));
  }

  /** Opens (creating if needed) the data directory, the system database and the default database. */
  static open(options: StorageEngineOptions): StorageEngine {
    mkdirSync(options.dataDir, { recursive: true });
    const engine = new StorageEngine(options);
    engine.bootstrap();
    return engine;
  }

  private bootstrap(): void {
    const bootstrapConnection = openWriterConnection(join(this.dataDir, 'system.db'), this.options.syncMode ?? 'normal');
    try {
      ensureCatalogTable(bootstrapConnection);
      if (!readCatalog(bootstrapConnection).some((row) => row.name === this.defaultDatabase)) {
        insertCatalogRow(bootstrapConnection, this.defaultDatabase, `${this.defaultDatabase}.db`);
      }
      this.catalog = new Map(readCatalog(bootstrapConnection).map((row) => [row.name, { file: row.file, createdAt: row.createdAt }]));
      this.directory.load(
        bootstrapConnection,
        this.options.homeAlias === undefined ? 'neo4j' : this.options.homeAlias,
        this.defaultDatabase,
      );
    } finally {
      bootstrapConnection.close();
    }
    this.openStore(SYSTEM_DATABASE, 'system.db');
    this.openStore(this.defaultDatabase, this.catalog.get(this.defaultDatabase)!.file);
  }

  private openStore(name: string, file: string): DatabaseStore {
    const store = new DatabaseStore({
      name,
      file: join(this.dataDir, file),
      syncMode: this.options.syncMode ?? 'normal',
      memory: this.options.lowMemory === true ? 'low' : 'normal',
      writeLockTimeoutMs: this.options.writeLockTimeoutMs ?? 10_000,
      publish: (events) => this.bus.publish(events),
      hasSubscribers: () => this.bus.hasSubscribers,
      limits: () => this.directory.limitsOf(name),
      changeCapture: () => this.directory.optionsOf(name).txLogEnrichment,
    });
    this.stores.set(name, store);
    return store;
  }

  /** Committed change events of every database. */
  get events(): ChangeEventSource {
    return this.bus;
  }

  private assertOpen(): void {
    if (this.closed) throw new TransientError(StatusCodes.DatabaseUnavailable, 'The storage engine is closed.');
  }

  /** Every database, `system` included. */
  listDatabases(): DatabaseInfo[] {
    this.assertOpen();
    const system: DatabaseInfo = {
      name: SYSTEM_DATABASE,
      file: 'system.db',
      createdAt: new Date(0),
      isDefault: false,
      isSystem: true,
      status: 'online',
    };
    const user = [...this.catalog].map(([name, row]) => ({
      name,
      file: row.file,
      createdAt: row.createdAt,
      isDefault: name === this.defaultDatabase,
      isSystem: false,
      status: 'online' as const,
    }));
    return [system, ...user].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** True when `name` (case-insensitive) is a database. */
  hasDatabase(name: string): boolean {
    const lower = name.toLowerCase();
    return lower === SYSTEM_DATABASE || this.catalog.has(lower);
  }

  /** The store of a database or alias (default database when omitted); throws DatabaseNotFound. */
  database(name: string = this.defaultDatabase): DatabaseStore {
    this.assertOpen();
    const lower = this.directory.resolve(name);
    const open = this.stores.get(lower);
    if (open !== undefined) return open;
    const row = this.catalog.get(lower);
    if (row === undefined) throw new DatabaseNotFound(name);
    return this.openStore(lower, row.file);
  }

  /** CREATE DATABASE. Returns false when it existed and `ifNotExists` was set. */
  async createDatabase(name: string, ifNotExists = false): Promise<boolean> {
    this.assertOpen();
    const lower = normalizeDatabaseName(name);
    if (this.hasDatabase(lower) || this.directory.isAlias(lower) || this.directory.composites.isComposite(lower)) {
      if (ifNotExists) return false;
      throw new ClientError(StatusCodes.DatabaseExists, `Failed to create the specified database '${name}': Database already exists.`);
    }
    const file = `${lower}.db`;
    for (const suffix of ['', '-wal', '-shm']) rmSync(join(this.dataDir, file + suffix), { force: true });
    await this.changeCatalog((tx) => insertCatalogRow(tx, lower, file));
    this.catalog.set(lower, { file, createdAt: new Date() });
    this.openStore(lower, file);
    return true;
  }

  /**
   * DROP DATABASE: closes it and deletes its file. Returns false when absent and `ifExists` was
   * set. A database with aliases is refused (ExistingAliasFound) unless `cascadeAliases`.
   */
  async dropDatabase(name: string, ifExists = false, cascadeAliases = false): Promise<boolean> {
    this.assertOpen();
    const lower = name.toLowerCase();
    if (lower === SYSTEM_DATABASE || lower === this.defaultDatabase) {
      throw new ClientError(
        StatusCodes.UnsupportedOperation,
        `Not allowed to drop the ${lower === SYSTEM_DATABASE ? 'system' : 'default'} database '${name}'.`,
      );
    }
    if (this.directory.composites.isComposite(lower)) return this.directory.composites.drop(lower, ifExists);
    const row = this.catalog.get(lower);
    if (row === undefined) {
      if (ifExists) return false;
      throw new DatabaseNotFound(name);
    }
    await this.changeCatalog((tx) => {
      this.directory.dropDatabaseRows(tx, lower, cascadeAliases);
      deleteCatalogRow(tx, lower);
    });
    this.directory.forgetDatabase(lower);
    this.catalog.delete(lower);
    this.stores.get(lower)?.close();
    this.stores.delete(lower);
    for (const suffix of ['', '-wal', '-shm']) rmSync(join(this.dataDir, row.file + suffix), { force: true });
    return true;
  }

  /**
   * Opens a database file of the data directory that is not in the catalog (a restore stages its
   * content there before `replaceDatabase`); the caller closes it. Publishes no change events.
   */
  openDetached(file: string, name: string): DatabaseStore {
    this.assertOpen();
    return new DatabaseStore({
      name: normalizeDatabaseName(name),
      file: join(this.dataDir, file),
      syncMode: this.options.syncMode ?? 'normal',
      memory: 'low',
      writeLockTimeoutMs: this.options.writeLockTimeoutMs ?? 10_000,
      publish: () => undefined,
      hasSubscribers: () => false,
    });
  }

  /**
   * Swaps a database's contents for a database file already placed in the data directory under
   * `stagedFile` (restore into the running server; the caller verified the file). Writes are
   * quiesced: this waits for the write lock, so no commit is in flight while the catalog is
   * pointed at the new file. New transactions then open the new store; the old store is retired
   * (writers still waiting for it, and parked explicit transactions when they resume, fail with
   * a transient error that drivers retry on the new store) and closed once the readers that began
   * before the swap have finished (or after `drainTimeoutMs`), so a reader sees the old state or
   * the new one, never a mix. A database that does not exist yet is created from the file.
   * `drained` settles when the old file is closed and deleted, with its file name.
   */
  async replaceDatabase(
    name: string,
    stagedFile: string,
    options: { readonly lockTimeoutMs?: number; readonly drainTimeoutMs?: number } = {},
  ): Promise<{ readonly created: boolean; readonly drained: Promise<string | null> }> {
    this.assertOpen();
    const lower = normalizeDatabaseName(name);
    if (lower === SYSTEM_DATABASE) {
      throw new ClientError(StatusCodes.UnsupportedOperation, 'The system database is not replaced in a running server.');
    }
    if (this.directory.isAlias(lower)) {
      throw new ClientError(StatusCodes.UnsupportedOperation, `'${name}' is an alias; restore the database it points to.`);
    }
    const row = this.catalog.get(lower);
    if (row === undefined) {
      await this.changeCatalog((tx) => insertCatalogRow(tx, lower, stagedFile));
      this.catalog.set(lower, { file: stagedFile, createdAt: new Date() });
      this.openStore(lower, stagedFile);
      return { created: true, drained: Promise.resolve(null) };
    }
    const old = this.database(lower);
    const hold = await old.beginWrite({ timeoutMs: options.lockTimeoutMs ?? 30_000 });
    try {
      // The file name is this member's own: not a commit of the system database (a cluster does not replicate it).
      await this.changeLocalCatalog((tx) => tx.stmt('UPDATE databases SET file = ? WHERE name = ?').run(stagedFile, lower));
    } catch (error) {
      hold.rollback();
      throw error;
    }
    this.catalog.set(lower, { file: stagedFile, createdAt: row.createdAt });
    this.stores.delete(lower);
    this.openStore(lower, stagedFile);
    old.retire();
    hold.rollback();
    const drained = (async () => {
      const deadline = Date.now() + (options.drainTimeoutMs ?? 60_000);
      while (old.activeReaderCount > 0 && Date.now() < deadline && !this.closed) await delay(20);
      old.close();
      for (const suffix of ['', '-wal', '-shm']) rmSync(join(this.dataDir, row.file + suffix), { force: true });
      return row.file;
    })();
    return { created: false, drained };
  }

  /**
   * Runs `change` in a write transaction of the system database and commits it; the change
   * record carries the catalog tables after it, so a replicated system database (a cluster)
   * appends them to its log and every member ends with the same tables (`syncCatalog`).
   */
  private async changeCatalog(change: (connection: Connection) => void): Promise<void> {
    const store = this.database(SYSTEM_DATABASE);
    const tx = await store.beginWrite();
    try {
      change(tx.db);
      tx.state.dirty = true;
      tx.catalogTables = readCatalogTables(tx.db);
    } catch (error) {
      tx.rollback();
      throw error;
    }
    await store.commitWrite(tx);
  }

  /**
   * Runs `change` on the system database's file under its write lock without a new version: for
   * what only this member's data directory concerns (a database's file name), which a cluster
   * does not replicate (catalog-tables.ts keeps each member's file names).
   */
  private async changeLocalCatalog(change: (connection: Connection) => void): Promise<void> {
    const tx = await this.database(SYSTEM_DATABASE).beginWrite();
    try {
      change(tx.db);
    } catch (error) {
      tx.rollback();
      throw error;
    }
    tx.commit();
  }

  /**
   * Brings the in-memory catalog in line with the system database's file after the file changed
   * underneath (a cluster member applied a replicated catalog change or replaced its system
   * database): opens the databases that appeared, closes and deletes those that disappeared (never
   * the default database), and reloads aliases, limits, options and composites.
   */
  syncCatalog(): { readonly created: readonly string[]; readonly dropped: readonly string[] } {
    this.assertOpen();
    const connection = openReaderConnection(join(this.dataDir, 'system.db'));
    let rows: { name: string; file: string; createdAt: Date }[];
    try {
      rows = readCatalog(connection);
      this.directory.reload(connection);
    } finally {
      connection.close();
    }
    const next = new Map(rows.map((row) => [row.name, { file: row.file, createdAt: row.createdAt }]));
    const created = [...next.keys()].filter((name) => !this.catalog.has(name));
    const dropped = [...this.catalog.keys()].filter((name) => !next.has(name) && name !== this.defaultDatabase);
    for (const name of dropped) {
      const row = this.catalog.get(name)!;
      this.catalog.delete(name);
      this.stores.get(name)?.close();
      this.stores.delete(name);
      for (const suffix of ['', '-wal', '-shm']) rmSync(join(this.dataDir, row.file + suffix), { force: true });
    }
    for (const name of created) {
      const row = next.get(name)!;
      for (const suffix of ['', '-wal', '-shm']) rmSync(join(this.dataDir, row.file + suffix), { force: true });
      this.catalog.set(name, row);
      this.openStore(name, row.file);
    }
    return { created, dropped };
  }

  /**
   * Replaces the system database's file by `stagedFile` (a file of the data directory; null: an
   * empty system database that keeps the current catalog tables), for a cluster member whose
   * system database is rebuilt from its replication log. Waits for the write lock and for
   * readers (up to `drainTimeoutMs`), then closes the old store; returns the new one. The caller
   * calls `syncCatalog` once the new store holds what it should.
   */
  async replaceSystem(stagedFile: string | null, drainTimeoutMs = 5000): Promise<DatabaseStore> {
    this.assertOpen();
    const old = this.database(SYSTEM_DATABASE);
    const hold = await old.beginWrite({ timeoutMs: 30_000 });
    const tables = readCatalogTables(hold.db);
    old.retire();
    hold.rollback();
    const deadline = Date.now() + drainTimeoutMs;
    while (old.activeReaderCount > 0 && Date.now() < deadline) await delay(20);
    old.close();
    this.stores.delete(SYSTEM_DATABASE);
    const path = join(this.dataDir, 'system.db');
    for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
    if (stagedFile !== null) renameSync(join(this.dataDir, stagedFile), path);
    const connection = openWriterConnection(path, this.options.syncMode ?? 'normal');
    try {
      connection.db.transaction(() => {
        if (stagedFile === null) writeCatalogTables(connection, tables);
        // The file names are this member's own: a snapshot carries another member's.
        for (const row of readCatalog(connection)) {
          const local = this.catalog.get(row.name)?.file ?? `${row.name}.db`;
          if (local !== row.file) connection.stmt('UPDATE databases SET file = ? WHERE name = ?').run(local, row.name);
        }
      })();
    } finally {
      connection.close();
    }
    return this.openStore(SYSTEM_DATABASE, 'system.db');
  }

  /** Closes every database (open write transactions are rolled back). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const store of this.stores.values()) store.close();
    this.stores.clear();
  }
}
