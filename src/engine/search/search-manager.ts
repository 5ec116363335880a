/**
 * Process-wide search: one DatabaseSearch per database, fed by the storage engine's post-commit
 * change events, sharing one embedder and one rerank stage.
 *
 * ```ts
 * const search = new SearchManager({ settings: searchSettingsFrom(config), events: engine.events,
 *   loadNode: (db, id) => ..., dataDir, logger });
 * search.database('neo4j').rebuild(reader);           // at startup (or load() first when persisted)
 * await search.database('neo4j').search({ query: 'graph databases', limit: 10 });
 * search.database('neo4j').queryFulltext('titles', 'graph AND "query language"');
 * await search.close();
 * ```
 */
import { join } from 'node:path';
import type { ChangeEvent, NodeRecord } from '../storage/graph-store.js';
import { DatabaseSearch } from './database-search.js';
import { createEmbeddingProvider } from './embeddings/factory.js';
import type { EmbeddingProvider } from './embeddings/provider.js';
import { silentLogger, type SearchLogger } from './logger.js';
import { createReranker, RerankStage } from './rerank/reranker.js';
import { resolveIndexMaxBytes, type SearchServiceSettings } from './settings.js';
import { SearchIndexBudget } from './index-budget.js';
import type { VectorTuning } from './vector/tuning.js';

/** Options of the search manager. */
export interface SearchManagerOptions {
  /** Global settings (the embedder and reranker of databases without overrides). */
  readonly settings: SearchServiceSettings;
  /** A database's resolved settings (global overlaid by its overrides); default: `settings`. */
  readonly settingsFor?: (database: string) => SearchServiceSettings;
  /** The storage engine's bus (`engine.events`); omitted when the caller calls `apply` itself. */
  readonly events?: { subscribe(listener: (events: readonly ChangeEvent[]) => void): () => void };
  /** Committed state of a node in a database. */
  readonly loadNode?: (database: string, nodeId: bigint) => NodeRecord | null;
  /** Data directory; persisted indexes live under `<dataDir>/search/<database>/`. */
  readonly dataDir?: string;
  readonly logger?: SearchLogger;
  /** Replaces the provider built from settings (tests, embedding outside the process). */
  readonly embedder?: EmbeddingProvider | null;
  readonly tuning?: VectorTuning;
  readonly embeddingDelayMs?: number;
  /** A database's last committed version (the exact-kNN plan's consistency check, see DatabaseSearchOptions). */
  readonly committedVersion?: (database: string) => bigint;
}

/** Search services of every database in the process. */
export class SearchManager {
  private readonly databases = new Map<string, DatabaseSearch>();
  private readonly unsubscribe: (() => void) | null;
  readonly embedder: EmbeddingProvider | null;
  readonly rerank: RerankStage | null;
  private readonly logger: SearchLogger;
  /** Embedders and rerank stages of databases whose overrides change those settings, by settings. */
  private readonly databaseEmbedders = new Map<string, EmbeddingProvider | null>();
  private readonly databaseRerankers = new Map<string, RerankStage | null>();
  /** The heap budget of every database's full-text index (`dbms.memory.search_index.max_size`). */
  readonly budget: SearchIndexBudget;

  constructor(private readonly options: SearchManagerOptions) {
    this.logger = options.logger ?? silentLogger;
    this.budget = new SearchIndexBudget(options.settings.indexMaxBytes ?? resolveIndexMaxBytes());
    const { settings } = options;
    this.embedder =
      options.embedder !== undefined
        ? options.embedder
        : settings.embeddings.enabled && settings.embeddings.model !== ''
          ? createEmbeddingProvider(settings.embeddings, settings.modelsDir)
          : null;
    this.rerank = settings.rerank.enabled ? new RerankStage(createReranker(settings.rerank, settings.modelsDir), this.logger) : null;
    this.unsubscribe = options.events?.subscribe((events) => this.apply(events)) ?? null;
  }

  /** The search services of `name` (created on first use). */
  database(name: string): DatabaseSearch {
    const key = name.toLowerCase();
    let search = this.databases.get(key);
    if (search === undefined) {
      const loadNode = this.options.loadNode;
      const settingsFor = this.options.settingsFor;
      const settings = settingsFor?.(key) ?? this.options.settings;
      search = new DatabaseSearch({
        database: key,
        settings,
        ...(settingsFor === undefined
          ? {}
          : { currentSettings: () => settingsFor(key), currentRerank: () => this.rerankFor(settingsFor(key)) }),
        embedder: this.embedderFor(settings),
        rerank: this.rerankFor(settings),
        loadNode: loadNode === undefined ? undefined : (id) => loadNode(key, id),
        directory: this.options.dataDir === undefined ? undefined : join(this.options.dataDir, 'search', key),
        logger: this.logger,
        tuning: this.options.tuning,
        embeddingDelayMs: this.options.embeddingDelayMs,
        budget: this.budget,
        ...(this.options.committedVersion === undefined ? {} : { committedVersion: () => this.options.committedVersion!(key) }),
      });
      this.databases.set(key, search);
    }
    return search;
  }

  /**
   * The embedder of a database: the shared one unless the database's resolved embedding settings
   * differ from the global ones, then one per distinct setting set.
   */
  private embedderFor(settings: SearchServiceSettings): EmbeddingProvider | null {
    if (this.options.embedder !== undefined || sameSettings(settings.embeddings, this.options.settings.embeddings)) return this.embedder;
    const key = JSON.stringify(settings.embeddings);
    let embedder = this.databaseEmbedders.get(key);
    if (embedder === undefined) {
      embedder =
        settings.embeddings.enabled && settings.embeddings.model !== ''
          ? createEmbeddingProvider(settings.embeddings, settings.modelsDir)
          : null;
      this.databaseEmbedders.set(key, embedder);
    }
    return embedder;
  }

  /** The rerank stage of a database, like `embedderFor`. */
  private rerankFor(settings: SearchServiceSettings): RerankStage | null {
    if (sameSettings(settings.rerank, this.options.settings.rerank)) return this.rerank;
    const key = JSON.stringify(settings.rerank);
    let stage = this.databaseRerankers.get(key);
    if (stage === undefined) {
      stage = settings.rerank.enabled ? new RerankStage(createReranker(settings.rerank, settings.modelsDir), this.logger) : null;
      this.databaseRerankers.set(key, stage);
    }
    return stage;
  }

  /** Routes committed change events to their databases. */
  apply(events: readonly ChangeEvent[]): void {
    const names = new Set(events.map((event) => event.database.toLowerCase()));
    for (const name of names) this.database(name).apply(events.filter((event) => event.database.toLowerCase() === name));
  }

  /** Drops a database's search state (after DROP DATABASE). */
  async dropDatabase(name: string): Promise<void> {
    const search = this.databases.get(name.toLowerCase());
    this.databases.delete(name.toLowerCase());
    await search?.close();
  }

  async close(): Promise<void> {
    this.unsubscribe?.();
    for (const search of this.databases.values()) await search.close();
    this.databases.clear();
    await this.rerank?.close();
    await this.embedder?.close();
    for (const stage of this.databaseRerankers.values()) await stage?.close();
    for (const embedder of this.databaseEmbedders.values()) await embedder?.close();
    this.databaseRerankers.clear();
    this.databaseEmbedders.clear();
  }
}

function sameSettings(a: object, b: object): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
