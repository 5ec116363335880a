/**
 * The replicated log of one database: a JetStream stream (file storage, `replicas` copies, Raft
 * inside NATS) holding one message per commit. Appends carry an expected-last-sequence check, so
 * a leader whose view of the log is stale (a deposed leader) cannot append.
 */
import {
  DeliverPolicy,
  JetStreamApiError,
  StorageType,
  jetstream,
  jetstreamManager,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
} from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';

/** Why an append failed. */
export type AppendFailure = 'moved' | 'unknown';

/** An append the log refused (`moved`: the log has entries this member has not applied) or whose outcome is unknown. */
export class AppendError extends Error {
  constructor(
    readonly reason: AppendFailure,
    message: string,
  ) {
    super(message);
  }
}

/** How long one pull request of a follower's consumer waits for entries (ms; heartbeats every half of it). */
const FOLLOW_EXPIRES_MS = 5000;

/** JetStream's "wrong last sequence" API error codes. */
const WRONG_LAST_SEQUENCE = new Set([10071, 10164]);

/** Positions of a stream. */
export interface LogBounds {
  /** First sequence still held (entries before it were removed by the limits). */
  readonly first: bigint;
  /** Last sequence appended (0: empty). */
  readonly last: bigint;
}

/** A stream name and subject safe for NATS from a cluster and database name. */
function token(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.charCodeAt(0).toString(16)}`);
}

/** The stream and subject of the log of `database` in `cluster`. */
export function logNames(cluster: string, database: string): { readonly stream: string; readonly subject: string } {
  return { stream: `GRAPHDB_${token(cluster)}_${token(database)}`, subject: `graphdb.${token(cluster)}.log.${token(database)}` };
}

/** The log of one database in one cluster. */
export class ReplicationLog {
  readonly stream: string;
  readonly subject: string;
  private readonly js: JetStreamClient;

  private constructor(
    private readonly jsm: JetStreamManager,
    nc: NatsConnection,
    cluster: string,
    database: string,
  ) {
    const names = logNames(cluster, database);
    this.stream = names.stream;
    this.subject = names.subject;
    this.js = jetstream(nc);
  }

  /** Opens (creating when missing) the stream of `database`. */
  static async open(nc: NatsConnection, cluster: string, database: string, replicas: number, maxEntries: number): Promise<ReplicationLog> {
    const jsm = await jetstreamManager(nc);
    const log = new ReplicationLog(jsm, nc, cluster, database);
    try {
      await jsm.streams.info(log.stream);
    } catch {
      try {
        await jsm.streams.add({
          name: log.stream,
          subjects: [log.subject],
          num_replicas: replicas,
          max_msgs: maxEntries > 0 ? maxEntries : -1,
          storage: StorageType.File,
          duplicate_window: 0,
        });
      } catch (error) {
        // Another member created it at the same moment.
        await jsm.streams.info(log.stream).catch(() => {
          throw error;
        });
      }
    }
    return log;
  }

  /** Appends one entry, provided the log's last sequence is `expectedLast`; resolves to its sequence. */
  async append(entry: Uint8Array, expectedLast: bigint, timeoutMs: number): Promise<bigint> {
    try {
      const ack = await this.js.publish(this.subject, entry, { expect: { lastSequence: Number(expectedLast) }, timeout: timeoutMs });
      return BigInt(ack.seq);
    } catch (error) {
      if (error instanceof JetStreamApiError && WRONG_LAST_SEQUENCE.has(error.code)) {
        throw new AppendError('moved', `the replication log moved past sequence ${expectedLast}`);
      }
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      throw new AppendError(
        'unknown',
        timedOut
          ? `the replication log did not confirm the append within ${timeoutMs} ms`
          : `the replication log did not confirm the append: ${(error as Error).message}`,
      );
    }
  }

  /** First and last sequence held. */
  async bounds(): Promise<LogBounds> {
    const info = await this.jsm.streams.info(this.stream);
    return { first: BigInt(info.state.first_seq), last: BigInt(info.state.last_seq) };
  }

  /**
   * The entry at `sequence` as the stream's leader holds it (null when the log no longer or not
   * yet holds one there): what a member compares its own last entry with.
   */
  async entryAt(sequence: bigint): Promise<Uint8Array | null> {
    const message = await this.jsm.streams.getMessage(this.stream, { seq: Number(sequence) });
    return message?.data ?? null;
  }

  /** Deletes the stream (its database was dropped); nothing when it is gone already. */
  async delete(): Promise<void> {
    await this.jsm.streams.delete(this.stream).catch(() => false);
  }

  /**
   * Entries from `sequence` on, in order, as they arrive (an ordered consumer). Its pull requests
   * last FOLLOW_EXPIRES_MS, so a consumer whose stream replica stopped answering (the stream's
   * leader moved) misses two heartbeats and is recreated within that time, not the client's 30 s.
   */
  async follow(sequence: bigint): Promise<ConsumerMessages> {
    const consumer = await this.js.consumers.get(this.stream, {
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: Number(sequence),
    });
    return consumer.consume({ max_messages: 256, expires: FOLLOW_EXPIRES_MS });
  }
}
