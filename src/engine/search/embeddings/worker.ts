/**
 * Background embedding of new and changed nodes (disabled by default). Committed node changes are
 * queued by id; the worker embeds batches between event-loop turns, skipping nodes whose text hash
 * is unchanged, chunking long texts and pooling chunk vectors into one vector per node.
 */
import type { NodeRecord } from '../../storage/graph-store.js';
import type { SearchLogger } from '../logger.js';
import { silentLogger } from '../logger.js';
import { chunkText, DEFAULT_CHUNKING, poolChunks, type ChunkOptions } from './chunking.js';
import { embeddingText, type EmbeddingTextOptions } from './embedding-text.js';
import { embeddingHash, type EmbeddingMetadata } from './metadata.js';
import type { EmbeddingProvider } from './provider.js';

/** What the worker needs from its surroundings. */
export interface EmbeddingWorkerOptions {
  readonly provider: EmbeddingProvider;
  readonly metadata: EmbeddingMetadata;
  readonly text: EmbeddingTextOptions;
  /** Current committed state of a node (null when deleted). */
  readonly loadNode: (nodeId: bigint) => NodeRecord | null;
  /** Whether the node's vector is currently stored (a matching hash alone does not skip it otherwise). */
  readonly hasVector: (nodeId: bigint) => boolean;
  /** Receives each new node vector. */
  readonly store: (nodeId: bigint, vector: Float32Array) => void;
  /** Called when a node has no embeddable text any more. */
  readonly drop: (nodeId: bigint) => void;
  readonly chunking?: ChunkOptions;
  readonly batchSize?: number;
  /** Delay between a change and the batch that embeds it (documented embedding delay). */
  readonly delayMs?: number;
  readonly logger?: SearchLogger;
}

/** Counters for `/metrics` (`graphdb_embeddings_processed_total`, `graphdb_embedding_duration_seconds`). */
export interface EmbeddingCounters {
  processed: number;
  failed: number;
  skippedUnchanged: number;
  durationSecondsTotal: number;
  durationSecondsCount: number;
}

/** The queue and loop of background embedding. */
export class EmbeddingWorker {
  private readonly queue = new Set<bigint>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  readonly counters: EmbeddingCounters = { processed: 0, failed: 0, skippedUnchanged: 0, durationSecondsTotal: 0, durationSecondsCount: 0 };

  constructor(private readonly options: EmbeddingWorkerOptions) {}

  /** Nodes waiting to be embedded (`embeddings.pending`). */
  get pending(): number {
    return this.queue.size;
  }

  /** Queues a created or changed node. */
  enqueue(nodeId: bigint): void {
    if (this.stopped) return;
    this.queue.add(nodeId);
    this.schedule();
  }

  /** Forgets a deleted node. */
  forget(nodeId: bigint): void {
    this.queue.delete(nodeId);
    this.options.metadata.delete(nodeId);
  }

  /** Resolves once the queue is empty (tests and shutdown). */
  async drain(): Promise<void> {
    while (this.queue.size > 0 || this.running !== null || this.timer !== null) {
      if (this.timer !== null) {
        clearTimeout(this.timer);
        this.timer = null;
        this.running ??= this.runBatch();
      }
      if (this.running !== null) await this.running;
      else if (this.queue.size > 0) this.running = this.runBatch();
    }
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    if (this.timer !== null || this.running !== null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.runBatch();
    }, this.options.delayMs ?? 100);
    this.timer.unref();
  }

  private async runBatch(): Promise<void> {
    try {
      const batch = [...this.queue].slice(0, this.options.batchSize ?? 32);
      for (const nodeId of batch) {
        this.queue.delete(nodeId);
        await this.embedNode(nodeId);
      }
    } finally {
      this.running = null;
      if (this.queue.size > 0 && !this.stopped) this.schedule();
    }
  }

  private async embedNode(nodeId: bigint): Promise<void> {
    const { provider, metadata } = this.options;
    const node = this.options.loadNode(nodeId);
    const text = node === null ? '' : embeddingText(node, this.options.text);
    if (text.length === 0) {
      metadata.delete(nodeId);
      this.options.drop(nodeId);
      return;
    }
    const hash = embeddingHash(text, provider.model);
    if (metadata.get(nodeId)?.textHash === hash && this.options.hasVector(nodeId)) {
      this.counters.skippedUnchanged++;
      return;
    }
    const started = performance.now();
    try {
      const chunks = chunkText(text, this.options.chunking ?? DEFAULT_CHUNKING);
      const vector = poolChunks(await provider.embed(chunks));
      this.options.store(nodeId, vector);
      metadata.set(nodeId, {
        textHash: hash,
        chunks: chunks.length,
        model: provider.model,
        dimensions: vector.length,
        embeddedAt: Date.now(),
      });
      this.counters.processed++;
    } catch (error) {
      this.counters.failed++;
      (this.options.logger ?? silentLogger).warn(`embedding node ${nodeId} failed: ${String(error)}`);
    } finally {
      this.counters.durationSecondsTotal += (performance.now() - started) / 1000;
      this.counters.durationSecondsCount++;
    }
  }
}
