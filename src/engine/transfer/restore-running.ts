/**
 * Restore into the running server (`POST /admin/restore`, `graphdb restore --into-running`).
 *
 * The input is a backup directory (or its `manifest.json`) or a JSON backup file
 * (json-backup.ts). Everything is verified before anything changes: the manifest, every file's
 * SHA-256 and SQLite integrity, or the JSON document. A dry run stops there and answers what would
 * happen per database (replace or create, the current and the restored version and counts).
 * Otherwise each database's content is staged in a new file of the data directory (a copy of the
 * backup file, or a database built from the JSON document) and swapped in by
 * `GraphDB.replaceDatabase`: writes are quiesced for the swap, readers see the old or the new
 * state and never a mix, and writes resume on the restored database. Databases are swapped one
 * after the other (each is consistent on its own, as in the backup). `system` (users, roles,
 * aliases) is not replaced in a running server: restore it offline with `graphdb restore`.
 */
import { existsSync, openSync, readSync, closeSync, rmSync, statSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { GraphDB } from '../graphdb.js';
import { SYSTEM_DATABASE, normalizeDatabaseName } from '../catalog/database-catalog.js';
import { BackupError, readManifest, verifyBackupFiles } from './backup.js';
import { JsonBackupError, loadJsonBackupDatabase, looksLikeJsonBackup, readJsonBackup, type JsonBackupDatabase } from './json-backup.js';
import { storageOf } from '../engine-internals.js';

/** Options of a restore into the running server. */
export interface RunningRestoreOptions {
  /** A backup directory, its `manifest.json`, or a JSON backup file (a path on the server). */
  readonly input: string;
  /** Only these databases of the backup (default: every database but `system`). */
  readonly databases?: readonly string[];
  /** Verify and report what would happen; change nothing. */
  readonly dryRun?: boolean;
  /** How long the swap waits for the write lock (default 30 s). */
  readonly lockTimeoutMs?: number;
}

/** Version and head counts of a database. */
export interface RestoreFigures {
  readonly version: string;
  readonly nodes: number;
  readonly relationships: number;
}

/** What a restore does (or did) to one database. */
export interface RunningRestoreEntry {
  readonly database: string;
  /** `replace` an existing database, or `create` one the server does not have. */
  readonly action: 'replace' | 'create';
  /** The database before the restore (null when it does not exist). */
  readonly current: RestoreFigures | null;
  /** The content of the backup. */
  readonly restored: RestoreFigures;
}

/** Outcome of a restore into the running server. */
export interface RunningRestoreResult {
  readonly input: string;
  readonly format: 'directory' | 'json';
  readonly dryRun: boolean;
  /** When the backup was taken. */
  readonly backupCreatedAt: string;
  readonly databases: readonly RunningRestoreEntry[];
  /** Databases of the backup left as they are, and why. */
  readonly skipped: readonly { readonly database: string; readonly reason: string }[];
  readonly durationMs: number;
}

/** A database to restore: what it holds and how to stage it as a file of the data directory. */
interface RestorePlanItem {
  readonly name: string;
  readonly restored: RestoreFigures;
  /** Writes the database's content to `file` inside the data directory. */
  stage(db: GraphDB, file: string): Promise<void>;
}

interface RestorePlan {
  readonly format: 'directory' | 'json';
  readonly createdAt: string;
  readonly items: readonly RestorePlanItem[];
}

const SYSTEM_SKIPPED = 'users, roles and aliases are not replaced in a running server (restore system offline with `graphdb restore`)';

function isJsonFile(path: string): boolean {
  if (basename(path) === 'manifest.json' || !statSync(path).isFile()) return false;
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(64);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    return looksLikeJsonBackup(buffer.subarray(0, read).toString('utf8'));
  } finally {
    closeSync(fd);
  }
}

