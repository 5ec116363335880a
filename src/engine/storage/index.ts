/**
 * The public storage API (the only module outside storage/ should import from here).
 *
 * ```ts
 * const engine = StorageEngine.open({ dataDir, syncMode?: 'normal' | 'full', defaultDatabase?: 'graphdb',
 *                                     writeLockTimeoutMs?: 10_000, logger? });
 * engine.listDatabases(): DatabaseInfo[]              // system + user databases
 * engine.database(name?): DatabaseStore              // default database when omitted; DatabaseNotFound
 * await engine.createDatabase(name, ifNotExists?)    // -> boolean (false: existed, IF NOT EXISTS)
 * await engine.dropDatabase(name, ifExists?)         // -> boolean
 * engine.events.subscribe((events: readonly ChangeEvent[]) => void): () => void   // after commit only
 * engine.close()
 *
 * const db = engine.database();                      // DatabaseStore
 * db.name; db.uuid; db.version                       // last committed version (bigint, 0 = empty)
 * const r = db.beginRead();                          // ReadTransaction = GraphReader + close(): a stable snapshot
 * const w = await db.beginWrite({ timeoutMs? });     // WriteTransaction (GraphWriter); waits for the single
 *                                                    // writer lock, WriteConflict (TransientError) on timeout
 * db.tryBeginWrite(): WriteTransaction | null        // no waiting
 * w.commit(): bigint                                 // synchronous; the new version (unchanged if no writes);
 *                                                    // deferred constraint checks may throw (then rolled back)
 * w.rollback(): void                                 // leaves no trace; idempotent
 * w.savepoint(): Savepoint                           // { release(), rollbackTo() } statement-level atomicity
 * w.counters                                         // WriteCounters so far
 * db.readAt(version: bigint): ReadTransaction        // historical snapshot; ArgumentError if unknown/pruned
 * db.readAtTime(date: Date): ReadTransaction; db.versionAt(date): bigint
 * db.stats(): { nodes, relationships, dataSizeBytes, version }
 * const loader = await BulkLoader.open(db, { uniqueChecks? });   // bulk import as one commit (bulk-load.ts):
 * loader.addNode(labels, props) -> id; loader.addRelationship(type, startId, endId, props); loader.finish() | abort()
 * loader.finish({ checkpoint: { key, batch, state, delta } | { clear: key } }); loader.checkpoints(); loader.checkpointDeltas(key)
 *                                                    // resumable imports' progress, committed with each batch
 * db.mvccStatus(): MvccStatus; await db.prune({ maxVersions?, ttlMs? }): PruneResult  // never removes heads
 * ```
 *
 * Reader conventions (beyond graph-store.ts): `nodeProperty`/`relationshipProperty` return
 * undefined when the entity does not exist and null when it lacks the property. Scans of a
 * write transaction are materialized (safe to write while iterating); scans of a read
 * transaction are lazy and paged. Always close read transactions (they pin a snapshot and a
 * pooled connection). Writes validate property values as Neo4j does (no maps, no nulls or
 * mixed types in lists) with Neo.ClientError.Statement.TypeError.
 * Constraint checks: uniqueness/key uniqueness immediately on each write; existence, property
 * type and non-detach delete of a connected node at commit, all as
 * Neo.ClientError.Schema.ConstraintValidationFailed.
 */
export { StorageEngine, type StorageEngineOptions, type StorageLogger } from './storage-engine.js';
export { DatabaseStore, type DatabaseStats } from './database-store.js';
export { WriteTransaction } from './write-transaction.js';
export { BulkLoader, type BulkLoadOptions, type BulkLoadResult } from './bulk-load.js';
export { TimeSlice } from './time-slice.js';
export type { CheckpointWrite, StoredCheckpoint } from './import-checkpoint.js';
export type { ReadTransaction } from './snapshot-reader.js';
export type { ChangeEventSource } from './event-bus.js';
export type { SyncMode } from './sqlite/connection.js';
export type { DatabaseInfo } from '../catalog/database-catalog.js';
export { SYSTEM_DATABASE, normalizeDatabaseName } from '../catalog/database-catalog.js';
export type { MvccStatus, PruneOptions, PruneResult } from '../mvcc/maintenance.js';
export { assertStorableProperty } from './property-rules.js';
export { encodeStandalone as encodePropertyValue, decodeStandalone as decodePropertyValue } from './codec/value-codec.js';
export { parseElementId } from './element-id.js';
export * from './graph-store.js';
