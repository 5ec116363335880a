/**
 * One member of a replicated cluster (docs/replication.md). It connects to NATS, holds the log
 * of every replicated database (replication-log.ts) and competes for the leader lease
 * (leader-lease.ts):
 * - every member follows every log in order and applies each entry (apply-entry.ts);
 * - the leader appends each commit to the log before making it durable locally and
 *   acknowledging it (DatabaseStore.commitWrite through the gate installed here);
 * - a member takes the lease only once it has applied every log to its end and its last entry
 *   is the one the log holds at that sequence;
 * - a member whose store does not continue into what its log delivers (apply-entry.ts), or whose
 *   last entry differs from the log's, rebuilds that database from the log: the latest snapshot
 *   or an empty database, then the log's tail, without a restart;
 * - a follower's own writes are refused with NotALeader (the server forwards them).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { ConsumerMessages } from '@nats-io/jetstream';
import { ClientError, StatusCodes, TransientError } from '../errors/index.js';
import type { DatabaseStore, ReplicationGate } from '../storage/database-store.js';
import type { CommitRecord } from '../storage/commit-record.js';
import { ReplicaDivergence, applyLogEntry, holdsLocalHistory, markLogBase, otherEntryApplied, storeContentHash } from './apply-entry.js';
import { encodeLogEntry, entryDigest } from './log-entry.js';
import { LeaderLease, type LeaderInfo } from './leader-lease.js';
import { AppendError, ReplicationLog } from './replication-log.js';
import { MemberRegistry, type MemberInfo } from './member-registry.js';
import { SnapshotStore } from './snapshot-store.js';
import { snapshotDatabaseFile } from '../transfer/backup.js';
import { SYSTEM_DATABASE } from '../catalog/database-catalog.js';

/** Settings of a member. */
export interface ClusterOptions {
  /** NATS URLs (`nats://host:port`); a member normally lists only its own NATS server. */
  readonly servers: readonly string[];
  readonly nodeId: string;
  /** Cluster name: names the streams and the lease bucket (default `graphdb`). */
  readonly name?: string;
  /** Bolt and HTTP addresses (`host:port`) other members and clients use to reach this one. */
  readonly boltAddress: string;
  readonly httpAddress: string;
  /** Lease time to live (ms, default 3000); a dead leader is replaced within about this plus one renewal. */
  readonly leaseTtlMs?: number;
  /** How long an append may wait for the log's quorum acknowledgement (ms, default 5000). */
  readonly appendTimeoutMs?: number;
  /** Copies of each stream and of the lease bucket (default 3). */
  readonly replicas?: number;
  /**
   * Entries a log keeps (0: unlimited); older ones are removed. With a limit the leader stores a
   * snapshot every half limit of entries, from which members behind the log rebuild (`rebuild`).
   */
  readonly maxLogEntries?: number;
  /** Reports problems the member recovers from. */
  readonly warn?: (message: string, error?: unknown) => void;
  /**
   * Called after this member applied an entry of the `system` database made elsewhere, or
   * rebuilt that database: the engine brings its catalog, users and roles in line with it.
   */
  readonly systemChanged?: () => Promise<void>;
}

/**
 * Injection points for tests of a member's failure handling. No setting and no public API reaches
 * them: only `joinClusterWithHooks` (engine-internals.ts), which tests use.
 */
export interface ClusterHooks {
  /**
   * The bytes this member applies for the entry its log consumer delivered at `sequence` (default:
   * the delivered bytes): replays a stream replica that delivers an entry the log's quorum does not
   * hold at that sequence (test/replication/divergence.test.ts).
   */
  readonly delivered?: (database: string, sequence: bigint, entry: Uint8Array) => Uint8Array;
}

/** Replication figures of one database. */
export interface ReplicaFigures {
  readonly database: string;
  readonly version: bigint;
  readonly appliedSequence: bigint;
  readonly lastSequence: bigint;
  /** Entries appended to the log and not yet applied here. */
  readonly lag: bigint;
  /** Log sequence of the latest snapshot this member stored (0: none; only a leader with `maxLogEntries` stores them). */
  readonly snapshotSequence: bigint;
}

/** What `/status` and ROUTE need to know. */
export interface ClusterStatus {
  readonly nodeId: string;
  readonly role: 'LEADER' | 'FOLLOWER';
  readonly leader: LeaderInfo | null;
  readonly connected: boolean;
  readonly databases: readonly ReplicaFigures[];
}

