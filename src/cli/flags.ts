/**
 * Flags shared by the data commands and a helper to open the engine on the data directory.
 */
import { Flags } from '@oclif/core';
import { GraphDB } from '../engine/graphdb.js';

/** `--data-dir` (env GRAPHDB_DATA_DIR, default ./data). */
export const dataDirFlag = Flags.string({
  description: 'data directory (env GRAPHDB_DATA_DIR)',
  env: 'GRAPHDB_DATA_DIR',
  default: './data',
});

/** `--database` / `-d`: the database to work on (default: the default database). */
export const databaseFlag = Flags.string({ char: 'd', description: 'database name (default: the default database)' });

/**
 * Opens the engine on `dataDir`, runs `action`, closes the engine. Embedded access: another
 * process (a running server) may share the directory for reads, but writes from two processes
 * are not coordinated; stop the server or use its endpoints for writes.
 */
export async function withEngine<T>(dataDir: string, action: (db: GraphDB) => Promise<T>): Promise<T> {
  const db = await GraphDB.open({ dataDir });
  try {
    return await action(db);
  } finally {
    await db.close();
  }
}

/** Human-readable byte count. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}
