/**
 * Flags shared by the data commands and a helper to open the engine on the data directory.
 */
import { Flags } from '@oclif/core';
import { GraphDB, type GraphDBOptions } from '../engine/index.js';
import { requireDatabase } from './data-dir.js';

/** `--data-dir` (env GRAPHDB_DATA_DIR, default ./data). */
export const dataDirFlag = Flags.string({
  description: 'data directory (env GRAPHDB_DATA_DIR)',
  env: 'GRAPHDB_DATA_DIR',
  default: './data',
});

/** `--database` / `-d`: the database to work on (default: the default database). */
export const databaseFlag = Flags.string({ char: 'd', description: 'database name (default: the default database)' });

/** `--create`: allow a data directory that holds no database yet (a new one is created). */
export const createFlag = Flags.boolean({ description: 'create a new database when the data directory holds none' });

/** Options of {@link withEngine}. */
export interface WithEngineOptions {
  /** Create a database when the directory holds none (otherwise such a directory is refused). */
  readonly create?: boolean;
  /** More engine options (memory decay settings, ...). */
  readonly engine?: Omit<GraphDBOptions, 'dataDir'>;
}

/**
 * Opens the engine on `dataDir`, runs `action`, closes the engine. A directory that holds no
 * database is refused (DataDirError) unless `create` is set. Another process (a running
 * server) may share the directory: SQLite coordinates their reads and writes.
 */
export async function withEngine<T>(dataDir: string, action: (db: GraphDB) => Promise<T>, options: WithEngineOptions = {}): Promise<T> {
  requireDatabase(dataDir, options.create === true);
  const db = await GraphDB.open({ ...options.engine, dataDir });
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
