/**
 * One database: its SQLite file, the writer connection and write lock, a pool of read
 * connections for snapshots, token dictionaries, the published schema catalog and the
 * committed version.
 */
import { readEntityStamps, readEntityVersions, type EntityVersion } from '../mvcc/entity-versions.js';
import { statSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import type { Statement } from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { ArgumentError, ClientError, StatusCodes, TransientError } from '../errors/index.js';
import { Tokens } from '../catalog/tokens.js';
import type { SchemaCatalog } from '../catalog/schema-catalog.js';
import { loadCatalog } from '../catalog/catalog-loader.js';
import { WriteLock } from '../mvcc/write-lock.js';
import { EntityLocks } from '../mvcc/entity-locks.js';
import { SnapshotRegistry, type ReaderKind } from '../mvcc/snapshot-registry.js';
import { SnapshotPool, type SharedSnapshot } from '../mvcc/shared-snapshots.js';
import { historyFigures, pruneHistory, type MvccStatus, type PruneOptions, type PruneResult } from '../mvcc/maintenance.js';
import { Connection, openReaderConnection, openWriterConnection, type MemoryProfile, type SyncMode } from './sqlite/connection.js';
import { LabelSetCache, type StoreContext } from './store-context.js';
import { WriteTransaction, type WriteHost } from './write-transaction.js';
import { HistoricalSnapshot, SnapshotReader, type ReadTransaction } from './snapshot-reader.js';
import type { ChangeEvent } from './graph-store.js';
import type { DatabaseLimits } from '../catalog/limit-catalog.js';
import { enforceStorageLimits } from '../catalog/limit-enforcement.js';
import type { EnrichmentMode } from '../catalog/option-catalog.js';
import { buildChangeEvents } from './change-events.js';
import { TimeSlice } from './time-slice.js';
import { captureFloor, ensureChangeTable, pruneChanges, readChanges, recordChanges, type CapturedChange } from './change-capture.js';
import { StateKey, labelCountKey, readState, typeCountKey, writeStates } from './sqlite/state-table.js';
import type { CommitRecord } from './commit-record.js';
import { applyCommitRecord } from './commit-apply.js';

/** Transactions with more tracked entity changes than this build their change events in time slices. */
const SLICED_PREPARE_MIN_CHANGES = 1024;

/** Where a commit landed in the replication log: its sequence and the digest of its entry. */
export interface LogPosition {
  readonly sequence: bigint;
  readonly digest: bigint;
}

/**
 * Where a replicated database sends each commit before making it durable locally
 * (src/engine/cluster). `append` resolves to the commit's log position once the log holds it,
 * or rejects (this member may not write, the log refused or timed out): the commit is then
 * rolled back locally and never acknowledged.
 */
export interface ReplicationGate {
  append(database: { readonly name: string; readonly uuid: string }, record: CommitRecord): Promise<LogPosition>;
}

/** State key of the last replication log sequence this database applied. */
const REPLICATED_SEQUENCE = 'replicated_seq';
/** State key of the digest of the log entry at that sequence (0: not known). */
const REPLICATED_DIGEST = 'replicated_digest';

/** Options of one database. */
export interface DatabaseStoreOptions {
  readonly name: string;
  readonly file: string;
  readonly syncMode: SyncMode;
  /** Page cache sizes of its connections (`resources.low_memory`); default normal. */
  readonly memory?: MemoryProfile;
  /** Default time a writer waits for the write lock. */
  readonly writeLockTimeoutMs: number;
  /** Publishes committed change events. */
  readonly publish: (events: readonly ChangeEvent[]) => void;
  /** True when someone subscribed to change events. */
  readonly hasSubscribers: () => boolean;
  /** The database's resource limits, checked at commit (see catalog/limit-enforcement.ts). */
  readonly limits?: () => DatabaseLimits;
  /** The database's change data capture mode (`txLogEnrichment`); absent or OFF: none. */
  readonly changeCapture?: () => EnrichmentMode | undefined;
}

/** Change data capture of one database, as `db.cdc.*` reads it (committed state). */
export interface ChangeLog {
  /** The capture mode now in effect. */
  readonly mode: EnrichmentMode;
  /** The last committed version. */
  readonly version: bigint;
  /** Every change after this version is captured (older positions are stale). */
  readonly floor: bigint;
  /** Changes strictly after (version, seq), up to version `upTo`, at most `limit`. */
  read(version: bigint, seq: number, upTo: bigint, limit: number): CapturedChange[];
}

/** Size and counts of a database. */
export interface DatabaseStats {
  readonly nodes: number;
  readonly relationships: number;
  /** Bytes on disk (database file plus WAL). */
  readonly dataSizeBytes: number;
  readonly version: bigint;
}

const MAX_IDLE_READERS = 8;
/** Pauses between attempts to take the file's write lock while another process holds it (ms; the last repeats). */
const FILE_LOCK_RETRY_MS = [1, 2, 5, 10, 20, 50] as const;
/** How long closing waits for the file's write lock to flush the commit log. */
const CLOSE_BUSY_TIMEOUT_MS = 5000;

/** True for SQLITE_BUSY and its extended codes (another connection holds the lock). */
function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}
/** Commit timestamps are written in batches of this many commits (or after COMMIT_LOG_MAX_AGE_MS). */
const COMMIT_LOG_BATCH = 64;
const COMMIT_LOG_MAX_AGE_MS = 1000;
const INSERT_COMMIT = 'INSERT OR REPLACE INTO commits (version, committed_at) VALUES (?, ?)';
const DATA_VERSION = 'PRAGMA data_version';

