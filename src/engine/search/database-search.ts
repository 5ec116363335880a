/**
 * Search services of one database: the automatic BM25 index over every node's text properties,
 * the node-embedding vector collection, named FULLTEXT/VECTOR indexes, the background embedding
 * worker, hybrid search with its result cache, and persistence.
 *
 * Consistency: `apply(events)` is called with each committed transaction's change events (the
 * SearchManager subscribes it to the storage engine's bus). A small commit's events are applied at
 * once; a large one's (a LOAD CSV batch, a bulk import) are queued and applied in time slices
 * (search/change-backlog.ts), so indexing them never holds the event loop. Every read of the indexes (searches,
 * index queries, `text`/`named`; not `status()`) first applies what is still queued, so a node written is
 * findable by text and by its explicit vector properties as soon as the commit returns. Automatic
 * embeddings follow after the worker's delay (`embeddingDelayMs`).
 */
import { ChangeBacklog } from './change-backlog.js';
import { IndexBuild } from './index-build.js';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ArgumentError } from '../errors/index.js';
import type { ChangeEvent, GraphReader, NodeRecord } from '../storage/graph-store.js';
import { EmbeddingMetadata } from './embeddings/metadata.js';
import type { EmbeddingProvider } from './embeddings/provider.js';
import { EmbeddingWorker } from './embeddings/worker.js';
import { hybridSearch } from './hybrid/hybrid-search.js';
import { SearchResultCache } from './hybrid/result-cache.js';
import { silentLogger, type SearchLogger } from './logger.js';
import { NamedIndexes } from './named-indexes.js';
import { exactVectorServe, indexMatchesSnapshot, type ExactVectorRequest, type ExactVectorServe } from './exact-vector-serve.js';
import type { RerankStage } from './rerank/reranker.js';
import type { SearchServiceSettings } from './settings.js';
import type { TextHit } from './text/hits.js';
import { UNINDEXED_LABEL, type DatabaseSearchStatus, type SearchPage, type SearchRequest, type SimilarRequest } from './search-types.js';
import { createTextIndex, type TextIndex } from './text/text-index.js';
import { indexOverBudget, SEARCH_INDEX_SETTING, type SearchIndexBudget } from './index-budget.js';
import { propertiesText } from './text/node-text.js';
import { loadCollection, saveCollection } from './vector/persistence.js';
import { tuningFromSettings, type VectorTuning } from './vector/tuning.js';
import { VectorCollection, type VectorHit, type VectorStatus } from './vector/vector-collection.js';

/** Construction options. */
export interface DatabaseSearchOptions {
  readonly database: string;
  /** This database's resolved settings when its search services are created. */
  readonly settings: SearchServiceSettings;
  /**
   * The database's settings now (per-database overrides saved at run time); query-time settings
   * (`search.min_similarity`, `search.log_timings`, ...) are read through it on every search.
   */
  readonly currentSettings?: () => SearchServiceSettings;
  /** The process's embedder (null: no automatic embeddings, vector search needs `queryVector`). */
  readonly embedder?: EmbeddingProvider | null;
  readonly rerank?: RerankStage | null;
  /** The database's rerank stage now (its rerank settings may be overridden at run time). */
  readonly currentRerank?: () => RerankStage | null;
  /** Committed state of a node; needed by the embedding worker and the reranker. */
  readonly loadNode?: (nodeId: bigint) => NodeRecord | null;
  /** Directory for persisted indexes and embedding metadata (per database). */
  readonly directory?: string;
  readonly logger?: SearchLogger;
  /** Overrides the tuning derived from settings (tests). */
  readonly tuning?: VectorTuning;
  /** Delay before the worker embeds a change. */
  readonly embeddingDelayMs?: number;
  /** The heap budget of every search index of the process (`dbms.memory.search_index.max_size`). */
  readonly budget?: SearchIndexBudget;
  /**
   * The database's last committed version, read when a commit's change events arrive (they are
   * published synchronously by the commit): what the exact-kNN plan checks a reader against.
   * Without it that plan never uses these indexes.
   */
  readonly committedVersion?: () => bigint;
}

/** Estimated heap bytes of one entry of the node-labels map (bigint key, entry, the labels array). */
const BYTES_PER_LABELS_ENTRY = 140;

const EMBEDDINGS_FILE = 'node-embeddings.gdbv';

/** Commits with at most this many events of the database are applied at once (when nothing is queued). */
const APPLY_AT_ONCE_MAX = 64;