async function planDirectory(input: string): Promise<RestorePlan> {
  const dir = basename(input) === 'manifest.json' ? dirname(input) : input;
  const manifest = readManifest(dir);
  await verifyBackupFiles(dir, manifest.databases);
  return {
    format: 'directory',
    createdAt: manifest.createdAt,
    items: manifest.databases.map((entry) => ({
      name: entry.name,
      restored: { version: entry.version, nodes: entry.nodes, relationships: entry.relationships },
      stage: async (db, file) => copyFile(join(dir, entry.file), join(storageOf(db).dataDir, file)),
    })),
  };
}

async function stageJson(db: GraphDB, file: string, database: JsonBackupDatabase): Promise<void> {
  const store = storageOf(db).openDetached(file, database.name);
  try {
    await loadJsonBackupDatabase(store, database);
  } finally {
    store.close();
  }
}

async function planJson(input: string): Promise<RestorePlan> {
  const backup = await readJsonBackup(input);
  return {
    format: 'json',
    createdAt: backup.createdAt,
    items: backup.databases.map((database) => ({
      name: database.name,
      restored: { version: String(database.version), nodes: database.nodes.length, relationships: database.relationships.length },
      stage: (db, file) => stageJson(db, file, database),
    })),
  };
}

/** Reads and verifies a restore input (directory or JSON backup file); changes nothing. */
async function planRestore(input: string): Promise<RestorePlan> {
  if (!existsSync(input)) throw new BackupError(`'${input}' does not exist.`);
  try {
    return isJsonFile(input) ? await planJson(input) : await planDirectory(input);
  } catch (error) {
    if (error instanceof JsonBackupError) throw new BackupError(error.message);
    throw error;
  }
}

function currentFigures(db: GraphDB, name: string): RestoreFigures | null {
  if (!storageOf(db).hasDatabase(name)) return null;
  const stats = db.stats(name);
  return { version: stats.version.toString(), nodes: stats.nodeCount, relationships: stats.relationshipCount };
}

function removeStaged(db: GraphDB, file: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(join(storageOf(db).dataDir, file + suffix), { force: true });
}

/**
 * Restores a backup into the running engine `db` (see the module comment).
 * @throws BackupError for an input that is not a readable, intact backup or names unknown databases
 */
export async function restoreIntoRunning(db: GraphDB, options: RunningRestoreOptions): Promise<RunningRestoreResult> {
  const started = Date.now();
  const input = resolve(options.input);
  const plan = await planRestore(input);
  const wanted = options.databases?.map((d) => d.toLowerCase()) ?? null;
  if (wanted !== null) {
    const unknown = wanted.filter((w) => !plan.items.some((item) => item.name === w));
    if (unknown.length > 0) throw new BackupError(`The backup holds no database named ${unknown.map((u) => `'${u}'`).join(', ')}.`);
  }
  const skipped: { database: string; reason: string }[] = [];
  const chosen: RestorePlanItem[] = [];
  for (const item of plan.items) {
    if (wanted !== null && !wanted.includes(item.name)) continue;
    if (item.name === SYSTEM_DATABASE) skipped.push({ database: item.name, reason: SYSTEM_SKIPPED });
    else {
      normalizeDatabaseName(item.name);
      chosen.push(item);
    }
  }
  const entries: RunningRestoreEntry[] = chosen.map((item) => {
    const current = currentFigures(db, item.name);
    return { database: item.name, action: current === null ? 'create' : 'replace', current, restored: item.restored };
  });
  if (options.dryRun !== true) {
    for (const item of chosen) {
      const file = `${item.name}.restored-${Date.now().toString(36)}.db`;
      try {
        await item.stage(db, file);
        await db.replaceDatabase(item.name, file, options.lockTimeoutMs === undefined ? {} : { lockTimeoutMs: options.lockTimeoutMs });
      } catch (error) {
        removeStaged(db, file);
        throw error;
      }
    }
  }
  return {
    input,
    format: plan.format,
    dryRun: options.dryRun === true,
    backupCreatedAt: plan.createdAt,
    databases: entries,
    skipped,
    durationMs: Date.now() - started,
  };
}