/** A database's storage: begin read/write transactions, historical reads, stats and MVCC upkeep. */
export class DatabaseStore {
  readonly name: string;
  readonly file: string;
  private readonly writer: Connection;
  /** Read connections and the shared head snapshot (mvcc/shared-snapshots.ts). */
  private readonly readers: SnapshotPool;
  /** The writer connection's `PRAGMA data_version` when last checked (changes when another connection commits). */
  private dataVersion: bigint;
  private readonly dataVersionStatement: Statement;
  private readonly lock: WriteLock;
  /** Set by `retire()`: the error every later writer of a replaced store fails with. */
  private retired: TransientError | null = null;
  /** Exclusive entity locks of the transactions writing this database (docs/transactions.md). */
  readonly entityLocks = new EntityLocks();
  /** `next_node_id` / `next_rel_id` as last written to the file (ids handed out may be ahead: parked write sets hold some). */
  private persistedIds: { node: bigint; rel: bigint };
  private readonly snapshots = new SnapshotRegistry();
  private readonly context: StoreContext;
  private readonly host: WriteHost;
  private committed: bigint;
  private catalog: SchemaCatalog;
  private nextIds: { node: bigint; rel: bigint };
  private activeWriter: WriteTransaction | null = null;
  private closed = false;
  /** (version, commit time) pairs not yet written to `commits`. */
  private pendingCommitLog: [bigint, number][] = [];
  private commitLogFlushedAt = Date.now();
  /** Set by persistCommit: the commit time and whether the log was flushed in that commit. */
  private committing: { at: number; flushed: boolean } | null = null;
  /** Set when the database is replicated: every local commit goes through it first. */
  private replication: ReplicationGate | null = null;
  /** The last replication log sequence applied (0: none). */
  private replicated: bigint;
  /** The digest of the log entry at that sequence (0: not known). */
  private replicatedDigest: bigint;

  constructor(private readonly options: DatabaseStoreOptions) {
    this.name = options.name;
    this.file = options.file;
    this.writer = openWriterConnection(options.file, options.syncMode, options.memory);
    const uuid = this.loadOrCreateUuid();
    ensureChangeTable(this.writer);
    const tokens = new Tokens();
    tokens.load(this.writer);
    this.context = { databaseName: options.name, uuid, tokens, labelSets: new LabelSetCache(tokens) };
    this.replicated = readState(this.writer, REPLICATED_SEQUENCE);
    this.replicatedDigest = readState(this.writer, REPLICATED_DIGEST);
    this.catalog = loadCatalog(this.writer, tokens);
    this.committed = readState(this.writer, StateKey.version);
    this.nextIds = { node: readState(this.writer, StateKey.nextNodeId), rel: readState(this.writer, StateKey.nextRelId) };
    this.persistedIds = this.nextIds;
    this.recoverCommitLog();
    this.readers = new SnapshotPool(() => openReaderConnection(options.file, options.memory), MAX_IDLE_READERS);
    this.dataVersionStatement = this.writer.pluck(DATA_VERSION);
    this.dataVersion = this.dataVersionStatement.get() as bigint;
    this.lock = new WriteLock(options.name);
    // Waits for the file's write lock happen in beginImmediate, on timers, never inside SQLite.
    this.writer.db.pragma('busy_timeout = 0');
    this.host = this.makeHost();
  }