/** Search services of one database. */
export class DatabaseSearch {
  /** The background rebuild running, if any. */
  private pendingBuild: IndexBuild | null = null;
  readonly database: string;
  private readonly textIndex: TextIndex;
  private readonly namedIndexes: NamedIndexes;
  /** Committed change events of large commits, applied in slices. */
  private readonly backlog: ChangeBacklog;
  readonly cache = new SearchResultCache<SearchPage>();
  private embeddings: VectorCollection | null = null;
  private readonly labels = new Map<bigint, readonly string[]>();
  /**
   * Set when the text index went over its budget: it was released (with the labels map) and stays
   * released until a restart; searches answer `indexOverBudget`, `status()` reports `over_budget`.
   */
  private overBudget = false;
  private readonly worker: EmbeddingWorker | null;
  private readonly metadata: EmbeddingMetadata;
  private readonly tuning: VectorTuning;
  private readonly logger: SearchLogger;
  private persistTimer: NodeJS.Timeout | null = null;
  /** The commits whose events reached the indexes (see `committedVersion`). */
  private applied: { published: bigint; reliable: boolean } = { published: 0n, reliable: true };

  constructor(private readonly options: DatabaseSearchOptions) {
    this.database = options.database.toLowerCase();
    this.logger = options.logger ?? silentLogger;
    this.backlog = new ChangeBacklog(
      (events, from, to) => this.applyEvents(events, from, to),
      (error) => {
        this.applied = { ...this.applied, reliable: false };
        this.logger.warn(`applying committed changes to the search indexes of ${this.database} failed: ${String(error)}`);
      },
    );
    this.tuning = options.tuning ?? tuningFromSettings(options.settings.vector);
    this.textIndex = createTextIndex(options.settings.search.bm25_engine);
    this.namedIndexes = new NamedIndexes(
      this.tuning,
      this.logger,
      options.settings.search.bm25_engine,
      options.budget === undefined ? undefined : { budget: options.budget, database: this.database },
    );
    const persistDir = this.persistDirectory;
    this.metadata = new EmbeddingMetadata(persistDir);
    const embedder = options.embedder ?? null;
    this.worker =
      options.settings.embeddings.enabled && embedder !== null && options.loadNode !== undefined
        ? new EmbeddingWorker({
            provider: embedder,
            metadata: this.metadata,
            text: {
              propertiesInclude: options.settings.embeddingWorker.properties_include,
              propertiesExclude: options.settings.embeddingWorker.properties_exclude,
              includeLabels: options.settings.embeddingWorker.include_labels,
            },
            loadNode: options.loadNode,
            hasVector: (nodeId) => this.embeddings?.has(nodeId) ?? false,
            store: (nodeId, vector) => this.setEmbedding(nodeId, vector),
            drop: (nodeId) => this.removeEmbedding(nodeId),
            delayMs: options.embeddingDelayMs,
            logger: this.logger,
          })
        : null;
    if (options.settings.embeddings.dimensions > 0) this.ensureEmbeddings(options.settings.embeddings.dimensions);
  }

  /** The node-embedding collection (null until dimensions are known). */
  get embeddingCollection(): VectorCollection | null {
    this.catchUp();
    return this.embeddings;
  }

  /** The text index of every node (queued change events applied first); throws while over budget. */
  get text(): TextIndex {
    this.catchUp();
    this.assertWithinBudget();
    return this.textIndex;
  }

  private assertWithinBudget(): void {
    if (this.overBudget) throw indexOverBudget(this.database, this.options.budget?.maxBytes ?? 0);
  }

  /** Reports the index's estimated bytes to the budget; past it, releases the index. */
  private chargeBudget(): void {
    const budget = this.options.budget;
    if (budget === undefined || this.overBudget) return;
    const bytes = this.textIndex.estimatedBytes() + this.labels.size * BYTES_PER_LABELS_ENTRY;
    if (budget.update(this.database, bytes)) return;
    this.overBudget = true;
    this.textIndex.clear();
    this.labels.clear();
    budget.forget(this.database);
    this.logger.warn(
      `the full-text search index of ${this.database} needed more than ${SEARCH_INDEX_SETTING} (${budget.maxBytes} bytes for all databases): it was released and search answers an error until a restart with a larger bound`,
    );
  }

