/**
 * WAL snapshots (docs/backup-format.md, "WAL snapshots and point-in-time recovery"): compact JSON
 * backup files (json-backup.ts) of each user database, one file per database per snapshot, in
 * `<data_dir>/snapshots/<database>/<time>-v<version>.json`, written on the `wal.snapshot_interval`
 * schedule or on request, each followed by retention: at most `wal.snapshot_retention_max_count`
 * files per database, none older than `wal.snapshot_retention_max_age` (0: no age limit).
 * A file is written under a `.partial` name and renamed once complete, so a listed snapshot is whole.
 */
import { mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { GraphDB } from '../graphdb.js';
import { writeJsonBackup } from './json-backup.js';
import { restoreIntoRunning, type RunningRestoreResult } from './restore-running.js';
import { storeOf, storageOf } from '../engine-internals.js';

/** Settings of the snapshot service (the `wal` configuration section). */
export interface WalSnapshotSettings {
  /** Milliseconds between scheduled snapshots; 0: only on request. */
  readonly intervalMs: number;
  /** Snapshots kept per database (at least 1). */
  readonly maxCount: number;
  /** Snapshots older than this many milliseconds are deleted; 0: no age limit. */
  readonly maxAgeMs: number;
}

/** One snapshot file. */
export interface WalSnapshotInfo {
  readonly database: string;
  /** Absolute path of the JSON file. */
  readonly file: string;
  /** When it was taken (ISO 8601). */
  readonly takenAt: string;
  /** Commit version it holds (decimal string). */
  readonly version: string;
  readonly bytes: number;
}

/** Where snapshots go warnings (a pino logger fits). */
export interface WalSnapshotLogger {
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
}

const NAME = /^(\d{8}T\d{9}Z)-v(\d+)\.json$/;

function stamp(date: Date): string {
  return date.toISOString().replace(/[-:.]/g, '');
}

function parseStamp(text: string): Date {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z$/.exec(text)!;
  return new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.${m[7]}Z`);
}

/** Takes, lists and prunes the WAL snapshots of an open engine. */
export class WalSnapshots {
  /** `<data_dir>/snapshots`. */
  readonly dir: string;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<WalSnapshotInfo[]> | null = null;

  constructor(
    private readonly db: GraphDB,
    private readonly settings: WalSnapshotSettings,
    private readonly logger?: WalSnapshotLogger,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.dir = join(storageOf(db).dataDir, 'snapshots');
  }

  /** Starts the schedule (nothing when the interval is 0). */
  start(): void {
    if (this.settings.intervalMs <= 0 || this.timer !== null) return;
    this.timer = setInterval(() => {
      if (this.running !== null) return;
      this.take().catch((error: unknown) => this.logger?.warn({ err: error }, 'WAL snapshot failed'));
    }, this.settings.intervalMs);
    this.timer.unref();
  }

  /** Stops the schedule and waits for a snapshot in progress. */
  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  /** Takes a snapshot of every user database now (or of `databases`), then applies retention. */
  take(databases?: readonly string[]): Promise<WalSnapshotInfo[]> {
    const run = (this.running ?? Promise.resolve([])).catch(() => []).then(() => this.takeNow(databases));
    this.running = run;
    return run.finally(() => {
      if (this.running === run) this.running = null;
    });
  }

  private async takeNow(databases?: readonly string[]): Promise<WalSnapshotInfo[]> {
    const names = databases ?? this.db.databases().map((d) => d.name);
    const taken: WalSnapshotInfo[] = [];
    for (const name of names.map((n) => n.toLowerCase()).filter((n) => n !== 'system')) {
      const dir = join(this.dir, name);
      mkdirSync(dir, { recursive: true });
      const at = this.now();
      const reader = storeOf(this.db, name).beginRead('long');
      try {
        const file = join(dir, `${stamp(at)}-v${reader.version}.json`);
        await writeJsonBackup(`${file}.partial`, [{ name, reader }], { createdAt: at });
        renameSync(`${file}.partial`, file);
        taken.push({ database: name, file, takenAt: at.toISOString(), version: reader.version.toString(), bytes: statSync(file).size });
      } finally {
        reader.close();
      }
      this.applyRetention(name);
    }
    this.logger?.info({ snapshots: taken.length }, 'WAL snapshots written');
    return taken;
  }

  /** Deletes the snapshots of `database` beyond the count and age limits; returns the deleted files. */
  applyRetention(database: string): string[] {
    const all = this.list(database);
    const oldest = this.settings.maxAgeMs > 0 ? this.now().getTime() - this.settings.maxAgeMs : -Infinity;
    const doomed = all.filter((s, i) => i >= this.settings.maxCount || Date.parse(s.takenAt) < oldest);
    for (const s of doomed) rmSync(s.file, { force: true });
    return doomed.map((s) => s.file);
  }

  /** The snapshots of `database` (or of every database), newest first. */
  list(database?: string): WalSnapshotInfo[] {
    let names: string[];
    try {
      names = database === undefined ? readdirSync(this.dir) : [database.toLowerCase()];
    } catch {
      return [];
    }
    const out: WalSnapshotInfo[] = [];
    for (const name of names) {
      let files: string[];
      try {
        files = readdirSync(join(this.dir, name));
      } catch {
        continue;
      }
      for (const file of files) {
        const m = NAME.exec(file);
        if (m === null) continue;
        const path = join(this.dir, name, file);
        out.push({ database: name, file: path, takenAt: parseStamp(m[1]!).toISOString(), version: m[2]!, bytes: statSync(path).size });
      }
    }
    return out.sort((a, b) => b.takenAt.localeCompare(a.takenAt) || Number(BigInt(b.version) - BigInt(a.version)));
  }
}

/** Options of a point-in-time recovery. */
export interface PointInTimeOptions {
  readonly database: string;
  /** Restore the database as it was at this instant. */
  readonly at: Date;
  readonly dryRun?: boolean;
}

/** What a point-in-time recovery restores (or would). */
export interface PointInTimePlan {
  readonly database: string;
  readonly at: string;
  /** The last version committed at or before `at`. */
  readonly version: string;
  /** `history`: the version chains kept in the database; `snapshot`: a WAL snapshot holding exactly that version. */
  readonly source: 'history' | 'snapshot';
  /** The snapshot file, for source `snapshot`. */
  readonly snapshot: string | null;
}

/** A point in time that cannot be recovered (history pruned and no snapshot of that version). */
export class PointInTimeError extends Error {
  override name = 'PointInTimeError';
}

/**
 * Chooses how to recover `database` as of `at`: the version V last committed at or before `at`
 * is read from the database's own version chains (the log) when no closed version it needs was
 * pruned (V >= prune floor); otherwise from a WAL snapshot of exactly version V.
 * @throws PointInTimeError when neither holds V (naming the nearest earlier snapshot)
 */
export function planPointInTime(db: GraphDB, snapshots: WalSnapshots, options: PointInTimeOptions): PointInTimePlan {
  const store = storeOf(db, options.database);
  const version = store.versionAt(options.at);
  const floor = store.mvccStatus().pruneFloor;
  const base = { database: store.name, at: options.at.toISOString(), version: version.toString() };
  if (version >= floor) return { ...base, source: 'history', snapshot: null };
  const earlier = snapshots.list(store.name).filter((s) => Date.parse(s.takenAt) <= options.at.getTime());
  const exact = earlier.find((s) => s.version === version.toString());
  if (exact !== undefined) return { ...base, source: 'snapshot', snapshot: exact.file };
  const nearest = earlier[0];
  throw new PointInTimeError(
    `Database '${store.name}' at ${base.at} was version ${version}, but its history below version ${floor} was pruned and no WAL snapshot holds version ${version}.` +
      (nearest === undefined
        ? ''
        : ` The nearest earlier snapshot is ${nearest.file} (version ${nearest.version}, taken ${nearest.takenAt}); restore it with {"input": "${nearest.file}"}.`),
  );
}

/** Writes the JSON backup file of `plan` (a history cut) to `file`. */
export async function writePointInTime(db: GraphDB, plan: PointInTimePlan, file: string): Promise<void> {
  const reader = storeOf(db, plan.database).readAt(BigInt(plan.version));
  try {
    await writeJsonBackup(file, [{ name: plan.database, reader }]);
  } finally {
    reader.close();
  }
}

/**
 * Point-in-time recovery into the running server: restores `database` as it was at `at` (see
 * `planPointInTime`) through `restoreIntoRunning` (writes quiesced, readers see the old or the
 * recovered state). A history cut is first written as a JSON backup file inside the data
 * directory and deleted afterwards. `dryRun` reports what would be restored and changes nothing.
 */
export async function restoreToPointInTime(
  db: GraphDB,
  snapshots: WalSnapshots,
  options: PointInTimeOptions,
): Promise<RunningRestoreResult & { readonly pointInTime: PointInTimePlan }> {
  const plan = planPointInTime(db, snapshots, options);
  const temporary = plan.source === 'history' ? join(storageOf(db).dataDir, `pitr-${plan.database}-${stamp(new Date())}.json`) : null;
  try {
    if (temporary !== null) await writePointInTime(db, plan, temporary);
    const result = await restoreIntoRunning(db, {
      input: temporary ?? plan.snapshot!,
      databases: [plan.database],
      ...(options.dryRun === undefined ? {} : { dryRun: options.dryRun }),
    });
    return { ...result, pointInTime: plan };
  } finally {
    if (temporary !== null) rmSync(temporary, { force: true });
  }
}