  /** The database's identity (element ids carry it); replicas share the leader's. */
  get uuid(): string {
    return this.context.uuid;
  }

  /**
   * Takes another member's database identity, so element ids agree across a cluster. Only an
   * empty database (version 0) may change identity.
   */
  adoptIdentity(uuid: string): void {
    this.assertOpen();
    if (uuid === this.uuid) return;
    if (this.committed !== 0n) {
      throw new TransientError(StatusCodes.DatabaseUnavailable, `Database '${this.name}' holds data of another database (${this.uuid}).`);
    }
    this.writer.stmt("UPDATE meta SET value = ? WHERE key = 'uuid'").run(uuid);
    (this.context as { uuid: string }).uuid = uuid;
  }

  /** Attaches (or with null detaches) the replication log every commit must reach first. */
  replicateThrough(gate: ReplicationGate | null): void {
    this.replication = gate;
  }

  /** The last replication log sequence this database applied (0: none). */
  get appliedSequence(): bigint {
    return this.replicated;
  }

  /** The digest of the log entry at the applied sequence (0: not known). */
  get appliedDigest(): bigint {
    return this.replicatedDigest;
  }

  /**
   * Commits a write transaction. On a replicated database the change record is appended to
   * the log first and the commit is made durable locally with its log sequence; when the append
   * fails the transaction is rolled back and the error thrown (nothing acknowledged). A large
   * transaction's change events are read in time slices first, so the commit does not hold the
   * event loop for them.
   */
  async commitWrite(tx: WriteTransaction): Promise<bigint> {
    if (tx.hasChanges && tx.state.trackedChanges > SLICED_PREPARE_MIN_CHANGES) {
      try {
        await tx.prepareCommitSliced(new TimeSlice());
      } catch (error) {
        tx.rollback();
        throw error;
      }
    }
    const gate = this.replication;
    if (gate === null || !tx.hasChanges) return tx.commit();
    try {
      const record = tx.prepareCommit()!;
      const position = await gate.append(this, record);
      tx.replicatedSequence = position.sequence;
      tx.replicatedDigest = position.digest;
    } catch (error) {
      tx.rollback();
      throw error;
    }
    return tx.commit();
  }

  /**
   * Applies a change record another member committed as log entry `sequence` (whose digest is
   * `digest`), in one local transaction that also records the sequence and digest. An entry at or
   * below the applied sequence is skipped (applies are idempotent); returns whether it was applied.
   */
  async applyReplicated(record: CommitRecord, sequence: bigint, digest: bigint): Promise<boolean> {
    if (sequence <= this.replicated) return false;
    const tx = await this.beginWrite();
    if (sequence <= this.replicated) {
      // This member committed it itself (as leader) while the entry waited for the write lock.
      tx.rollback();
      return false;
    }
    try {
      if (tx.commitVersion !== record.version) {
        throw new TransientError(
          StatusCodes.DatabaseUnavailable,
          `Database '${this.name}' cannot apply version ${record.version} at version ${tx.commitVersion - 1n}: the replica diverged.`,
        );
      }
      applyCommitRecord(tx, record);
      tx.replicatedSequence = sequence;
      tx.replicatedDigest = digest;
      if (record.committedAt !== undefined) tx.committedAt = record.committedAt;
    } catch (error) {
      tx.rollback();
      throw error;
    }
    tx.commit();
    return true;
  }