  /** The named FULLTEXT/VECTOR indexes (queued change events applied first). */
  get named(): NamedIndexes {
    this.catchUp();
    return this.namedIndexes;
  }

  /** Change events queued and not yet applied. */
  get queuedEvents(): number {
    return this.backlog.size;
  }

  /** Embedding worker counters (null when the worker is disabled). */
  get embeddingWorker(): EmbeddingWorker | null {
    return this.worker;
  }

  /** Applies one committed transaction's change events (events of other databases are ignored). */
  apply(events: readonly ChangeEvent[]): void {
    if (!events.some((event) => event.database.toLowerCase() === this.database)) return;
    const version = this.options.committedVersion?.();
    this.applied =
      version === undefined
        ? { ...this.applied, reliable: false }
        : { published: version > this.applied.published ? version : this.applied.published, reliable: this.applied.reliable };
    if (this.backlog.size > 0 || events.length > APPLY_AT_ONCE_MAX) {
      this.backlog.push(events, (event) => event.database.toLowerCase() === this.database);
      return;
    }
    try {
      this.applyEvents(events, 0, events.length);
    } catch (error) {
      this.applied = { ...this.applied, reliable: false };
      throw error;
    }
  }

  /**
   * The exact-kNN plan's candidate scan of a named VECTOR index as `reader` sees the graph, or
   * why it cannot be served (search/exact-vector-serve.ts).
   */
  exactVectorServe(reader: GraphReader, request: ExactVectorRequest): ExactVectorServe | string {
    return exactVectorServe(this.named, this.applied, reader, request);
  }

  /** Applies every queued change event now (reads call it first, so they see every commit). */
  catchUp(): void {
    this.backlog.catchUp();
  }

  private applyEvents(events: readonly ChangeEvent[], from: number, to: number): void {
    let touched = false;
    for (let i = from; i < to; i++) {
      const event = events[i]!;
      if (event.database.toLowerCase() !== this.database) continue;
      if (this.pendingBuild !== null) {
        if (event.kind === 'nodeCreated' || event.kind === 'nodeUpdated') this.pendingBuild.touch(event.node.id);
        else if (event.kind === 'nodeDeleted') this.pendingBuild.touch(event.id);
      }
      if (event.kind === 'nodeCreated' || event.kind === 'nodeUpdated') {
        this.indexNodeNow(event.node);
        touched = true;
      } else if (event.kind === 'nodeDeleted') {
        this.removeNodeNow(event.id);
        touched = true;
      } else if (event.kind === 'relationshipCreated' || event.kind === 'relationshipUpdated') {
        this.namedIndexes.applyRelationship(event.relationship);
      } else if (event.kind === 'relationshipDeleted') {
        this.namedIndexes.removeRelationship(event.id);
      }
    }
    if (touched) this.changed();
  }

  /** Indexes a node's committed state everywhere (text, named indexes, embedding queue). */
  indexNode(node: NodeRecord): void {
    this.catchUp();
    this.indexNodeNow(node);
  }

  private indexNodeNow(node: NodeRecord): void {
    if (node.labels.includes(UNINDEXED_LABEL)) {
      this.labels.delete(node.id);
      this.textIndex.remove(node.id);
      this.embeddings?.remove(node.id);
      this.worker?.forget(node.id);
      this.namedIndexes.applyNode(node);
      return;
    }
    if (!this.overBudget) {
      this.labels.set(node.id, node.labels);
      this.textIndex.upsert(node.id, propertiesText(node.properties));
      this.chargeBudget();
    }
    this.namedIndexes.applyNode(node);
    this.worker?.enqueue(node.id);
  }

  /** Forgets a deleted node everywhere. */
  removeNode(nodeId: bigint): void {
    this.catchUp();
    this.removeNodeNow(nodeId);
  }

  private removeNodeNow(nodeId: bigint): void {
    this.labels.delete(nodeId);
    if (this.textIndex.remove(nodeId)) this.chargeBudget();
    this.namedIndexes.removeNode(nodeId);
    this.embeddings?.remove(nodeId);
    this.worker?.forget(nodeId);
  }

  /** Re-creates every index from a snapshot (startup without persisted state, or after incompatibility). */
  rebuild(reader: GraphReader): void {
    this.beginRebuild(reader).step(Infinity);
  }

