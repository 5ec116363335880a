/**
 * What the CLI knows about a data directory before it opens one: whether it holds a database at
 * all (a mistyped `--data-dir` must not silently create an empty one), and whether a running
 * `graphdb serve` holds it (some commands must not run beside a server).
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Errors } from '@oclif/core';

/** The file every database directory has: the `system` database. */
const SYSTEM_FILE = 'system.db';
/** Written by `graphdb serve` while it runs; removed on shutdown. */
const SERVER_FILE = 'graphdb-server.json';

/** Why a data directory cannot be used by a command (printed by oclif as an error, exit status 1). */
export class DataDirError extends Errors.CLIError {
  constructor(message: string) {
    super(message, { exit: 1 });
  }
}

/** True when `dataDir` holds a graphdb database. */
export function holdsDatabase(dataDir: string): boolean {
  return existsSync(join(dataDir, SYSTEM_FILE));
}

/**
 * Refuses a data directory that holds no database, unless the command was asked to create one.
 * @throws DataDirError naming the resolved path
 */
export function requireDatabase(dataDir: string, create: boolean): void {
  if (create || holdsDatabase(dataDir)) return;
  const path = resolve(dataDir);
  const what = existsSync(path) ? 'holds no graphdb database' : 'does not exist';
  throw new DataDirError(
    `The data directory ${path} ${what}. Check --data-dir (or GRAPHDB_DATA_DIR), or pass --create to create a new database there.`,
  );
}

/** What a running server records about itself in its data directory. */
export interface ServerRecord {
  readonly pid: number;
  readonly http: string | null;
  readonly bolt: string | null;
}

/** Records the running server in its data directory (see {@link runningServer}). */
export function recordServer(dataDir: string, record: ServerRecord): void {
  writeFileSync(join(dataDir, SERVER_FILE), JSON.stringify(record) + '\n');
}

/** Removes the record of a server that is shutting down (only its own). */
export function forgetServer(dataDir: string, pid: number): void {
  const current = readRecord(dataDir);
  if (current !== null && current.pid === pid) rmSync(join(dataDir, SERVER_FILE), { force: true });
}

/** The server running on `dataDir`, or null (a record left by a killed server is ignored). */
export function runningServer(dataDir: string): ServerRecord | null {
  const record = readRecord(dataDir);
  if (record === null || record.pid === process.pid) return null;
  try {
    process.kill(record.pid, 0);
    return record;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? record : null;
  }
}

/**
 * Refuses to run a command that must not share a data directory with a running server.
 * @param method and path: the server's admin API request that does the same work
 */
export function requireNoServer(dataDir: string, command: string, method: string, path: string): void {
  const server = runningServer(dataDir);
  if (server === null) return;
  const where = server.http ?? server.bolt ?? 'no listener';
  throw new DataDirError(
    `A graphdb server (pid ${server.pid}, ${where}) is running on ${resolve(dataDir)}; \`graphdb ${command}\` must not run beside it. ` +
      `Use the server's admin API instead: ${method} ${server.http ?? ''}${path}`,
  );
}

function readRecord(dataDir: string): ServerRecord | null {
  try {
    const parsed = JSON.parse(readFileSync(join(dataDir, SERVER_FILE), 'utf8')) as Partial<ServerRecord>;
    return typeof parsed.pid === 'number' ? { pid: parsed.pid, http: parsed.http ?? null, bolt: parsed.bolt ?? null } : null;
  } catch {
    return null;
  }
}
