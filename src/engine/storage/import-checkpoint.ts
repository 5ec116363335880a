/**
 * Checkpoints of resumable batched imports, kept in the database file itself: a batch of a bulk
 * load (`bulk-load.ts`) writes its checkpoint inside its own SQLite transaction, so what a
 * checkpoint says was imported is exactly what is committed, whatever kills the process.
 *
 * `import_checkpoints` holds one row per unfinished import (its key, the caller's state as text);
 * `import_checkpoint_batches` one row per committed batch of it (the caller's delta as text: what
 * a resumed import must know of that batch). The last batch of an import deletes both. Storage
 * does not interpret the texts (their meaning is the importer's, `transfer/resume.ts`).
 */
import type { Connection } from './sqlite/connection.js';

const TABLES_SQL = `
CREATE TABLE IF NOT EXISTS import_checkpoints (key TEXT PRIMARY KEY, state TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS import_checkpoint_batches (
  key TEXT NOT NULL,
  batch INTEGER NOT NULL,
  delta TEXT NOT NULL,
  PRIMARY KEY (key, batch)
) WITHOUT ROWID;`;

/** What a batch writes about its import: the import's new state and the batch's own delta. */
export interface CheckpointWrite {
  readonly key: string;
  readonly batch: number;
  readonly state: string;
  readonly delta: string;
}

/** An unfinished import recorded in a database. */
export interface StoredCheckpoint {
  readonly key: string;
  readonly state: string;
}

function hasTables(connection: Connection): boolean {
  return connection.pluck("SELECT 1 FROM sqlite_master WHERE name = 'import_checkpoints'").get() !== undefined;
}

/** Records (inside the caller's transaction) that a batch of the import `key` is committed with it. */
export function writeCheckpoint(connection: Connection, write: CheckpointWrite): void {
  if (!hasTables(connection)) connection.db.exec(TABLES_SQL);
  connection.stmt('INSERT OR REPLACE INTO import_checkpoints (key, state) VALUES (?, ?)').run(write.key, write.state);
  connection
    .stmt('INSERT OR REPLACE INTO import_checkpoint_batches (key, batch, delta) VALUES (?, ?, ?)')
    .run(write.key, write.batch, write.delta);
}

/** Forgets the import `key` (inside the caller's transaction: its last batch). */
export function clearCheckpoint(connection: Connection, key: string): void {
  if (!hasTables(connection)) return;
  connection.stmt('DELETE FROM import_checkpoints WHERE key = ?').run(key);
  connection.stmt('DELETE FROM import_checkpoint_batches WHERE key = ?').run(key);
}

/** The unfinished imports of the database. */
export function listCheckpoints(connection: Connection): StoredCheckpoint[] {
  if (!hasTables(connection)) return [];
  return (connection.raw('SELECT key, state FROM import_checkpoints ORDER BY key').all() as [string, string][]).map(([key, state]) => ({
    key,
    state,
  }));
}

/** The deltas of the committed batches of the import `key`, in batch order. */
export function checkpointDeltas(connection: Connection, key: string): string[] {
  if (!hasTables(connection)) return [];
  return connection.pluck('SELECT delta FROM import_checkpoint_batches WHERE key = ? ORDER BY batch').all(key) as string[];
}