  /**
   * Starts re-creating every index from a snapshot; the caller runs the returned build in steps
   * (`step(ms)`) and keeps `reader` open until it finishes. Searches see a partial index meanwhile,
   * and `status()` reports `building` with its progress.
   */
  beginRebuild(reader: GraphReader): IndexBuild {
    this.catchUp();
    this.textIndex.clear();
    this.labels.clear();
    const build = new IndexBuild(
      reader,
      (node) => this.indexNodeNow(node),
      (snapshot) => {
        if (this.pendingBuild === build) this.pendingBuild = null;
        this.syncNamed(snapshot);
        this.changed();
      },
    );
    this.pendingBuild = build;
    return build;
  }

  /** Brings named FULLTEXT/VECTOR indexes in line with the catalog (call after schema commits). */
  syncIndexes(reader: GraphReader): string[] {
    this.catchUp();
    const created = this.syncNamed(reader);
    if (created.length > 0) this.changed();
    return created;
  }

  /** `NamedIndexes.sync`, noting for each new VECTOR index the snapshot it was populated from. */
  private syncNamed(reader: GraphReader): string[] {
    const created = this.namedIndexes.sync(reader);
    for (const name of created) {
      const index = this.namedIndexes.vector.get(name);
      if (index === undefined) continue;
      index.populatedAt = reader.version;
      index.missedCommits = this.applied.published > reader.version;
    }
    return created;
  }

  /** Stores a node's embedding (from the worker, or given explicitly). */
  setEmbedding(nodeId: bigint, vector: ArrayLike<number>): void {
    this.catchUp();
    const collection = this.ensureEmbeddings(vector.length);
    if (vector.length !== collection.dimensions) {
      throw new ArgumentError(`embedding has ${vector.length} dimensions; database ${this.database} uses ${collection.dimensions}`);
    }
    collection.upsert(nodeId, vector);
    this.changed();
  }

  /** Whether the node has a stored embedding (GraphQL `hasEmbedding`). */
  hasEmbedding(nodeId: bigint): boolean {
    this.catchUp();
    return this.embeddings?.has(nodeId) ?? false;
  }

  /** The node's stored embedding (unit length), or null (GraphQL `embeddingDimensions` is its length). */
  embeddingOf(nodeId: bigint): Float32Array | null {
    this.catchUp();
    return this.embeddings?.vectorOf(nodeId) ?? null;
  }

  removeEmbedding(nodeId: bigint): void {
    this.catchUp();
    if (this.embeddings?.remove(nodeId)) this.changed();
  }

  /** Hybrid (or text-only / vector-only) search; see SearchRequest. */
  async search(request: SearchRequest): Promise<SearchPage> {
    const started = performance.now();
    await this.backlog.caughtUp();
    this.assertWithinBudget();
    const limit = request.limit ?? 10;
    if (!Number.isInteger(limit) || limit < 1) throw new ArgumentError(`search limit must be a positive integer, got ${limit}`);
    const method = request.method ?? 'hybrid';
    const minSimilarity = request.minSimilarity ?? this.settings.search.min_similarity;
    const stage = this.options.currentRerank !== undefined ? this.options.currentRerank() : (this.options.rerank ?? null);
    const rerank = request.rerank !== false && stage?.state === 'ready' ? stage : null;
    const key = {
      query: request.query,
      limit,
      types: ['node'],
      rerank: rerank?.cacheKey ?? 'none',
      mmr: request.mmr === true,
      extra: JSON.stringify([method, request.labels ?? [], minSimilarity, request.mmrLambda ?? null, request.queryVector ?? null]),
    };
    const cached = this.cache.get(key);
    if (cached !== undefined) return { ...cached, cached: true, executionTimeMs: performance.now() - started };
    const embedStarted = performance.now();
    const queryVector = method === 'text' ? null : await this.queryEmbedding(request);
    const embedMs = performance.now() - embedStarted;
    const labelSet = request.labels !== undefined && request.labels.length > 0 ? new Set(request.labels) : null;
    const results = await hybridSearch({
      query: request.query,
      limit,
      method,
      text: this.textIndex,
      vectors: this.embeddings,
      queryVector,
      minSimilarity,
      filter: labelSet === null ? undefined : (id) => (this.labels.get(id) ?? []).some((label) => labelSet.has(label)),
      mmr: request.mmr === true,
      mmrLambda: request.mmrLambda,
      rerank,
      documentText: (id) => this.documentText(id),
    });
    const page: SearchPage = { results, totalCount: results.length, executionTimeMs: performance.now() - started, method, cached: false };
    if (this.settings.search.log_timings) {
      this.logger.info(
        `search timings db=${this.database} method=${method} embed=${embedMs.toFixed(2)}ms total=${page.executionTimeMs.toFixed(2)}ms results=${results.length}`,
      );
    }
    this.cache.set(key, page);
    return page;
  }

