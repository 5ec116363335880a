/**
 * The service metrics (`graphdb_*`, docs/http.md), on a registry per server so several
 * servers (tests) can live in one process. Gauges of graph size are collected at scrape time.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { DatabaseFigures } from './engine-port.js';
import type { QueryTypeLabel } from './query-labels.js';
import type { ClusterStatus } from '../engine/index.js';

export { queryTypeLabel, type QueryTypeLabel } from './query-labels.js';

/** Cumulative embedding-worker figures (see `trackEmbeddings`). */
export interface EmbeddingTotals {
  readonly processed: number;
  readonly durationSecondsTotal: number;
  readonly durationSecondsCount: number;
}

/** Every graphdb metric. */
export class GraphdbMetrics {
  readonly registry = new Registry();
  readonly httpRequests: Counter<'method' | 'path' | 'status'>;
  readonly httpRequestDuration: Histogram<'method' | 'path'>;
  readonly queryDuration: Histogram<'type'>;
  readonly queries: Counter<'type' | 'status'>;
  readonly embeddingsProcessed: Counter;
  readonly embeddingDuration: Histogram;
  readonly rateLimitHits: Counter;
  private embeddingTotals: (() => EmbeddingTotals) | null = null;
  private embeddingsSeen: EmbeddingTotals = { processed: 0, durationSecondsTotal: 0, durationSecondsCount: 0 };

  constructor(figures: () => readonly DatabaseFigures[], embeddingsPending: () => number = () => 0) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'graphdb_' });
    this.httpRequests = new Counter({
      name: 'graphdb_http_requests_total',
      help: 'HTTP requests by method, route path and status code.',
      labelNames: ['method', 'path', 'status'],
      registers,
    });
    this.httpRequestDuration = new Histogram({
      name: 'graphdb_http_request_duration_seconds',
      help: 'HTTP request duration by method and route path.',
      labelNames: ['method', 'path'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    const totals = (pick: (f: DatabaseFigures) => number) => () => figures().reduce((sum, f) => sum + pick(f), 0);
    const nodes = totals((f) => f.nodes);
    const edges = totals((f) => f.relationships);
    const bytes = totals((f) => f.dataSizeBytes);
    new Gauge({
      name: 'graphdb_nodes_total',
      help: 'Nodes in all user databases.',
      registers,
      collect() {
        this.set(nodes());
      },
    });
    new Gauge({
      name: 'graphdb_edges_total',
      help: 'Relationships in all user databases.',
      registers,
      collect() {
        this.set(edges());
      },
    });
    new Gauge({
      name: 'graphdb_storage_bytes',
      help: 'Bytes of storage used by all databases.',
      registers,
      collect() {
        this.set(bytes());
      },
    });
    this.queryDuration = new Histogram({
      name: 'graphdb_query_duration_seconds',
      help: 'Cypher statement duration by query type.',
      labelNames: ['type'],
      buckets: [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30],
      registers,
    });
    this.queries = new Counter({
      name: 'graphdb_queries_total',
      help: 'Cypher statements by query type and outcome (success, error).',
      labelNames: ['type', 'status'],
      registers,
    });
    new Gauge({
      name: 'graphdb_embeddings_pending',
      help: 'Nodes waiting for an embedding.',
      registers,
      collect() {
        this.set(embeddingsPending());
      },
    });
    const pumpEmbeddings = () => this.pumpEmbeddings();
    this.embeddingsProcessed = new Counter({
      name: 'graphdb_embeddings_processed_total',
      help: 'Embeddings generated.',
      registers,
      collect: pumpEmbeddings,
    });
    this.embeddingDuration = new Histogram({
      name: 'graphdb_embedding_duration_seconds',
      help: 'Time to generate one embedding.',
      registers,
      collect: pumpEmbeddings,
    });
    this.rateLimitHits = new Counter({ name: 'graphdb_rate_limit_hits_total', help: 'Requests refused by rate limiting.', registers });
  }

  /** Exposes a cluster member's role, applied log sequence and lag (docs/replication.md). */
  trackCluster(read: () => ClusterStatus | null): void {
    const registers = [this.registry];
    new Gauge({
      name: 'graphdb_cluster_leader',
      help: '1 when this member is the replication leader, 0 when a follower.',
      registers,
      collect() {
        const status = read();
        if (status !== null) this.set(status.role === 'LEADER' ? 1 : 0);
      },
    });
    new Gauge({
      name: 'graphdb_cluster_applied_sequence',
      help: 'Last replication log sequence applied, per database.',
      labelNames: ['database'],
      registers,
      collect() {
        for (const d of read()?.databases ?? []) this.set({ database: d.database }, Number(d.appliedSequence));
      },
    });
    new Gauge({
      name: 'graphdb_cluster_replication_lag',
      help: 'Replication log entries appended and not yet applied here, per database.',
      labelNames: ['database'],
      registers,
      collect() {
        for (const d of read()?.databases ?? []) this.set({ database: d.database }, Number(d.lag));
      },
    });
  }

  /**
   * Feeds `graphdb_embeddings_processed_total` and `graphdb_embedding_duration_seconds` from the
   * embedding worker's cumulative totals at each scrape (each new embedding is observed with the
   * mean duration of the embeddings since the previous scrape).
   */
  trackEmbeddings(read: () => EmbeddingTotals): void {
    this.embeddingTotals = read;
  }

  private pumpEmbeddings(): void {
    if (this.embeddingTotals === null) return;
    const now = this.embeddingTotals();
    const seen = this.embeddingsSeen;
    const count = now.durationSecondsCount - seen.durationSecondsCount;
    const seconds = now.durationSecondsTotal - seen.durationSecondsTotal;
    this.embeddingsSeen = { ...now };
    if (now.processed > seen.processed) this.embeddingsProcessed.inc(now.processed - seen.processed);
    for (let i = 0; i < count; i++) this.embeddingDuration.observe(seconds / count);
  }

  /** Records one finished statement. */
  recordQuery(type: QueryTypeLabel | 'unknown', status: 'success' | 'error', seconds: number): void {
    this.queries.inc({ type, status });
    if (status === 'success') this.queryDuration.observe({ type }, seconds);
  }
}
