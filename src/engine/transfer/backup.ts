/**
 * Online backup and restore of a whole data directory (every database, `system` included).
 *
 * Backup opens each database file read-only and copies one consistent snapshot (a single read
 * transaction) with SQLite's online backup API, a few hundred pages per event-loop turn, while
 * writers in this or another process go on committing. The backup directory holds the copies and a
 * `manifest.json` (format in docs/backup-format.md). Restore verifies the manifest and the
 * SHA-256 of every file, and copies them into an empty data directory.
 *
 * The same functions serve `graphdb backup|restore` and the server's `POST /admin/backup|restore`.
 */
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  createReadStream,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, join, resolve } from 'node:path';
import Database from 'better-sqlite3';

/** Version of the backup layout written to the manifest. */
export const BACKUP_FORMAT_VERSION = 1;
const MANIFEST = 'manifest.json';

/** One database in a backup. */
export interface BackupDatabaseEntry {
  readonly name: string;
  /** File name inside the backup directory (and inside the restored data directory). */
  readonly file: string;
  readonly bytes: number;
  readonly sha256: string;
  /** Commit version of the snapshot that was copied. */
  readonly version: string;
  readonly nodes: number;
  readonly relationships: number;
}

/** Content of `manifest.json`. */
export interface BackupManifest {
  readonly format: 'graphdb-backup';
  readonly formatVersion: number;
  readonly createdAt: string;
  readonly graphdbVersion: string | null;
  readonly databases: readonly BackupDatabaseEntry[];
  readonly durationMs: number;
}

/** Options of createBackup. */
export interface BackupOptions {
  /** Directory the backup is written to; must not exist or be empty. */
  readonly target: string;
  /** Only these databases (default: every database incl. `system`). */
  readonly databases?: readonly string[];
  readonly graphdbVersion?: string;
  /** Called after each database was copied. */
  readonly onDatabase?: (entry: BackupDatabaseEntry) => void;
}

/** A backup or restore failure the caller should show as is (bad directory, checksum mismatch, ...). */
export class BackupError extends Error {
  override name = 'BackupError';
}

function assertEmptyDirectory(dir: string, what: string): void {
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new BackupError(`${what} '${dir}' is not empty.`);
}

/** SHA-256 of a file, streamed. */
export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

function listDatabaseFiles(dataDir: string): { name: string; file: string }[] {
  const systemFile = join(dataDir, 'system.db');
  if (!existsSync(systemFile)) throw new BackupError(`'${dataDir}' is not a graphdb data directory (no system.db).`);
  const system = new Database(systemFile, { readonly: true, fileMustExist: true });
  try {
    system.pragma('busy_timeout = 5000');
    const rows = system.prepare('SELECT name, file FROM databases ORDER BY name').all() as { name: string; file: string }[];
    return [{ name: 'system', file: 'system.db' }, ...rows];
  } finally {
    system.close();
  }
}

function figures(file: string): { version: string; nodes: number; relationships: number } {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    db.defaultSafeIntegers(true);
    const state = (key: string) => db.prepare('SELECT value FROM state WHERE key = ?').pluck().get(key) as bigint | undefined;
    // The counts every commit maintains in `state` (no scan of the copy); a count for files that lack them.
    const count = (key: string, table: string) => Number(state(key) ?? db.prepare(`SELECT count(*) FROM ${table}`).pluck().get());
    return { version: (state('version') ?? 0n).toString(), nodes: count('node_count', 'nodes'), relationships: count('rel_count', 'rels') };
  } finally {
    db.close();
  }
}

/** Pages copied per step of the online backup (4 KiB each; a step of 256 measured 21 ms in E1, docs/perf.md). */
const PAGES_PER_STEP = 64;

/**
 * Copies one database file's current committed snapshot to `target` with SQLite's online backup
 * API, a few hundred pages per event-loop turn. The source connection holds one read
 * transaction for the whole copy, so every page comes from one committed version and commits by
 * other connections never restart it. The copy is then switched from WAL to a rollback journal,
 * so it is one self-contained file.
 */