  /** Nodes most similar to a node's embedding or to a vector (the `similar` endpoint). */
  similar(request: SimilarRequest): VectorHit[] {
    this.catchUp();
    // Its label filter reads the labels map, released with the text index.
    if (request.labels !== undefined && request.labels.length > 0) this.assertWithinBudget();
    const collection = this.embeddings;
    if (collection === null) return [];
    let vector: ArrayLike<number> | null = request.vector ?? null;
    if (request.nodeId !== undefined) {
      vector = collection.vectorOf(request.nodeId);
      if (vector === null) return [];
    }
    if (vector === null) throw new ArgumentError('similar needs a node id or a vector');
    if (vector.length !== collection.dimensions) {
      throw new ArgumentError(`vector has ${vector.length} dimensions; database ${this.database} uses ${collection.dimensions}`);
    }
    const limit = request.limit ?? 10;
    const labelSet = request.labels !== undefined && request.labels.length > 0 ? new Set(request.labels) : null;
    const exclude = request.nodeId;
    const min = request.minSimilarity ?? -Infinity;
    return collection
      .search(
        vector,
        limit + (exclude === undefined ? 0 : 1),
        (id) => id !== exclude && (labelSet === null || (this.labels.get(id) ?? []).some((l) => labelSet.has(l))),
      )
      .filter((hit) => collection.similarity !== 'cosine' || hit.raw >= min)
      .slice(0, limit);
  }

  /** `db.index.fulltext.queryNodes(name, query)`. */
  queryFulltext(name: string, query: string, limit?: number, entity: 'NODE' | 'RELATIONSHIP' = 'NODE'): TextHit[] {
    this.catchUp();
    return this.namedIndexes.fulltextIndex(name, entity).query(query, limit);
  }

  /** `db.index.vector.queryNodes(name, k, vector)`. */
  queryVectorIndex(name: string, k: number, vector: readonly number[], entity: 'NODE' | 'RELATIONSHIP' = 'NODE'): VectorHit[] {
    this.catchUp();
    return this.namedIndexes.vectorIndex(name, entity).query(k, vector);
  }

  /**
   * Whether the named VECTOR index holds exactly the committed state `reader` sees (then every
   * hit is a node the reader sees, and `db.index.vector.queryNodes` need not look each one up).
   */
  vectorIndexAtSnapshot(name: string, reader: GraphReader): boolean {
    this.catchUp();
    const index = this.namedIndexes.vector.get(name);
    return index !== undefined && indexMatchesSnapshot(index, this.applied, reader);
  }

  /**
   * Readiness: building while any collection builds; progress of the slowest build. Does not apply
   * queued change events first (a `/status` or `/metrics` scrape during a large import must not
   * index the whole backlog in one step), so `text_documents` may lag a large commit briefly.
   */
  status(): DatabaseSearchStatus {
    const statuses: VectorStatus[] = [...this.namedIndexes.vector.values()].map((index) => index.collection.status());
    if (this.embeddings !== null) statuses.unshift(this.embeddings.status());
    const building = statuses.filter((s) => !s.ready);
    const embedder = this.options.embedder ?? null;
    const text = this.pendingBuild;
    return {
      ready: building.length === 0 && text === null && !this.overBudget,
      build_phase: this.overBudget ? 'over_budget' : text !== null ? 'text_index' : (building[0]?.buildPhase ?? 'ready'),
      progress_pct: text !== null ? text.progressPct : building.length === 0 ? 100 : Math.min(...building.map((s) => s.progressPct)),
      strategy: this.embeddings?.strategy ?? 'brute_force',
      vectors: this.embeddings?.size ?? 0,
      text_documents: this.textIndex.size,
      embeddings: {
        enabled: this.worker !== null,
        provider: embedder?.kind ?? this.settings.embeddings.provider,
        model: embedder?.model ?? this.settings.embeddings.model,
        pending: this.worker?.pending ?? 0,
      },
    };
  }

