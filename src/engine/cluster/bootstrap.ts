/**
 * Snapshot bootstrap of a member's system database before its engine opens (docs/replication.md,
 * "Snapshots"): the system database names every other database, so when its applied log sequence
 * is older than the first entry its log still holds (a new member of a cluster whose log is
 * bounded by `cluster.max_log_entries`, or one that was down while the log was truncated) it is
 * replaced by the latest snapshot before anything reads it; the member then follows the log from
 * the snapshot's sequence on. User databases behind their log are rebuilt when the member joins.
 */
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { StatusCodes, TransientError } from '../errors/index.js';
import { ReplicationLog } from './replication-log.js';
import { retrying } from './cluster-node.js';
import { SnapshotStore } from './snapshot-store.js';

/** What the bootstrap needs to know. */
export interface BootstrapOptions {
  readonly servers: readonly string[];
  /** Cluster name (default `graphdb`). */
  readonly name?: string;
  readonly replicas?: number;
  readonly maxLogEntries?: number;
  readonly dataDir: string;
  readonly info?: (message: string) => void;
}

/** A database bootstrapped from a snapshot. */
export interface Bootstrapped {
  readonly database: string;
  /** Log sequence the snapshot had applied. */
  readonly sequence: bigint;
}

/** Reads a `state` value of a database file (0 when the file or the key is missing). */
function stateOf(file: string, key: string): bigint {
  if (!existsSync(file)) return 0n;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    db.defaultSafeIntegers(true);
    const value = db.prepare('SELECT value FROM state WHERE key = ?').pluck().get(key) as bigint | undefined;
    return value ?? 0n;
  } catch {
    return 0n;
  } finally {
    db.close();
  }
}

/** Replaces one database with the latest snapshot when its log no longer covers it; null when left alone. */
async function bootstrapOne(nc: NatsConnection, options: BootstrapOptions, database: string): Promise<Bootstrapped | null> {
  const cluster = options.name ?? 'graphdb';
  const replicas = options.replicas ?? 3;
  const file = join(options.dataDir, `${database}.db`);
  const applied = stateOf(file, 'replicated_seq');
  // A NATS cluster that just started may still be electing its JetStream leaders.
  const log = await retrying(() => ReplicationLog.open(nc, cluster, database, replicas, options.maxLogEntries ?? 0));
  const bounds = await retrying(() => log.bounds());
  if (bounds.last <= applied || bounds.first <= applied + 1n) return null;
  const snapshots = await retrying(() => SnapshotStore.open(nc, cluster, database, replicas));
  const latest = await snapshots.latest();
  if (latest === null || BigInt(latest.sequence) + 1n < bounds.first) {
    throw new TransientError(
      StatusCodes.DatabaseUnavailable,
      `Database '${database}' is at log sequence ${applied} but the log starts at ${bounds.first} and no snapshot covers the gap (docs/replication.md).`,
    );
  }
  mkdirSync(options.dataDir, { recursive: true });
  await snapshots.download(latest, `${file}.snapshot`);
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${file}${suffix}`, { force: true });
  renameSync(`${file}.snapshot`, file);
  options.info?.(`database '${database}' bootstrapped from the snapshot at log sequence ${latest.sequence} (version ${latest.version})`);
  return { database, sequence: BigInt(latest.sequence) };
}

/**
 * Replaces the system database with the latest snapshot when the log no longer covers it; returns
 * it when replaced. User databases are not touched here: the member rebuilds them when it joins,
 * as a running member does (cluster-node.ts `rebuild`).
 */
export async function bootstrapFromSnapshots(options: BootstrapOptions): Promise<Bootstrapped[]> {
  const nc = await connect({ servers: [...options.servers], name: 'graphdb-bootstrap', ignoreClusterUpdates: true });
  const done: Bootstrapped[] = [];
  try {
    const system = await bootstrapOne(nc, options, 'system');
    if (system !== null) done.push(system);
  } finally {
    await nc.close();
  }
  return done;
}
