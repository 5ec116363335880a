/**
 * The storage of an open `GraphDB`, for the engine's own modules only (transfer, backup and
 * restore, tests of storage behaviour), and the cluster join with test hooks. `GraphDB` keeps its
 * storage engine private; it registers it here when it opens. Not exported from any entry point: listeners, the CLI and commands use
 * `GraphDB.databaseServices` or a session (lint-enforced, docs/ARCHITECTURE.md).
 */
import type { GraphDB } from './graphdb.js';
import type { ClusterHooks, ClusterNode, ClusterOptions } from './cluster/cluster-node.js';
import type { DatabaseStore } from './storage/database-store.js';
import type { StorageEngine } from './storage/storage-engine.js';

interface Internals {
  readonly storage: StorageEngine;
  /** The store of one database, after the engine's open check (DatabaseNotFound when unknown). */
  readonly store: (name: string) => DatabaseStore;
  /** `GraphDB.joinCluster` with test hooks. */
  readonly joinCluster: (options: ClusterOptions, hooks: ClusterHooks) => Promise<ClusterNode>;
}

const internals = new WeakMap<GraphDB, Internals>();

/** Called once by the `GraphDB` constructor. */
export function registerInternals(graphdb: GraphDB, parts: Internals): void {
  internals.set(graphdb, parts);
}

function of(graphdb: GraphDB): Internals {
  const parts = internals.get(graphdb);
  if (parts === undefined) throw new Error('Not an engine opened by GraphDB.open');
  return parts;
}

/** The storage engine of `graphdb` (all its databases, the data directory). */
export function storageOf(graphdb: GraphDB): StorageEngine {
  return of(graphdb).storage;
}

/** The store of one database of `graphdb` (default: its default database); throws DatabaseNotFound. */
export function storeOf(graphdb: GraphDB, name: string = graphdb.defaultDatabase): DatabaseStore {
  return of(graphdb).store(name);
}

/**
 * Joins a cluster as `GraphDB.joinCluster` does, with test hooks in the member (cluster-node.ts
 * `ClusterHooks`): the injection points tests of failure handling use, which no setting reaches.
 */
export function joinClusterWithHooks(graphdb: GraphDB, options: ClusterOptions, hooks: ClusterHooks): Promise<ClusterNode> {
  return of(graphdb).joinCluster(options, hooks);
}