  /** Removes index entries of nodes that no longer exist; returns how many were removed. */
  removeOrphans(exists: (nodeId: bigint) => boolean): number {
    this.catchUp();
    const candidates = new Set<bigint>([...this.textIndex.nodeIds(), ...this.labels.keys(), ...(this.embeddings?.nodeIds() ?? [])]);
    for (const index of this.namedIndexes.vector.values()) for (const id of index.collection.nodeIds()) candidates.add(id);
    let removed = 0;
    for (const id of candidates) {
      if (!exists(id)) {
        this.removeNodeNow(id);
        removed++;
      }
    }
    if (removed > 0) {
      this.logger.info(`removed ${removed} orphaned search entries in ${this.database}`);
      this.changed();
    }
    return removed;
  }

  /** Waits for pending embeddings and index builds (tests, shutdown). */
  async settle(): Promise<void> {
    await this.backlog.caughtUp();
    await this.worker?.drain();
    await this.embeddings?.whenIdle();
    for (const index of this.namedIndexes.vector.values()) await index.collection.whenIdle();
  }

  /** Writes the node-embedding collection and metadata (no-op unless persistence is on). */
  persist(): void {
    this.catchUp();
    const directory = this.persistDirectory;
    if (directory === undefined) return;
    mkdirSync(directory, { recursive: true });
    if (this.embeddings !== null) saveCollection(this.embeddings, join(directory, EMBEDDINGS_FILE));
    this.metadata.save();
  }

  /** Loads persisted embeddings when compatible; returns whether anything was loaded. */
  load(): boolean {
    const directory = this.persistDirectory;
    if (directory === undefined || this.options.settings.embeddings.dimensions <= 0) return false;
    const collection = this.ensureEmbeddings(this.options.settings.embeddings.dimensions);
    const loaded = loadCollection(collection, join(directory, EMBEDDINGS_FILE));
    if (!loaded) this.logger.info(`no compatible persisted vector index for ${this.database}; it will be rebuilt`);
    return loaded;
  }

  async close(): Promise<void> {
    this.options.budget?.forget(this.database);
    this.worker?.stop();
    if (this.persistTimer !== null) clearTimeout(this.persistTimer);
    this.persistTimer = null;
    this.persist();
    this.embeddings?.close();
    this.namedIndexes.close();
  }

  /** The database's settings now (see `currentSettings`). */
  private get settings(): SearchServiceSettings {
    return this.options.currentSettings?.() ?? this.options.settings;
  }

  private get persistDirectory(): string | undefined {
    return this.options.settings.persistIndexes ? this.options.directory : undefined;
  }

  private changed(): void {
    this.cache.invalidate();
    if (this.persistDirectory === undefined || this.persistTimer !== null) return;
    this.persistTimer = setTimeout(() => {
      this.persistTimer = null;
      try {
        this.persist();
      } catch (error) {
        this.logger.warn(`persisting search indexes of ${this.database} failed: ${String(error)}`);
      }
    }, this.settings.search.index_persist_delay_sec * 1000);
    this.persistTimer.unref();
  }

  private ensureEmbeddings(dimensions: number): VectorCollection {
    this.embeddings ??= new VectorCollection({ dimensions, similarity: 'cosine', tuning: this.tuning, logger: this.logger });
    return this.embeddings;
  }

  private async queryEmbedding(request: SearchRequest): Promise<Float32Array | null> {
    const expected = this.embeddings?.dimensions ?? null;
    if (request.queryVector !== undefined) {
      if (expected !== null && request.queryVector.length !== expected) {
        throw new ArgumentError(`query vector has ${request.queryVector.length} dimensions; database ${this.database} uses ${expected}`);
      }
      return Float32Array.from(request.queryVector);
    }
    const embedder = this.options.embedder ?? null;
    if (embedder === null || expected === null) return null;
    if (embedder.dimensions !== null && embedder.dimensions !== expected)
      throw dimensionMismatch(embedder.dimensions, expected, this.database);
    const [vector] = await embedder.embed([request.query]);
    if (vector!.length !== expected) throw dimensionMismatch(vector!.length, expected, this.database);
    return vector!;
  }

  private documentText(nodeId: bigint): string {
    const node = this.options.loadNode?.(nodeId) ?? null;
    return node === null ? '' : propertiesText(node.properties);
  }
}

function dimensionMismatch(embedder: number, database: number, name: string): ArgumentError {
  return new ArgumentError(
    `embedding dimension mismatch: the configured embedder produces ${embedder}-dimensional vectors but database ${name} stores ${database}-dimensional embeddings`,
  );
}
