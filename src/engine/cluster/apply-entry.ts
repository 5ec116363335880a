/**
 * Applying log entries on a member: an empty database first takes the leader's identity (so
 * element ids agree), then each entry is applied in one local transaction that records its log
 * sequence (DatabaseStore.applyReplicated), which makes re-delivery harmless.
 */
import type { DatabaseStore } from '../storage/database-store.js';
import { contentHash } from './content-hash.js';
import type { LogEntry } from './log-entry.js';

/** Applies `entry`, stored at log position `sequence`; false when it was applied before. */
export async function applyLogEntry(store: DatabaseStore, entry: LogEntry, sequence: bigint): Promise<boolean> {
  if (sequence <= store.appliedSequence) return false;
  if (store.version === 0n) store.adoptIdentity(entry.uuid);
  return store.applyReplicated(entry.record, sequence);
}

/** The content hash of a database's latest committed version (content-hash.ts). */
export function storeContentHash(store: DatabaseStore): string {
  const reader = store.beginRead();
  try {
    return contentHash(reader, store.uuid);
  } finally {
    reader.close();
  }
}
