/**
 * Snapshots of a replicated database in JetStream (docs/replication.md, "Snapshots"): a
 * snapshot is one database file in the backup format (docs/backup-format.md), taken by the
 * leader, stored in the stream `<log stream>_SNAPSHOT` as chunks followed by a manifest. A member
 * whose applied sequence is older than the first entry its log still holds starts from the
 * latest snapshot and then follows the log from the snapshot's sequence on.
 */
import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { StorageType, jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { logNames } from './replication-log.js';

/** Bytes per chunk message (below NATS's default 1 MiB payload limit). */
const CHUNK_BYTES = 512 * 1024;

/** What the manifest message of a snapshot says. */
export interface SnapshotManifest {
  /** The log sequence the snapshot's database applied (its `replicated_seq`). */
  readonly sequence: string;
  /** Its commit version. */
  readonly version: string;
  readonly bytes: number;
  readonly sha256: string;
  /** Stream sequence of the first chunk; the chunks follow one another. */
  readonly firstChunk: number;
  readonly chunks: number;
  readonly createdAt: string;
}

/** The snapshots of one database in one cluster. */
export class SnapshotStore {
  private readonly js: JetStreamClient;

  private constructor(
    private readonly jsm: JetStreamManager,
    nc: NatsConnection,
    readonly stream: string,
    private readonly subject: string,
  ) {
    this.js = jetstream(nc);
  }

  /** Deletes the stream (its database was dropped); nothing when it is gone already. */
  async delete(): Promise<void> {
    await this.jsm.streams.delete(this.stream).catch(() => false);
  }

  /** Opens (creating when missing) the snapshot stream of `database`. */
  static async open(nc: NatsConnection, cluster: string, database: string, replicas: number): Promise<SnapshotStore> {
    const jsm = await jetstreamManager(nc);
    const names = logNames(cluster, database);
    const store = new SnapshotStore(jsm, nc, `${names.stream}_SNAPSHOT`, names.subject.replace('.log.', '.snapshot.'));
    try {
      await jsm.streams.info(store.stream);
    } catch {
      try {
        await jsm.streams.add({
          name: store.stream,
          subjects: [`${store.subject}.*`],
          num_replicas: replicas,
          storage: StorageType.File,
          duplicate_window: 0,
        });
      } catch (error) {
        await jsm.streams.info(store.stream).catch(() => {
          throw error;
        });
      }
    }
    return store;
  }

  /** Stores `file` (a standalone database file at log `sequence`, commit `version`) as the latest snapshot and drops older ones. */
  async publish(file: string, sequence: bigint, version: bigint): Promise<SnapshotManifest> {
    const hash = createHash('sha256');
    const fd = openSync(file, 'r');
    const buffer = Buffer.alloc(CHUNK_BYTES);
    let firstChunk = 0;
    let chunks = 0;
    let bytes = 0;
    try {
      for (;;) {
        const read = readSync(fd, buffer, 0, CHUNK_BYTES, bytes);
        if (read === 0) break;
        const chunk = buffer.subarray(0, read);
        hash.update(chunk);
        const ack = await this.js.publish(`${this.subject}.data`, chunk);
        if (chunks === 0) firstChunk = ack.seq;
        chunks++;
        bytes += read;
      }
    } finally {
      closeSync(fd);
    }
    const manifest: SnapshotManifest = {
      sequence: sequence.toString(),
      version: version.toString(),
      bytes,
      sha256: hash.digest('hex'),
      firstChunk,
      chunks,
      createdAt: new Date().toISOString(),
    };
    await this.js.publish(`${this.subject}.manifest`, JSON.stringify(manifest));
    // Everything before this snapshot's first chunk (older snapshots) goes; with none before it, nothing
    // (a purge that keeps from sequence 1 was seen to empty the whole stream).
    if (firstChunk > 1) await this.jsm.streams.purge(this.stream, { seq: firstChunk });
    return manifest;
  }

  /** The latest complete snapshot (null: none yet). */
  async latest(): Promise<SnapshotManifest | null> {
    try {
      const message = await this.jsm.streams.getMessage(this.stream, { last_by_subj: `${this.subject}.manifest` });
      return message === null ? null : message.json<SnapshotManifest>();
    } catch {
      return null;
    }
  }

  /** Writes the snapshot `manifest` describes to `target` (through a temporary file), checking its size and SHA-256. */
  async download(manifest: SnapshotManifest, target: string): Promise<void> {
    const partial = `${target}.partial`;
    const fd = openSync(partial, 'w');
    const hash = createHash('sha256');
    let bytes = 0;
    try {
      for (let i = 0; i < manifest.chunks; i++) {
        const message = await this.jsm.streams.getMessage(this.stream, { seq: manifest.firstChunk + i });
        if (message === null) throw new Error(`snapshot chunk ${i} is missing`);
        hash.update(message.data);
        writeSync(fd, message.data);
        bytes += message.data.length;
      }
      fsyncSync(fd);
    } catch (error) {
      closeSync(fd);
      rmSync(partial, { force: true });
      throw error;
    }
    closeSync(fd);
    if (bytes !== manifest.bytes || hash.digest('hex') !== manifest.sha256) {
      rmSync(partial, { force: true });
      throw new Error('the snapshot does not match its manifest (size or SHA-256)');
    }
    renameSync(partial, target);
  }
}