async function snapshotInto(source: string, target: string): Promise<void> {
  const db = new Database(source, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 10000');
    db.prepare('BEGIN').run();
    db.prepare('SELECT count(*) FROM meta').get();
    await db.backup(target, { progress: () => PAGES_PER_STEP });
    db.prepare('COMMIT').run();
  } finally {
    db.close();
  }
  const copy = new Database(target, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
}

/**
 * One database file's committed snapshot as a standalone file (the backup format's `.db` file),
 * with the replication log sequence and commit version it holds (the replication snapshots of
 * src/engine/cluster/snapshot-store.ts).
 */
export async function snapshotDatabaseFile(source: string, target: string): Promise<{ sequence: bigint; version: bigint }> {
  await snapshotInto(source, target);
  const db = new Database(target, { readonly: true, fileMustExist: true });
  try {
    db.defaultSafeIntegers(true);
    const state = (key: string): bigint =>
      (db.prepare('SELECT value FROM state WHERE key = ?').pluck().get(key) as bigint | undefined) ?? 0n;
    return { sequence: state('replicated_seq'), version: state('version') };
  } finally {
    db.close();
  }
}

/** Takes an online backup of every database of `dataDir` into `options.target`. */
export async function createBackup(dataDir: string, options: BackupOptions): Promise<BackupManifest> {
  const started = Date.now();
  const target = resolve(options.target);
  assertEmptyDirectory(target, 'Backup directory');
  let databases = listDatabaseFiles(dataDir);
  if (options.databases !== undefined) {
    const wanted = new Set(options.databases.map((d) => d.toLowerCase()));
    const unknown = [...wanted].filter((w) => !databases.some((d) => d.name === w));
    if (unknown.length > 0) throw new BackupError(`Unknown database(s): ${unknown.join(', ')}`);
    // `system` (users, roles, the database list) always comes along: without it nothing can be restored.
    databases = databases.filter((d) => wanted.has(d.name) || d.name === 'system');
  }
  mkdirSync(target, { recursive: true });
  const partial = join(target, '.partial');
  mkdirSync(partial);
  const entries: BackupDatabaseEntry[] = [];
  try {
    for (const { name, file } of databases) {
      const copy = join(partial, basename(file));
      await snapshotInto(join(dataDir, file), copy);
      const entry: BackupDatabaseEntry = {
        name,
        file: basename(file),
        bytes: statSync(copy).size,
        sha256: await sha256File(copy),
        ...figures(copy),
      };
      entries.push(entry);
      options.onDatabase?.(entry);
    }
    for (const entry of entries) renameSync(join(partial, entry.file), join(target, entry.file));
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
  const manifest: BackupManifest = {
    format: 'graphdb-backup',
    formatVersion: BACKUP_FORMAT_VERSION,
    createdAt: new Date(started).toISOString(),
    graphdbVersion: options.graphdbVersion ?? null,
    databases: entries,
    durationMs: Date.now() - started,
  };
  writeFileSync(join(target, MANIFEST), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}

/** Reads and checks a backup's manifest. */
export function readManifest(backupDir: string): BackupManifest {
  const path = join(backupDir, MANIFEST);
  if (!existsSync(path)) throw new BackupError(`'${backupDir}' is not a graphdb backup (no ${MANIFEST}).`);
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as BackupManifest;
  if (manifest.format !== 'graphdb-backup' || typeof manifest.formatVersion !== 'number') {
    throw new BackupError(`'${path}' is not a graphdb backup manifest.`);
  }
  if (manifest.formatVersion > BACKUP_FORMAT_VERSION) {
    throw new BackupError(`Backup format ${manifest.formatVersion} is newer than this graphdb supports (${BACKUP_FORMAT_VERSION}).`);
  }
  if (!manifest.databases.some((d) => d.name === 'system')) throw new BackupError('The backup has no system database.');
  return manifest;
}

/** Result of a restore. */
export interface RestoreResult {
  readonly manifest: BackupManifest;
  readonly dataDir: string;
}

/**
 * Restores a backup into `dataDir`, which must not exist or be empty (never overwrites data).
 * Every file's checksum and SQLite integrity are verified before anything lands in `dataDir`.
 */
export async function restoreBackup(backupDir: string, dataDir: string): Promise<RestoreResult> {
  const manifest = readManifest(backupDir);
  assertEmptyDirectory(dataDir, 'Data directory');
  await verifyBackupFiles(backupDir, manifest.databases);
  mkdirSync(dataDir, { recursive: true });
  for (const entry of manifest.databases) copyFileSync(join(backupDir, entry.file), join(dataDir, entry.file));
  forgetDatabasesNotRestored(dataDir, new Set(manifest.databases.map((d) => d.name)));
  return { manifest, dataDir: resolve(dataDir) };
}

/** Checks that each entry's file is present, has the manifest's SHA-256 and passes SQLite's quick_check. */
export async function verifyBackupFiles(backupDir: string, entries: readonly BackupDatabaseEntry[]): Promise<void> {
  for (const entry of entries) {
    const file = join(backupDir, entry.file);
    if (!existsSync(file)) throw new BackupError(`Backup file '${entry.file}' of database '${entry.name}' is missing.`);
    const sum = await sha256File(file);
    if (sum !== entry.sha256) throw new BackupError(`Backup file '${entry.file}' is corrupt (checksum mismatch).`);
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      const result = db.pragma('quick_check', { simple: true });
      if (result !== 'ok') throw new BackupError(`Backup file '${entry.file}' failed the SQLite integrity check: ${String(result)}`);
    } finally {
      db.close();
    }
  }
}

/**
 * A partial backup holds `system` and some databases: the restored `system` must not list the
 * databases whose files were not part of the backup.
 */
function forgetDatabasesNotRestored(dataDir: string, restored: ReadonlySet<string>): void {
  const system = new Database(join(dataDir, 'system.db'), { fileMustExist: true });
  try {
    const listed = system.prepare('SELECT name FROM databases').all() as { name: string }[];
    const forget = system.prepare('DELETE FROM databases WHERE name = ?');
    for (const { name } of listed) if (!restored.has(name)) forget.run(name);
  } finally {
    system.close();
  }
}
