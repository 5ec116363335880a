/**
 * Applying log entries on a member: an empty database first takes the leader's identity (so
 * element ids agree), then each entry is applied in one local transaction that records its log
 * sequence and digest (DatabaseStore.applyReplicated), which makes re-delivery harmless.
 *
 * An entry is applied only when it continues what the store holds: the next sequence, the next
 * version, and (entry format 2) naming as `previous` the digest of the entry the store applied
 * last. A re-delivered entry at the applied sequence must be the one applied there. Anything else
 * means the store and the log disagree (a stream replica delivered an entry its quorum does not
 * hold, or the log discarded entries this member never applied): `ReplicaDivergence` is thrown,
 * nothing is applied, and the member rebuilds the database from the log (cluster-node.ts).
 */
import Database from 'better-sqlite3';
import type { DatabaseStore } from '../storage/database-store.js';
import { SYSTEM_DATABASE } from '../catalog/database-catalog.js';
import { contentHash } from './content-hash.js';
import { decodeLogEntry, entryDigest } from './log-entry.js';

/** Why a store cannot apply what its log delivered. */
export type DivergenceReason = 'diverged' | 'behind';

/** The store does not continue into the delivered entry: it must be rebuilt from the log (snapshot plus tail). */
export class ReplicaDivergence extends Error {
  constructor(
    readonly reason: DivergenceReason,
    message: string,
  ) {
    super(message);
  }
}

/** Applies the entry `bytes`, stored at log position `sequence`; false when it was applied before. */
export async function applyLogEntry(store: DatabaseStore, bytes: Uint8Array, sequence: bigint): Promise<boolean> {
  const digest = entryDigest(bytes);
  if (sequence <= store.appliedSequence) {
    assertSameEntry(store, sequence, digest);
    return false;
  }
  const entry = decodeLogEntry(bytes);
  const where = `Database '${store.name}' at log sequence ${store.appliedSequence} (version ${store.version})`;
  if (holdsLocalHistory(store)) {
    // This member may have appended the entry itself (as leader): its commit holds the write lock until it recorded the sequence.
    (await store.beginWrite()).rollback();
    if (sequence <= store.appliedSequence) {
      assertSameEntry(store, sequence, digest);
      return false;
    }
    if (holdsLocalHistory(store)) {
      throw new ReplicaDivergence('diverged', `${where} holds commits made before this member joined its cluster's log.`);
    }
  }
  if (sequence !== store.appliedSequence + 1n) {
    throw new ReplicaDivergence('behind', `${where} was delivered entry ${sequence}: the log no longer holds the entries in between.`);
  }
  const previous = entry.previous ?? 0n;
  if (previous !== 0n && store.appliedDigest !== 0n && previous !== store.appliedDigest) {
    throw new ReplicaDivergence('diverged', `${where} holds another entry than the one log entry ${sequence} follows.`);
  }
  if (entry.record.version !== store.version + 1n) {
    throw new ReplicaDivergence('diverged', `${where} cannot apply log entry ${sequence} of version ${entry.record.version}.`);
  }
  if (store.version === 0n) store.adoptIdentity(entry.uuid);
  const applied = await store.applyReplicated(entry.record, sequence, digest);
  // Skipped: this member committed that sequence itself (as leader) while the entry waited for the write lock.
  if (!applied) assertSameEntry(store, sequence, digest);
  return applied;
}

/** A re-delivered entry at the applied sequence must be the entry the store applied there. */
function assertSameEntry(store: DatabaseStore, sequence: bigint, digest: bigint): void {
  if (sequence !== store.appliedSequence || store.appliedDigest === 0n || digest === store.appliedDigest) return;
  throw otherEntryApplied(store);
}

/** The store applied another entry at its applied sequence than the one the log holds there. */
export function otherEntryApplied(store: DatabaseStore): ReplicaDivergence {
  return new ReplicaDivergence(
    'diverged',
    `Database '${store.name}' applied another entry at log sequence ${store.appliedSequence} than the one the log holds there.`,
  );
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

/**
 * The applied digest a log's base snapshot records (cluster-node.ts `storeBase`): its content
 * came from the log although no entry was applied yet.
 */
const LOG_BASE_DIGEST = 1n;

/**
 * True for a system database holding commits that did not come from its log (users and
 * privileges seeded before the member joined): it applies no entry on top of them and is rebuilt
 * from the log's base snapshot instead, so every member ends with one history.
 */
export function holdsLocalHistory(store: DatabaseStore): boolean {
  return store.name === SYSTEM_DATABASE && store.appliedSequence === 0n && store.appliedDigest === 0n && store.version > 0n;
}

/** Marks a snapshot file (of a database at log sequence 0) as its log's base. */
export function markLogBase(file: string): void {
  const db = new Database(file);
  try {
    db.prepare("INSERT OR REPLACE INTO state (key, value) VALUES ('replicated_digest', ?)").run(LOG_BASE_DIGEST);
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}