/**
 * Replaces a replicated database by a new store (the engine's part of a rebuild): `fill` writes
 * a snapshot to the staged file, or with null the database starts empty. Resolves to the new store.
 */
export type RebuildDatabase = (name: string, fill: ((file: string) => Promise<void>) | null) => Promise<DatabaseStore>;

interface Replica {
  store: DatabaseStore;
  readonly log: ReplicationLog;
  messages: ConsumerMessages | null;
  lastSequence: bigint;
  /** The apply loop; resolves when it stops. */
  loop: Promise<void> | null;
  failed: Error | null;
  /** Where the leader stores snapshots (null: the log is unbounded, no snapshots). */
  readonly snapshots: SnapshotStore | null;
  /** Log sequence of the latest snapshot stored. */
  snapshotSequence: bigint;
  snapshotting: Promise<void> | null;
  /** The applied sequence last found equal to the log's entry there. */
  verifiedSequence: bigint;
  /** A rebuild in progress (cluster-node.ts `rebuild`). */
  rebuilding: Promise<void> | null;
  /** When the last rebuild started (ms; a repeated one waits a lease TTL). */
  rebuiltAt: number;
  /** Why the last rebuild was started, when it failed and is tried again every lease round (`recover`). */
  retryRebuild: ReplicaDivergence | null;
  /** The applied sequence when it last moved, or the log was last seen without unapplied entries, and when (ms). */
  progress: { sequence: bigint; at: number };
  /** A stalled consumer being recreated (`recover`). */
  restarting: Promise<void> | null;
}

/** A database holding commits that never came from the log: it is never replaced by a rebuild. */
class ForeignCommits extends TransientError {}

/** How long joining retries creating or opening the streams and the lease bucket (a new NATS cluster may still be electing). */
const JOIN_RETRY_MS = 30_000;