  private loadOrCreateUuid(): string {
    const existing = this.writer.pluck("SELECT value FROM meta WHERE key = 'uuid'").get() as string | undefined;
    if (existing !== undefined) return existing;
    const uuid = randomUUID();
    this.writer.stmt("INSERT INTO meta (key, value) VALUES ('uuid', ?)").run(uuid);
    return uuid;
  }

  /** After a crash, the last unflushed commits get the time of the last commit. */
  private recoverCommitLog(): void {
    const logged = this.writer.pluck('SELECT coalesce(max(version), 0) FROM commits').get() as bigint;
    if (this.committed > logged) {
      this.writer.stmt(INSERT_COMMIT).run(this.committed, readState(this.writer, StateKey.lastCommitAt));
    }
  }

  private writeCommitLog(entries: readonly [bigint, number][]): void {
    const insert = this.writer.stmt(INSERT_COMMIT);
    for (const [version, at] of entries) insert.run(version, at);
  }

  private makeHost(): WriteHost {
    const wantsEvents = () => this.replication !== null || this.options.hasSubscribers() || this.captureMode() !== 'OFF';
    const wantsRecord = () => this.replication !== null;
    return {
      context: this.context,
      get wantsEvents() {
        return wantsEvents();
      },
      get wantsRecord() {
        return wantsRecord();
      },
      persistCommit: (tx) => this.persistCommit(tx),
      published: (tx, events) => {
        const committing = this.committing!;
        this.committing = null;
        if (committing.flushed) {
          this.pendingCommitLog = [];
          this.commitLogFlushedAt = committing.at;
        } else {
          this.pendingCommitLog.push([tx.commitVersion, committing.at]);
        }
        this.committed = tx.commitVersion;
        if (tx.replicatedSequence !== null) {
          this.replicated = tx.replicatedSequence;
          this.replicatedDigest = tx.replicatedDigest;
        }
        this.readers.retireCurrent();
        this.nextIds = { node: tx.nextNodeId, rel: tx.nextRelId };
        this.persistedIds = this.nextIds;
        if (tx.schemaChanged) this.catalog = tx.schema;
        if (events.length > 0) this.options.publish(events);
      },
      finished: (tx, committed) => {
        if (!committed) this.context.labelSets.clear();
        if (!committed && tx.reserveIdsOnRollback) {
          // Ids of a parked write set stay reserved: it creates the same ids when applied again.
          this.nextIds = { node: maxOf(this.nextIds.node, tx.nextNodeId), rel: maxOf(this.nextIds.rel, tx.nextRelId) };
        }
        if (this.activeWriter === tx) this.activeWriter = null;
        this.lock.release();
      },
    };
  }

  private persistCommit(tx: WriteTransaction): void {
    const state = tx.state;
    const writer = this.writer;
    const limits = this.options.limits?.();
    if (limits !== undefined && (state.nodeDelta > 0 || state.relDelta > 0)) {
      enforceStorageLimits(this.name, limits, {
        nodeDelta: state.nodeDelta,
        relDelta: state.relDelta,
        committedNodes: () => Number(readState(writer, StateKey.nodeCount)),
        committedRelationships: () => Number(readState(writer, StateKey.relCount)),
        diskBytes: () => this.diskBytes(),
      });
    }
    if (this.replication !== null && tx.replicatedSequence === null) {
      throw new ClientError(
        StatusCodes.NotALeader,
        `Database '${this.name}' is replicated: this write did not go through the replication log and was rolled back.`,
      );
    }
    this.readers.releaseIfIdle();
    const at = tx.committedAt ?? Date.now();
    const sets: (string | bigint | number)[] = [StateKey.version, tx.commitVersion, StateKey.lastCommitAt, at];
    if (tx.replicatedSequence !== null) sets.push(REPLICATED_SEQUENCE, tx.replicatedSequence, REPLICATED_DIGEST, tx.replicatedDigest);
    if (tx.nextNodeId !== this.persistedIds.node) sets.push(StateKey.nextNodeId, tx.nextNodeId);
    if (tx.nextRelId !== this.persistedIds.rel) sets.push(StateKey.nextRelId, tx.nextRelId);
    writeStates(writer, 'set', sets);
    const adds: (string | bigint | number)[] = [];
    if (tx.schemaChanged) adds.push(StateKey.schemaVersion, 1);
    if (state.nodeDelta !== 0) adds.push(StateKey.nodeCount, state.nodeDelta);
    if (state.relDelta !== 0) adds.push(StateKey.relCount, state.relDelta);
    for (const [labelId, delta] of state.labelDeltas) if (delta !== 0) adds.push(labelCountKey(labelId), delta);
    for (const [typeId, delta] of state.typeDeltas) if (delta !== 0) adds.push(typeCountKey(typeId), delta);
    writeStates(writer, 'add', adds);
    const flush = this.pendingCommitLog.length + 1 >= COMMIT_LOG_BATCH || at - this.commitLogFlushedAt >= COMMIT_LOG_MAX_AGE_MS;
    if (flush) this.writeCommitLog([...this.pendingCommitLog, [tx.commitVersion, at]]);
    this.committing = { at, flushed: flush };
    const mode = this.captureMode();
    if (mode !== 'OFF' && tx.state.nodeChanges !== null) {
      recordChanges(
        {
          connection: writer,
          context: this.context,
          schema: tx.schema,
          reader: tx,
          version: tx.commitVersion,
          committedAt: at,
          origin: tx.origin,
          databaseId: this.uuid,
          events: buildChangeEvents(tx, state, this.name),
        },
        mode,
      );
    }
  }

