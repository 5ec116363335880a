/**
 * Opening SQLite connections with graphdb's settings, and a per-connection cache of prepared
 * statements (statements are prepared once per connection and reused; no SQL is built per call).
 */
import Database from 'better-sqlite3';
import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';
import { SCHEMA_SQL, STORAGE_FORMAT_VERSION } from './schema.js';
import { StatusCodes, graphError } from '../../errors/index.js';

/**
 * Durability level. Both modes run the database in WAL mode.
 * - `normal` (default): synchronous=NORMAL. A committed transaction survives a crash or
 *   `kill -9` of the process (the WAL is written before COMMIT returns); the last transactions
 *   may be lost on power failure or OS crash.
 * - `full`: synchronous=FULL, an fsync per commit; also survives power loss.
 */
export type SyncMode = 'normal' | 'full';

/** A connection plus its statement caches (one per row mode, keyed by the SQL text). */
export class Connection {
  private readonly statements = new Map<string, Statement>();
  private readonly rawStatements = new Map<string, Statement>();
  private readonly pluckStatements = new Map<string, Statement>();

  constructor(readonly db: SqliteDatabase) {}

  /** The cached prepared statement for `sql` (prepared on first use). */
  stmt(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** A cached statement in raw mode (rows as arrays). */
  raw(sql: string): Statement {
    let statement = this.rawStatements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql).raw(true);
      this.rawStatements.set(sql, statement);
    }
    return statement;
  }

  /** A cached statement that returns the first column only. */
  pluck(sql: string): Statement {
    let statement = this.pluckStatements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql).pluck(true);
      this.pluckStatements.set(sql, statement);
    }
    return statement;
  }

  close(): void {
    this.statements.clear();
    this.rawStatements.clear();
    this.pluckStatements.clear();
    if (this.db.open) this.db.close();
  }
}

/**
 * Stands in for the connection of a closed read transaction: any further read fails loudly
 * instead of reading through a pooled connection that now serves another snapshot.
 */
export class ClosedConnection extends Connection {
  constructor() {
    super(undefined as unknown as SqliteDatabase);
  }

  private fail(): never {
    throw graphError(StatusCodes.TransactionNotFound, 'The read transaction is closed.');
  }

  override stmt(): Statement {
    return this.fail();
  }

  override raw(): Statement {
    return this.fail();
  }

  override pluck(): Statement {
    return this.fail();
  }

  override close(): void {}
}

/** SQLite page cache of a writer and of a reader connection, in KiB, by memory profile (`resources.low_memory`). */
const CACHE_KIB = { normal: { writer: 65_536, reader: 16_384 }, low: { writer: 2_048, reader: 1_024 } } as const;

/** Memory profile of a connection: `low` trades speed for a small page cache (`resources.low_memory`). */
export type MemoryProfile = keyof typeof CACHE_KIB;

/** Opens (creating if needed) the read-write connection of a database file and applies the schema. */
export function openWriterConnection(file: string, syncMode: SyncMode, memory: MemoryProfile = 'normal'): Connection {
  const db = new Database(file);
  db.defaultSafeIntegers(true);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${syncMode === 'full' ? 'FULL' : 'NORMAL'}`);
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = OFF');
  db.pragma(`cache_size = -${CACHE_KIB[memory].writer}`);
  db.pragma('temp_store = MEMORY');
  // Checkpoint every ~40 MB of WAL instead of 4 MB: fewer checkpoints (each one syncs) per commit.
  db.pragma('wal_autocheckpoint = 10000');
  db.pragma('journal_size_limit = 67108864');
  db.exec(SCHEMA_SQL);
  const format = db.prepare("SELECT value FROM meta WHERE key = 'format'").pluck().get() as bigint | undefined;
  if (format === undefined) {
    db.prepare("INSERT INTO meta (key, value) VALUES ('format', ?)").run(BigInt(STORAGE_FORMAT_VERSION));
  } else if (Number(format) !== STORAGE_FORMAT_VERSION) {
    db.close();
    throw new Error(`Database file ${file} has storage format ${format}; this build reads format ${STORAGE_FORMAT_VERSION}.`);
  }
  return new Connection(db);
}

/** Opens a read-only connection used for snapshot reads. */
export function openReaderConnection(file: string, memory: MemoryProfile = 'normal'): Connection {
  const db = new Database(file, { readonly: true });
  db.defaultSafeIntegers(true);
  db.pragma('busy_timeout = 5000');
  db.pragma(`cache_size = -${CACHE_KIB[memory].reader}`);
  return new Connection(db);
}