/** Runs `action` until it succeeds, for at most JOIN_RETRY_MS (then its last error is thrown). */
export async function retrying<T>(action: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + JOIN_RETRY_MS;
  for (;;) {
    try {
      return await action();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/**
 * Settles like `work`, or rejects after `ms` when `work` has not settled: one NATS request that never
 * answers (a stream still electing its leader) must not stop every later lease round.
 */
function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** How long, at least, a log with entries a member has not applied may deliver none before its consumer is recreated (ms). */
const STALL_MS = 5000;

/** The store's next entry is no longer in the log, which starts at `first`. */
function behindTheLog(store: DatabaseStore, first: bigint): ReplicaDivergence {
  return new ReplicaDivergence(
    'behind',
    `Database '${store.name}' at log sequence ${store.appliedSequence} (version ${store.version}) is behind the log, which starts at ${first}: the log no longer holds the entries in between.`,
  );
}

/** Stops a log consumer, waiting at most a second for it to confirm (a stalled one may never do). */
async function stopConsumer(messages: ConsumerMessages | null): Promise<void> {
  if (messages === null) return;
  await withDeadline(messages.close(), 1000, 'closing a log consumer').catch(() => undefined);
}

/** How often joining reports a step that has not finished yet (ms). */
const JOIN_STEP_REPORT_MS = 10_000;

/**
 * Settles like `work`; reports every JOIN_STEP_REPORT_MS that joining still waits for `step`, so a
 * member that never finishes joining says where it waits.
 */
async function joinStep<T>(options: ClusterOptions, step: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  const timer = setInterval(
    () => options.warn?.(`joining the cluster has waited ${Math.round((Date.now() - started) / 1000)} s for ${step}`),
    JOIN_STEP_REPORT_MS,
  );
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

/** A cluster member. */
export class ClusterNode {
  private readonly replicas = new Map<string, Replica>();
  /** Databases `addReplica` is starting to replicate. */
  private readonly starting = new Set<string>();
  /** The system database's log sequence up to which the engine followed its changes (`systemChanged`). */
  private systemFollowed = 0n;
  /** The version of each database whose base snapshot this member stored (`storeBase`). */
  private readonly bases = new Map<string, bigint>();
  private leader: LeaderInfo | null = null;
  private isLeader = false;
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private stopped = false;
  private readonly waiters = new Set<() => void>();
  private readonly ttlMs: number;
  private readonly appendTimeoutMs: number;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly lease: LeaderLease,
    private readonly registry: MemberRegistry,
    private readonly options: ClusterOptions,
    private readonly rebuildDatabase: RebuildDatabase,
    private readonly hooks: ClusterHooks,
  ) {
    this.ttlMs = options.leaseTtlMs ?? 3000;
    this.appendTimeoutMs = options.appendTimeoutMs ?? 5000;
  }

  /**
   * Connects to NATS and joins the cluster with the given databases (their stores); `rebuild`
   * replaces one when it diverged or is behind what the log still holds.
   */
  static async join(
    options: ClusterOptions,
    stores: readonly DatabaseStore[],
    rebuild: RebuildDatabase,
    hooks: ClusterHooks = {},
  ): Promise<ClusterNode> {
    const nc = await connect({
      servers: [...options.servers],
      name: `graphdb-${options.nodeId}`,
      ignoreClusterUpdates: true,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
    });
    const cluster = options.name ?? 'graphdb';
    const replicas = options.replicas ?? 3;
    try {
      const lease = await joinStep(options, 'the leader lease bucket', () =>
        retrying(() =>
          LeaderLease.open(nc, cluster, replicas, options.leaseTtlMs ?? 3000, {
            nodeId: options.nodeId,
            bolt: options.boltAddress,
            http: options.httpAddress,
          }),
        ),
      );
      const registry = await joinStep(options, 'the members bucket', () =>
        retrying(() => MemberRegistry.open(nc, cluster, replicas, 3 * (options.leaseTtlMs ?? 3000))),
      );
      const node = new ClusterNode(nc, lease, registry, options, rebuild, hooks);
      for (const store of stores) node.replicas.set(store.name, await node.openReplica(store));
      await node.start();
      return node;
    } catch (error) {
      await nc.close().catch(() => undefined);
      throw error;
    }
  }

  /** Opens the log (and snapshot) streams of a database. The system database always has a snapshot stream: its log may start from one. */
  private async openReplica(store: DatabaseStore): Promise<Replica> {
    const { options, nc } = this;
    const cluster = options.name ?? 'graphdb';
    const replicas = options.replicas ?? 3;
    const log = await joinStep(options, `the log stream of '${store.name}'`, () =>
      retrying(() => ReplicationLog.open(nc, cluster, store.name, replicas, options.maxLogEntries ?? 0)),
    );
    const snapshots =
      (options.maxLogEntries ?? 0) > 0 || store.name === SYSTEM_DATABASE
        ? await joinStep(options, `the snapshot stream of '${store.name}'`, () =>
            retrying(() => SnapshotStore.open(nc, cluster, store.name, replicas)),
          )
        : null;
    const latest = await joinStep(options, `the latest snapshot of '${store.name}'`, async () => snapshots?.latest() ?? null);
    return {
      store,
      log,
      messages: null,
      lastSequence: 0n,
      loop: null,
      failed: null,
      snapshots,
      snapshotSequence: BigInt(latest?.sequence ?? 0),
      snapshotting: null,
      verifiedSequence: 0n,
      rebuilding: null,
      rebuiltAt: 0,
      retryRebuild: null,
      progress: { sequence: store.appliedSequence, at: Date.now() },
      restarting: null,
    };
  }

  /**
   * Starts replicating a database created while this member runs (CREATE DATABASE here as leader,
   * or a replicated catalog change): its log from the first entry on, its commits through the log.
   */
  async addReplica(store: DatabaseStore): Promise<void> {
    if (this.stopped || this.replicas.has(store.name) || this.starting.has(store.name)) return;
    this.starting.add(store.name);
    try {
      const replica = await this.openReplica(store);
      if (this.stopped || this.replicas.has(store.name)) return;
      // A stream just created may still be electing its leader: its first requests can time out.
      replica.lastSequence = (await retrying(() => replica.log.bounds())).last;
      this.replicas.set(store.name, replica);
      store.replicateThrough(this.gate(replica));
      await retrying(() => this.follow(replica));
    } finally {
      this.starting.delete(store.name);
    }
  }

  /**
   * Stops replicating a dropped database; the leader (`deleteLog`) also deletes its log and
   * snapshot streams, so a database created later under the same name starts a new log.
   */
  async removeReplica(name: string, deleteLog: boolean): Promise<void> {
    const replica = this.replicas.get(name);
    if (replica === undefined) return;
    this.replicas.delete(name);
    await replica.rebuilding;
    await replica.messages?.close().catch(() => undefined);
    replica.store.replicateThrough(null);
    await replica.loop;
    if (deleteLog) {
      await replica.log.delete();
      await replica.snapshots?.delete();
    }
  }

  private async start(): Promise<void> {
    for (const replica of this.replicas.values()) {
      const name = replica.store.name;
      const bounds = await joinStep(this.options, `the bounds of the log of '${name}'`, () => replica.log.bounds());
      replica.lastSequence = bounds.last;
      replica.store.replicateThrough(this.gate(replica));
      // A member that was down while the log discarded entries it never applied rebuilds, as a running one does.
      const applied = replica.store.appliedSequence;
      if (bounds.last > applied && bounds.first > applied + 1n) {
        this.rebuild(replica, behindTheLog(replica.store, bounds.first));
        continue;
      }
      // A member that comes back checks that its last entry is the log's before following on.
      if (await joinStep(this.options, `the log entry '${name}' applied last`, () => this.lastEntryDiffers(replica))) {
        this.rebuild(replica, otherEntryApplied(replica.store));
        continue;
      }
      await joinStep(this.options, `a consumer of the log of '${name}'`, () => this.follow(replica));
    }
    this.leader = await joinStep(this.options, 'the current leader', () => retrying(() => this.lease.current()));
    await joinStep(this.options, 'the first lease round', () => this.tick());
    this.timer = setInterval(() => void this.tick(), Math.max(100, Math.floor(this.ttlMs / 3)));
  }

  private gate(replica: Replica): ReplicationGate {
    return {
      append: async (database, record: CommitRecord) => {
        if (!(await this.leaseConfirmed())) throw this.notALeader();
        const expected = replica.store.appliedSequence;
        if (expected < replica.lastSequence) {
          throw new TransientError(StatusCodes.ReplicationFailure, 'The leader is still applying the replication log; retry.');
        }
        if (replica.rebuilding !== null) throw this.notALeader();
        if (expected === 0n && holdsLocalHistory(replica.store) && replica.snapshots !== null)
          await this.storeBase(replica, replica.snapshots);
        const entry = encodeLogEntry({ database: database.name, uuid: database.uuid, record, previous: replica.store.appliedDigest });
        try {
          const sequence = await replica.log.append(entry, expected, this.appendTimeoutMs);
          replica.lastSequence = sequence;
          return { sequence, digest: entryDigest(entry) };
        } catch (error) {
          if (error instanceof AppendError) {
            throw new TransientError(
              StatusCodes.ReplicationFailure,
              error.reason === 'moved'
                ? `The commit was not replicated and was rolled back: ${error.message}.`
                : `The commit was rolled back here and its outcome is unknown: ${error.message}; if the log holds it, every member applies it.`,
            );
          }
          throw error;
        }
      },
    };
  }

  /**
   * Before the first entry of a log whose database already holds commits (the system database:
   * users seeded before the member joined), its content is stored as a snapshot at sequence 0:
   * the first entry continues it, and members rebuild from it (`rebuildNow`).
   */
  private async storeBase(replica: Replica, snapshots: SnapshotStore): Promise<void> {
    const version = replica.store.version;
    if (this.bases.get(replica.store.name) === version) return;
    const dir = mkdtempSync(join(tmpdir(), 'graphdb-snapshot-'));
    try {
      const file = join(dir, 'base.db');
      await snapshotDatabaseFile(replica.store.file, file);
      markLogBase(file);
      await snapshots.publish(file, 0n, version);
      this.bases.set(replica.store.name, version);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /**
   * True when this member leads with a valid lease. A leader whose lease is older than its
   * validity (a renewal late under load) first waits for the renewal in flight, at most one TTL,
   * instead of refusing the commit at once.
   */
  private async leaseConfirmed(): Promise<boolean> {
    if (this.isLeader && !this.lease.valid && !this.stopped) {
      let timer: NodeJS.Timeout | undefined;
      const ttl = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, this.ttlMs);
      });
      await Promise.race([this.tick(), ttl]).finally(() => clearTimeout(timer));
    }
    return this.isLeader && this.lease.valid;
  }

  private notALeader(): ClientError {
    const leader = this.leader;
    const where = leader !== null && leader.nodeId !== this.options.nodeId ? ` The leader is ${leader.nodeId} (bolt ${leader.bolt}).` : '';
    return new ClientError(
      StatusCodes.NotALeader,
      `No write operations are allowed on this database: this member is not the leader.${where}`,
    );
  }

  /** Follows the log from the entry after the store's applied sequence. */
  private async follow(replica: Replica): Promise<void> {
    if (replica.store.name === SYSTEM_DATABASE) this.systemFollowed = replica.store.appliedSequence;
    const messages = await replica.log.follow(replica.store.appliedSequence + 1n);
    replica.messages = messages;
    replica.loop = this.applyLoop(replica, messages);
  }

  private async applyLoop(replica: Replica, messages: ConsumerMessages): Promise<void> {
    try {
      for await (const message of messages) {
        // A consumer replaced by another (recover, rebuild) applies nothing more.
        if (replica.messages !== messages) return;
        const sequence = BigInt(message.seq);
        if (sequence > replica.lastSequence) replica.lastSequence = sequence;
        const bytes = this.hooks.delivered?.(replica.store.name, sequence, message.data) ?? message.data;
        const applied = await applyLogEntry(replica.store, bytes, sequence);
        if (replica.store.name === SYSTEM_DATABASE) {
          if (applied) await this.systemChanged();
          this.systemFollowed = replica.store.appliedSequence;
        }
        this.wake();
      }
    } catch (error) {
      if (this.stopped || this.replicas.get(replica.store.name) !== replica || replica.messages !== messages) return;
      if (error instanceof ReplicaDivergence) {
        this.rebuild(replica, error);
        return;
      }
      replica.failed = error as Error;
      this.options.warn?.(`replication of '${replica.store.name}' stopped`, error);
      if (this.isLeader) await this.stepDown();
    }
  }

  /** True when the log holds another entry at the store's applied sequence than the store applied there. */
  private async lastEntryDiffers(replica: Replica): Promise<boolean> {
    const store = replica.store;
    const applied = store.appliedSequence;
    if (applied === 0n || store.appliedDigest === 0n || replica.verifiedSequence === applied) return false;
    let entry: Uint8Array | null;
    try {
      entry = await replica.log.entryAt(applied);
    } catch {
      return false; // no answer (no quorum): still unverified, so this member does not take the lease
    }
    if (entry === null) return false; // not held any more (a bounded log): the snapshot path covers it
    if (store.appliedSequence !== applied) return false; // moved on meanwhile: checked at the next round
    if (entryDigest(entry) !== store.appliedDigest) return true;
    replica.verifiedSequence = applied;
    return false;
  }

  /**
   * Rebuilds a database whose store left the log's history (or fell behind what the log still
   * holds): stops following, steps down, replaces the store by the latest snapshot the log covers
   * (or an empty database when the log starts at its first entry), and follows the log again.
   */
  private rebuild(replica: Replica, cause: ReplicaDivergence): void {
    if (replica.rebuilding !== null || this.stopped) return;
    replica.rebuilding = this.rebuildNow(replica, cause)
      .then(() => {
        replica.retryRebuild = null;
      })
      .catch((error: unknown) => {
        replica.failed = error as Error;
        // No snapshot yet, NATS unavailable for a while: the next lease round tries again.
        replica.retryRebuild = error instanceof ForeignCommits ? null : cause;
        this.options.warn?.(
          replica.retryRebuild === null
            ? `replication of '${replica.store.name}' stopped: it could not be rebuilt from the log`
            : `rebuilding '${replica.store.name}' from the replication log failed; it is tried again every lease round`,
          error,
        );
      })
      .finally(() => {
        replica.rebuilding = null;
      });
  }

  private async rebuildNow(replica: Replica, cause: ReplicaDivergence): Promise<void> {
    const name = replica.store.name;
    // The system database's commits from before the member joined (users seeded from its settings) give way to the log's.
    if (replica.store.appliedSequence === 0n && replica.store.version > 0n && name !== SYSTEM_DATABASE) {
      // Data that never came from this log (a database that existed before the member joined) is not discarded.
      throw new ForeignCommits(
        StatusCodes.DatabaseUnavailable,
        `${cause.message} Database '${name}' holds ${replica.store.version} commits that are not in the replication log; it is not replaced (seed members from a backup of one member, docs/replication.md).`,
      );
    }
    this.options.warn?.(`${cause.message} Rebuilding '${name}' from the replication log.`);
    if (this.isLeader) await this.stepDown();
    await replica.restarting;
    const wait = replica.rebuiltAt + this.ttlMs - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    replica.rebuiltAt = Date.now();
    const messages = replica.messages;
    replica.messages = null;
    await stopConsumer(messages);
    const bounds = await replica.log.bounds();
    const latest = (await replica.snapshots?.latest()) ?? null;
    let fill: ((file: string) => Promise<void>) | null = null;
    let source = 'its first entry';
    if (latest !== null && BigInt(latest.sequence) + 1n >= bounds.first) {
      const snapshots = replica.snapshots!;
      fill = (file) => snapshots.download(latest, file);
      source = `the snapshot at log sequence ${latest.sequence}`;
    } else if (bounds.first > 1n) {
      throw new TransientError(
        StatusCodes.DatabaseUnavailable,
        `Database '${name}' needs a snapshot (the log starts at ${bounds.first}) and none covers the gap (docs/replication.md, "Snapshots").`,
      );
    }
    if (this.stopped) return;
    const store = await this.rebuildDatabase(name, fill);
    replica.store = store;
    replica.verifiedSequence = 0n;
    replica.failed = null;
    store.replicateThrough(this.gate(replica));
    // The entries up to the log's current end are read from the stream's leader, not through this
    // member's consumer: the replica that delivered a foreign entry may still hold it.
    const end = (await replica.log.bounds()).last;
    for (let sequence = store.appliedSequence + 1n; sequence <= end && !this.stopped; sequence++) {
      const entry = await replica.log.entryAt(sequence);
      if (entry === null) throw new ReplicaDivergence('behind', `The log no longer holds entry ${sequence} of '${name}'.`);
      await applyLogEntry(store, entry, sequence);
      this.wake();
    }
    if (this.stopped) return;
    if (name === SYSTEM_DATABASE) {
      await this.systemChanged();
      this.systemFollowed = store.appliedSequence;
      this.wake();
    }
    await this.follow(replica);
    this.options.warn?.(
      `database '${name}' rebuilt from ${source} of the replication log; following it from sequence ${replica.store.appliedSequence + 1n}`,
    );
  }

  /** Lets the engine follow a change of the system database; its failure is reported, replication goes on. */
  private async systemChanged(): Promise<void> {
    await this.options
      .systemChanged?.()
      .catch((error: unknown) => this.options.warn?.('a replicated system database change failed to apply here', error));
  }

  /**
   * Runs before every lease round: retries a rebuild that failed, and recreates the
   * consumer of a log whose entries this member has not applied and that delivered nothing for
   * STALL_MS (at least three lease TTLs): a consumer whose stream replica stopped answering.
   */
  private recover(replica: Replica): void {
    if (this.stopped || replica.rebuilding !== null || replica.restarting !== null) return;
    if (replica.failed !== null) {
      if (replica.retryRebuild !== null) this.rebuild(replica, replica.retryRebuild);
      return;
    }
    const applied = replica.store.appliedSequence;
    const now = Date.now();
    if (applied >= replica.lastSequence || applied !== replica.progress.sequence) {
      replica.progress = { sequence: applied, at: now };
      return;
    }
    const stalledMs = now - replica.progress.at;
    if (stalledMs < Math.max(STALL_MS, 3 * this.ttlMs)) return;
    replica.progress = { sequence: applied, at: now };
    this.options.warn?.(
      `the consumer of the log of '${replica.store.name}' delivered nothing for ${Math.round(stalledMs / 1000)} s while the log holds entries ${applied + 1n}..${replica.lastSequence}; recreating it`,
    );
    replica.restarting = this.refollow(replica)
      .catch((error: unknown) => this.options.warn?.(`following the log of '${replica.store.name}' again failed`, error))
      .finally(() => {
        replica.restarting = null;
      });
  }

  /**
   * Replaces a replica's consumer by a new one from the applied sequence on. The old apply loop is
   * not waited for (a stalled consumer may never end it): it applies nothing once replaced, and an
   * entry both loops apply is applied once (apply-entry.ts).
   */
  private async refollow(replica: Replica): Promise<void> {
    const messages = replica.messages;
    replica.messages = null;
    await stopConsumer(messages);
    if (this.stopped || replica.rebuilding !== null) return;
    await this.follow(replica);
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  /** One lease round: renew (leader), or take the lease when free and every log is applied. */
  private tick(): Promise<void> {
    if (this.ticking !== null || this.stopped) return this.ticking ?? Promise.resolve();
    for (const replica of this.replicas.values()) this.recover(replica);
    this.ticking = withDeadline(this.round(), Math.max(5000, 2 * this.ttlMs), 'cluster lease round')
      .catch((error: unknown) => this.options.warn?.('cluster lease round failed', error))
      .finally(() => {
        this.ticking = null;
      });
    return this.ticking;
  }

  private async round(): Promise<void> {
    // A leader renews first: no other request of the round (members, log bounds) may delay it.
    if (this.isLeader && !(await this.lease.renew())) await this.stepDown();
    await this.registry.refresh({ nodeId: this.options.nodeId, bolt: this.options.boltAddress, http: this.options.httpAddress });
    for (const replica of this.replicas.values()) {
      const bounds = await replica.log.bounds();
      if (bounds.last > replica.lastSequence) replica.lastSequence = bounds.last;
    }
    if (this.isLeader) {
      for (const replica of this.replicas.values()) this.snapshotWhenDue(replica);
      return;
    }
    this.leader = await this.lease.current();
    await this.verifyCaughtUp();
    if (this.leader !== null || this.stopped) return;
    const ready = (r: Replica): boolean => r.failed === null && r.rebuilding === null && r.store.appliedSequence >= r.lastSequence;
    if (![...this.replicas.values()].every((r) => ready(r) && r.verifiedSequence === r.store.appliedSequence)) return;
    if (!(await this.lease.acquire())) {
      this.leader = await this.lease.current();
      return;
    }
    // Entries appended between the check and the lease (by a leader whose lease just expired) are
    // applied first; a member that cannot apply them within a TTL gives the lease back at once.
    try {
      for (const replica of this.replicas.values()) {
        const bounds = await replica.log.bounds();
        replica.lastSequence = bounds.last;
        await this.waitFor(() => replica.store.appliedSequence >= bounds.last, this.ttlMs);
      }
    } catch (error) {
      await this.lease.release();
      throw error;
    }
    this.isLeader = true;
    this.leader = { nodeId: this.options.nodeId, bolt: this.options.boltAddress, http: this.options.httpAddress, term: this.lease.term };
    this.options.warn?.(`member ${this.options.nodeId} is now the leader (term ${this.lease.term})`);
  }

  /**
   * A follower that applied its log to the end compares its last entry with the log's entry at
   * that sequence (once per applied sequence): the entry a stream replica delivered may not be
   * the one the log's quorum holds there (a replica cut off from its peers). A difference
   * rebuilds the database. A member takes the lease only with every last entry verified.
   */
  private async verifyCaughtUp(): Promise<void> {
    for (const replica of this.replicas.values()) {
      if (replica.failed !== null || replica.rebuilding !== null) continue;
      if (replica.store.appliedSequence < replica.lastSequence) continue;
      if (replica.store.appliedDigest === 0n) replica.verifiedSequence = replica.store.appliedSequence;
      else if (await this.lastEntryDiffers(replica)) this.rebuild(replica, otherEntryApplied(replica.store));
    }
  }

  /** Starts storing a snapshot once half the log limit of entries was applied since the last one. */
  private snapshotWhenDue(replica: Replica): void {
    const limit = BigInt(this.options.maxLogEntries ?? 0);
    if (replica.snapshots === null || replica.snapshotting !== null || limit === 0n) return;
    const every = limit / 2n > 0n ? limit / 2n : 1n;
    if (replica.store.appliedSequence - replica.snapshotSequence < every) return;
    replica.snapshotting = this.storeSnapshot(replica, replica.snapshots)
      .catch((error: unknown) => this.options.warn?.(`snapshot of '${replica.store.name}' failed`, error))
      .finally(() => {
        replica.snapshotting = null;
      });
  }

  private async storeSnapshot(replica: Replica, snapshots: SnapshotStore): Promise<void> {
    const dir = mkdtempSync(join(tmpdir(), 'graphdb-snapshot-'));
    try {
      const file = join(dir, 'snapshot.db');
      const { sequence, version } = await snapshotDatabaseFile(replica.store.file, file);
      await snapshots.publish(file, sequence, version);
      replica.snapshotSequence = sequence;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  private async stepDown(): Promise<void> {
    if (!this.isLeader) return;
    this.isLeader = false;
    this.lease.lost();
    this.leader = await this.lease.current().catch(() => null);
    this.options.warn?.(`member ${this.options.nodeId} lost the leadership`);
  }

  /** Resolves once `done()` holds (checked after every applied entry), or throws after `timeoutMs`. */
  private waitFor(done: () => boolean, timeoutMs: number): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new TransientError(StatusCodes.ReplicationFailure, `Replication did not catch up within ${timeoutMs} ms.`));
      }, timeoutMs);
      const check = (): void => {
        if (!done()) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      this.waiters.add(check);
    });
  }

  /** Waits until `database` has applied commit `version` (read-your-own-writes on a follower). */
  async awaitVersion(database: string, version: bigint, timeoutMs: number): Promise<void> {
    const replica = this.replicas.get(database);
    if (replica === undefined) return;
    await this.waitFor(() => replica.store.version >= version, timeoutMs);
  }

  /** Waits until this member applied every entry the log of `database` holds now (a follower after forwarding an administration command). */
  async awaitLogEnd(database: string, timeoutMs: number): Promise<void> {
    const replica = this.replicas.get(database);
    if (replica === undefined) return;
    const { last } = await replica.log.bounds();
    const system = database === SYSTEM_DATABASE;
    await this.waitFor(() => replica.store.appliedSequence >= last && (!system || this.systemFollowed >= last), timeoutMs);
  }

  /** True when `database` is replicated by this cluster (or this member is starting to replicate it: its writes go to the leader). */
  replicates(database: string): boolean {
    return this.replicas.has(database) || this.starting.has(database);
  }

  /** This member's id. */
  get nodeId(): string {
    return this.options.nodeId;
  }

  /** The current leader as last seen (this member when it leads). */
  get currentLeader(): LeaderInfo | null {
    return this.leader;
  }

  /** True while this member holds a valid lease. */
  get leading(): boolean {
    return this.isLeader && this.lease.valid;
  }

  /** Live members (as of the last lease round), this one included. */
  get members(): readonly MemberInfo[] {
    const members = this.registry.members;
    if (members.some((m) => m.nodeId === this.options.nodeId)) return members;
    return [...members, { nodeId: this.options.nodeId, bolt: this.options.boltAddress, http: this.options.httpAddress }];
  }

  /** Role, leader, and per-database applied sequence and lag. */
  status(): ClusterStatus {
    return {
      nodeId: this.options.nodeId,
      role: this.leading ? 'LEADER' : 'FOLLOWER',
      leader: this.leader,
      connected: !this.nc.isClosed(),
      databases: [...this.replicas.values()].map((r) => {
        const applied = r.store.appliedSequence;
        return {
          database: r.store.name,
          version: r.store.version,
          appliedSequence: applied,
          lastSequence: r.lastSequence,
          lag: r.lastSequence > applied ? r.lastSequence - applied : 0n,
          snapshotSequence: r.snapshotSequence,
        };
      }),
    };
  }

  /** Content hash of a replicated database (content-hash.ts). */
  contentHash(database: string): string {
    const replica = this.replicas.get(database);
    if (replica === undefined) throw new ClientError(StatusCodes.DatabaseNotFound, `Database '${database}' is not replicated.`);
    return storeContentHash(replica.store);
  }

  /** Leaves the cluster: gives the lease up, stops following, detaches the gates, closes NATS. */
  async leave(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer !== null) clearInterval(this.timer);
    await this.ticking;
    if (this.isLeader) {
      this.isLeader = false;
      await this.lease.release();
    }
    for (const replica of this.replicas.values()) {
      await replica.snapshotting;
      await replica.rebuilding;
      await replica.restarting;
      const messages = replica.messages;
      replica.messages = null;
      await stopConsumer(messages);
      replica.store.replicateThrough(null);
    }
    const loops = Promise.all([...this.replicas.values()].flatMap((r) => (r.loop === null ? [] : [r.loop])));
    await withDeadline(loops, 2000, 'the apply loops').catch(() => undefined);
    await this.nc.drain().catch(() => undefined);
  }
}