  private captureMode(): EnrichmentMode {
    return this.options.changeCapture?.() ?? 'OFF';
  }

  /** Change data capture of this database (committed state). */
  changeLog(): ChangeLog {
    this.assertOpen();
    const floor = this.withReader((c) => captureFloor(c));
    return {
      mode: this.captureMode(),
      version: this.committed,
      floor,
      read: (version, seq, upTo, limit) => this.withReader((c) => readChanges(c, version, seq, upTo, limit)),
    };
  }

  /** The last committed version. */
  get version(): bigint {
    return this.committed;
  }

  /** How long a writer waits for the write lock by default (ms). */
  get writeLockTimeoutMs(): number {
    return this.options.writeLockTimeoutMs;
  }

  /** Read connections in use: open head snapshots (shared per version) and historical/one-off reads. */
  get readConnectionsInUse(): number {
    return this.readers.connectionsInUse;
  }

  /** An idle explicit transaction offers to give the writer connection up (see WriteLock.offerPark). */
  offerPark(park: () => void): void {
    this.lock.offerPark(park);
  }

  /** Withdraws an `offerPark` offer. */
  withdrawPark(park: () => void): void {
    this.lock.withdrawPark(park);
  }

  /** True while a write transaction holds the lock. */
  get writeInProgress(): boolean {
    return this.lock.isHeld;
  }

  private assertOpen(): void {
    if (this.closed) {
      throw new TransientError(StatusCodes.DatabaseUnavailable, `Database '${this.name}' is closed.`);
    }
  }

  private acquireReader(): Connection {
    return this.readers.acquire();
  }

  private releaseReader(connection: Connection): void {
    this.readers.release(connection);
  }

  /**
   * Begins a read transaction on the latest committed version (a stable snapshot). Readers of
   * the same version share one SQLite read transaction (mvcc/shared-snapshots.ts); a new one is
   * opened after a commit of this process or when `PRAGMA data_version` shows that another
   * process committed.
   */
  beginRead(kind: ReaderKind = 'short'): ReadTransaction {
    this.assertOpen();
    const dataVersion = this.dataVersionStatement.get() as bigint;
    if (dataVersion !== this.dataVersion) {
      this.dataVersion = dataVersion;
      this.readers.retireCurrent();
    }
    this.snapshots.admit(kind);
    const snapshot = this.readers.currentAt(this.committed) ?? this.openSnapshot();
    const pin = this.snapshots.pin(snapshot.version, kind);
    return new SnapshotReader([snapshot.connection, this.context, this.catalog, snapshot.version], snapshot, this.readers, pin);
  }

