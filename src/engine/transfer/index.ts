/**
 * Import, export, backup and restore (`graphdb import|export|backup|restore` and the server's
 * `POST /admin/backup|restore`).
 *
 * ```ts
 * await importGraph(db, { format: 'jsonl' | 'csv' | 'cypher', inputs: [{ file, kind?, labels?, type? }],
 *                         database?, onError?: 'skip' | 'fail', batchSize?, delimiter?, arrayDelimiter?, quote?,
 *                         mode?: 'full' | 'incremental', idType?: 'string' | 'integer' | 'actual', onProgress? })
 *   // -> ImportSummary { nodes, relationships, properties, skipped, errors: [{ file, line, message }], completed, ... }
 * await exportGraph(db, { format, target: file | dir (csv) | Writable, database?, atVersion? })
 *   // -> ExportResult { nodes, relationships, version, bytes, lossyKeys, files, durationMs }
 * await createBackup(dataDir, { target, databases?, graphdbVersion? })   // -> BackupManifest (online; SQLite backup API in steps)
 * await restoreBackup(backupDir, emptyDataDir)                          // -> { manifest, dataDir }; BackupError
 * await restoreIntoRunning(db, { input: dir | manifest.json | file.json, databases?, dryRun? })  // -> RunningRestoreResult
 * await createJsonBackup(db, { target: 'x.json', databases? })           // -> JsonBackupFigures[] (the JSON backup file)
 * ```
 */
export * from './transfer.js';
export type { ImportMode, ImportProgress, ImportSummary, ImportRowError, OnError } from './import-sink.js';
export type { IdType } from './csv-values.js';
export type { ExportCounts } from './jsonl.js';
export { createBackup, restoreBackup, readManifest, BackupError, BACKUP_FORMAT_VERSION } from './backup.js';
export { restoreIntoRunning } from './restore-running.js';
export { WalSnapshots, PointInTimeError, planPointInTime, restoreToPointInTime } from './wal-snapshots.js';
export type { WalSnapshotInfo, WalSnapshotSettings, PointInTimeOptions, PointInTimePlan } from './wal-snapshots.js';
export type { RunningRestoreOptions, RunningRestoreResult, RunningRestoreEntry, RestoreFigures } from './restore-running.js';
export { createJsonBackup, readJsonBackup, writeJsonBackup, JSON_BACKUP_FORMAT, JsonBackupError } from './json-backup.js';
export type { JsonBackup, JsonBackupDatabase, JsonBackupFigures, JsonBackupOptions } from './json-backup.js';
export type { BackupManifest, BackupDatabaseEntry, BackupOptions, RestoreResult } from './backup.js';
export { encodeValue, decodeValue, ValueDecodeError, type Json } from './value-json.js';
export { splitStatements, StatementSplitter, type ScriptStatement } from './statements.js';
export { cypherLiteral } from './cypher-literal.js';
export { measureImportRate, type ImportRate, type ImportRateOptions } from './measure.js';
export { quoteCsv } from './csv-records.js';
export { LineReader } from './line-reader.js';