  /** Opens the shared snapshot of the file's current state, catching up with other processes' commits. */
  private openSnapshot(): SharedSnapshot {
    return this.readers.open((connection) => {
      const version = readState(connection, StateKey.version);
      if (version !== this.committed && this.activeWriter === null) this.syncWithFile(connection);
      return version;
    });
  }

  /** Begins a write transaction, waiting for the write lock up to `timeoutMs` (then WriteConflict). */
  async beginWrite(options: { timeoutMs?: number } = {}): Promise<WriteTransaction> {
    this.assertOpen();
    const timeoutMs = options.timeoutMs ?? this.options.writeLockTimeoutMs;
    const deadline = performance.now() + timeoutMs;
    await this.lock.acquire(timeoutMs);
    try {
      await this.beginImmediate(deadline);
    } catch (error) {
      this.lock.release();
      throw error;
    }
    return this.startWriter(true);
  }

  /**
   * `BEGIN IMMEDIATE` without blocking the event loop: while another process holds the file's
   * write lock, SQLite's busy handler would sleep inside the call (freezing every session of
   * this process); instead each attempt fails at once (the writer connection has no busy
   * timeout) and the next one is tried after a short timer, until `deadline`, when the
   * SQLITE_BUSY error is reported (DatabaseUnavailable, transient).
   */
  private async beginImmediate(deadline: number): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        this.writer.stmt('BEGIN IMMEDIATE').run();
        return;
      } catch (error) {
        if (!isBusy(error) || performance.now() >= deadline) throw error;
      }
      await delay(FILE_LOCK_RETRY_MS[Math.min(attempt, FILE_LOCK_RETRY_MS.length - 1)]);
      this.assertOpen();
    }
  }

  /** Begins a write transaction if the lock is free right now; otherwise null. */
  tryBeginWrite(): WriteTransaction | null {
    this.assertOpen();
    return this.lock.tryAcquire() ? this.startWriter(false) : null;
  }

  /**
   * Reloads what this process caches (tokens, schema, version, id allocators) when another
   * process committed to the file since (e.g. a CLI maintenance command next to a server).
   */
  private syncWithFile(connection: Connection): void {
    const version = readState(connection, StateKey.version);
    if (version === this.committed) return;
    this.context.tokens.load(connection);
    this.context.labelSets.clear();
    this.catalog = loadCatalog(connection, this.context.tokens);
    this.committed = version;
    this.persistedIds = { node: readState(connection, StateKey.nextNodeId), rel: readState(connection, StateKey.nextRelId) };
    this.nextIds = { node: maxOf(this.nextIds.node, this.persistedIds.node), rel: maxOf(this.nextIds.rel, this.persistedIds.rel) };
  }

  /**
   * Marks this store as replaced (a restore into the running server swapped its file): writers
   * waiting for its lock and every later writer fail with a transient error, which drivers retry
   * on the successor store; readers already running finish on this file.
   */
  retire(): void {
    this.retired = new TransientError(
      StatusCodes.DatabaseUnavailable,
      `Database '${this.name}' was restored from a backup while this transaction was open; retry the transaction.`,
    );
    this.lock.rejectWaiters(this.retired);
  }

  /** Snapshot readers open on this store right now. */
  get activeReaderCount(): number {
    return this.snapshots.activeReaders;
  }

  /** True once `retire()` ran. */
  get isRetired(): boolean {
    return this.retired !== null;
  }

  /** Starts the write transaction (`begun`: BEGIN IMMEDIATE already ran); the lock is released on failure. */
  private startWriter(begun: boolean): WriteTransaction {
    try {
      this.assertOpen();
      if (this.retired !== null) throw this.retired;
      if (!begun) this.writer.stmt('BEGIN IMMEDIATE').run();
      this.syncWithFile(this.writer);
      const tx = new WriteTransaction(this.writer, this.context, this.catalog, this.committed + 1n, this.nextIds, this.host);
      this.activeWriter = tx;
      return tx;
    } catch (error) {
      if (this.writer.db.inTransaction) this.writer.stmt('ROLLBACK').run();
      this.lock.release();
      throw error;
    }
  }

  /**
   * Reads the database as it was at commit `version` (0 is the empty initial state). Below the
   * prune floor the answer is decided per key: a version that was pruned is not found, a key
   * whose versions were kept reads as it was. A `long` reader (an explicit or temporal
   * transaction) passes the lifecycle's admission first.
   */
  readAt(version: bigint, kind: ReaderKind = 'long'): ReadTransaction {
    this.assertOpen();
    if (version < 0n || version > this.committed) {
      throw new ArgumentError(`Version ${version} of database '${this.name}' does not exist (current version ${this.committed}).`);
    }
    this.snapshots.admit(kind);
    const pin = this.snapshots.pin(version, kind);
    let connection: Connection;
    try {
      connection = this.acquireReader();
      connection.stmt('BEGIN').run();
    } catch (error) {
      pin.release();
      throw error;
    }
    return new HistoricalSnapshot(
      [connection, this.context, this.catalog, version],
      () => {
        pin.release();
        this.releaseReader(connection);
      },
      pin,
    );
  }

  /** The version that was current at `time` (0 when before the first commit). */
  versionAt(time: Date): bigint {
    this.assertOpen();
    const t = time.getTime();
    let version = this.withReader(
      (c) => c.pluck('SELECT coalesce(max(version), 0) FROM commits WHERE committed_at <= ?').get(BigInt(t)) as bigint,
    );
    for (const [pendingVersion, at] of this.pendingCommitLog) if (at <= t && pendingVersion > version) version = pendingVersion;
    return version;
  }

  /**
   * The versions of a node or relationship a reader at version `upTo` sees, oldest first, each
   * with the commit times (epoch ms) of the versions that produced and ended it (null when unknown).
   */
  entityVersions(kind: 'node' | 'relationship', id: bigint, upTo: bigint): (EntityVersion & { from: number | null; to: number | null })[] {
    this.assertOpen();
    return this.withReader((c) => {
      const timeOf = this.commitTimes(c);
      return readEntityVersions(c, this.context, kind, id, upTo).map((v) => ({
        ...v,
        from: timeOf(v.version),
        to: v.endVersion === null ? null : timeOf(v.endVersion),
      }));
    });
  }

  /**
   * When a live node or relationship was created and last changed (the commit times, epoch ms, of
   * its creating version and of its current version); null when it does not exist.
   */
  entityTimestamps(kind: 'node' | 'relationship', id: bigint): { createdAt: number | null; updatedAt: number | null } | null {
    this.assertOpen();
    return this.withReader((c) => {
      const stamps = readEntityStamps(c, kind, id);
      if (stamps === null) return null;
      const timeOf = this.commitTimes(c);
      return { createdAt: timeOf(stamps.created), updatedAt: timeOf(stamps.updated) };
    });
  }

  /** Commit time (epoch ms) of a version, from the commit log and the commits not yet written to it. */
  private commitTimes(connection: Connection): (version: bigint) => number | null {
    const pending = new Map(this.pendingCommitLog);
    const select = connection.pluck('SELECT committed_at FROM commits WHERE version = ?');
    return (version) => {
      const stored = select.get(version) as bigint | undefined;
      return pending.get(version) ?? (stored === undefined ? null : Number(stored));
    };
  }

  /** Reads the database as it was at `time`. */
  readAtTime(time: Date, kind: ReaderKind = 'long'): ReadTransaction {
    return this.readAt(this.versionAt(time), kind);
  }

  private withReader<T>(action: (connection: Connection) => T): T {
    const connection = this.acquireReader();
    try {
      connection.stmt('BEGIN').run();
      return action(connection);
    } finally {
      this.releaseReader(connection);
    }
  }

  /** Counts, size and version (committed state). */
  stats(): DatabaseStats {
    this.assertOpen();
    const [version, nodes, relationships] = this.withReader((c) =>
      [StateKey.version, StateKey.nodeCount, StateKey.relCount].map((key) => readState(c, key)),
    );
    return { nodes: Number(nodes), relationships: Number(relationships), dataSizeBytes: this.diskBytes(), version: version! };
  }

  private diskBytes(): number {
    let total = 0;
    for (const suffix of ['', '-wal']) {
      try {
        total += statSync(this.file + suffix).size;
      } catch {
        // the WAL file may not exist yet
      }
    }
    return total;
  }

  /** History figures for `graphdb mvcc status` and the admin endpoints. */
  mvccStatus(): MvccStatus {
    this.assertOpen();
    const oldestReaderVersion = this.snapshots.oldestVersion;
    const startedAt = this.snapshots.oldestReaderStartedAt;
    const figures = this.withReader((c) => historyFigures(c, oldestReaderVersion));
    return {
      database: this.name,
      ...figures,
      activeReaders: this.snapshots.activeReaders,
      oldestReaderVersion,
      oldestReaderAgeSeconds: startedAt === null ? null : (this.snapshots.clock() - startedAt) / 1000,
    };
  }

  /** Prunes closed versions (never a head, never one an open reader needs). Takes the write lock. */
  async prune(options: PruneOptions = {}, lockTimeoutMs?: number): Promise<PruneResult> {
    return this.applyHistory((writer, pinFloor) => {
      const result = pruneHistory(writer, options, pinFloor);
      if (options.ttlMs !== undefined) pruneChanges(writer, Date.now() - options.ttlMs);
      return result;
    }, lockTimeoutMs);
  }

  /** Open readers and their pins (the MVCC lifecycle's reader policy works on them). */
  get readerRegistry(): SnapshotRegistry {
    return this.snapshots;
  }

  /** The oldest version an open reader pins, or the head version + 1 when none. */
  get pinFloor(): bigint {
    return this.snapshots.oldestVersion ?? this.committed + 1n;
  }

  /** The next node and relationship ids (the key space the lifecycle samples). */
  get idSpace(): { readonly node: bigint; readonly rel: bigint } {
    return this.nextIds;
  }

  /** Runs `read` on a pooled read connection inside one read transaction (lifecycle planning, debt). */
  readHistory<T>(read: (connection: Connection) => T): T {
    this.assertOpen();
    return this.withReader(read);
  }

  /**
   * Runs `apply` under the write lock in one SQLite write transaction (lifecycle apply phase):
   * commit times not yet logged are written first, so TTL checks see every commit.
   */
  async applyHistory<T>(apply: (writer: Connection, pinFloor: bigint) => T, lockTimeoutMs?: number): Promise<T> {
    this.assertOpen();
    const timeoutMs = lockTimeoutMs ?? this.options.writeLockTimeoutMs;
    const deadline = performance.now() + timeoutMs;
    await this.lock.acquire(timeoutMs);
    try {
      this.assertOpen();
      await this.beginImmediate(deadline);
      try {
        this.writeCommitLog(this.pendingCommitLog);
        const result = apply(this.writer, this.pinFloor);
        this.writer.stmt('COMMIT').run();
        this.pendingCommitLog = [];
        this.commitLogFlushedAt = Date.now();
        return result;
      } catch (error) {
        if (this.writer.db.inTransaction) this.writer.stmt('ROLLBACK').run();
        throw error;
      }
    } finally {
      this.lock.release();
    }
  }

  /** Rolls back an open writer, closes every connection. Open readers become unusable. */
  close(): void {
    if (this.closed) return;
    this.lock.rejectWaiters(new TransientError(StatusCodes.DatabaseUnavailable, `Database '${this.name}' is closing.`));
    this.activeWriter?.rollback();
    if (this.pendingCommitLog.length > 0 && !this.writer.db.inTransaction) {
      this.writer.db.pragma(`busy_timeout = ${CLOSE_BUSY_TIMEOUT_MS}`);
      this.writer.stmt('BEGIN IMMEDIATE').run();
      this.writeCommitLog(this.pendingCommitLog);
      this.writer.stmt('COMMIT').run();
      this.pendingCommitLog = [];
    }
    this.closed = true;
    this.readers.close();
    try {
      // Never wait for the checkpoint: another process (a running server) may hold the WAL, and a
      // busy wait here would delay every CLI command that shares its data directory.
      this.writer.db.pragma('busy_timeout = 0');
      this.writer.db.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      // a checkpoint is an optimisation; closing still persists everything
    }
    this.writer.close();
  }
}

function maxOf(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}
