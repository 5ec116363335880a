/**
 * The search services of a `GraphDB` (see docs/search.md): one `SearchManager` per engine, fed by
 * the storage engine's post-commit change events, each database's indexes built from a snapshot
 * the first time the database is used (or at open when `eager`), named FULLTEXT/VECTOR indexes
 * kept in line with the schema catalog, persisted under the data directory when
 * `persist_search_indexes` is on, closed with the engine.
 *
 * ```ts
 * const db = await GraphDB.open({ dataDir, search: { settings: searchSettingsFrom(config), eager: true } });
 * const page = await db.search().search({ query: 'graph databases', limit: 10 });
 * ```
 */
import { DEFAULT_CONFIG } from './config/defaults.js';
import { ArgumentError } from './errors/index.js';
import {
  resolveIndexMaxBytes,
  SearchManager,
  searchSettingsFrom,
  vectorBackend,
  vectorIndexDefinition,
  type DatabaseSearch,
  type EmbeddingProvider,
  type SearchLogger,
  type SearchServiceSettings,
} from './search/index.js';
import type { ChangeEvent, GraphReader, IndexDefinition } from './storage/graph-store.js';
import type { IndexBuild } from './search/index-build.js';
import { SLICE_MS } from './mvcc/lifecycle/clock.js';

/** Search options of `GraphDB.open`. */
export interface GraphDBSearchOptions {
  /** Search, vector, embedding and rerank settings (default: the built-in configuration defaults). */
  readonly settings?: SearchServiceSettings;
  /** A database's resolved settings (per-database overrides); default: `settings` for every database. */
  readonly settingsFor?: (database: string) => SearchServiceSettings;
  /**
   * Build every database's search indexes from open on and for each new database (servers: the
   * embedding worker then embeds nodes before anyone searches), in the background, a few
   * milliseconds at a time, so start-up does not wait for it; `readiness()` shows the progress and
   * a search that arrives first finishes the build. Default false: on first use.
   */
  readonly eager?: boolean;
  /**
   * With `eager`: the builds are registered at open (`readiness()` shows them at 0 %) but take
   * slices of the event loop only once `startBuilds()` is called. A server calls it when its
   * listeners are up, so a build over a large graph does not compete with loading the server's
   * modules: each module load yields to the event loop, and each yield would run another slice.
   */
  readonly deferBuilds?: boolean;
  readonly logger?: SearchLogger;
  /** Replaces the embedding provider built from the settings (tests, embedding elsewhere). */
  readonly embedder?: EmbeddingProvider | null;
  /** Delay before the background worker embeds a change (default 100 ms). */
  readonly embeddingDelayMs?: number;
}

/** What the search host needs from the engine. */
export interface SearchHostEngine {
  readonly dataDir: string;
  /** Online user databases. */
  databaseNames(): string[];
  /** A snapshot of the latest committed state of a database (throws DatabaseNotFound). */
  beginRead(database: string): GraphReader & { close(): void };
  subscribe(listener: (events: readonly ChangeEvent[]) => void): () => void;
  /** A database's last committed version (lets the exact-kNN plan use the named VECTOR indexes). */
  committedVersion?(database: string): bigint;
}

/** Aggregated readiness of every database's search indexes (`/admin/stats` `search`). */
export interface SearchReadinessSummary {
  readonly ready: boolean;
  readonly build_phase: string;
  readonly progress_pct: number;
  /** `faiss` when faiss-node's ANN indexes are available, else `exact` (see `vector_backend_reason`). */
  readonly vector_backend: 'faiss' | 'exact';
  readonly vector_backend_reason?: string;
  /** Estimated heap bytes of every database's full-text index (`build_phase` `over_budget` past the bound). */
  readonly index_bytes: number;
  /** `dbms.memory.search_index.max_size` resolved. */
  readonly index_max_bytes: number;
}

/** Cumulative embedding-worker figures of every database (`/metrics`). */
export interface EmbeddingTotals {
  readonly processed: number;
  readonly durationSecondsTotal: number;
  readonly durationSecondsCount: number;
}

/** The engine's search services. */
export class EngineSearch {
  private current: SearchManager | null = null;
  private readonly built = new Set<string>();
  /** Background builds under way, with the snapshot each reads. */
  private readonly building = new Map<
    string,
    {
      readonly build: IndexBuild;
      readonly reader: GraphReader & { close(): void };
      /** Whether persisted indexes were loaded (null: not tried yet, done by the first step). */
      loaded: boolean | null;
    }
  >();
  private closed = false;
  /** Builds registered while `deferBuilds` holds them, started by `startBuilds()`. */
  private held: string[] | null;

  constructor(
    private readonly engine: SearchHostEngine,
    private readonly options: GraphDBSearchOptions,
  ) {
    this.held = options.eager && options.deferBuilds ? [] : null;
    if (options.eager) for (const name of engine.databaseNames()) this.buildInBackground(name);
  }

  /** Lets the background builds held by `deferBuilds` run (no-op otherwise, or when called again). */
  startBuilds(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const key of held) this.scheduleSlices(key);
  }

  /** Starts building a database's indexes in slices of the event loop. */
  private buildInBackground(database: string): void {
    const key = database.toLowerCase();
    if (this.built.has(key) || this.building.has(key)) return;
    const search = this.manager.database(key);
    const reader = this.engine.beginRead(key);
    this.building.set(key, { build: search.beginRebuild(reader), reader, loaded: null });
    this.built.add(key);
    if (this.held !== null) this.held.push(key);
    else this.scheduleSlices(key);
  }

  /** Runs a registered build a slice per turn of the event loop until it is over. */
  private scheduleSlices(key: string): void {
    const slice = (): void => {
      if (!this.building.has(key)) return;
      if (this.closed) {
        this.finishBuild(key, 0);
        return;
      }
      if (this.finishBuild(key, SLICE_MS)) return;
      setImmediate(slice);
    };
    setImmediate(slice);
  }

  /** Runs a background build for `budgetMs` (Infinity: to the end); true when it is over. */
  private finishBuild(key: string, budgetMs: number): boolean {
    const entry = this.building.get(key);
    if (entry === undefined) return true;
    try {
      entry.loaded ??= this.closed ? false : this.manager.database(key).load();
      if (!this.closed && !entry.build.step(budgetMs)) return false;
      if (!this.closed && entry.loaded) this.current?.database(key).removeOrphans((id) => entry.reader.nodeExists(id));
    } catch (error) {
      this.built.delete(key);
      this.options.logger?.warn(`building the search indexes of ${key} failed: ${String(error)}`);
    }
    this.building.delete(key);
    entry.reader.close();
    return true;
  }

  /** Settings in use. */
  get settings(): SearchServiceSettings {
    return this.options.settings ?? searchSettingsFrom(DEFAULT_CONFIG);
  }

  /** The manager (created on first use; it subscribes to change events from then on). */
  get manager(): SearchManager {
    if (this.closed) throw new ArgumentError('search services are closed');
    this.current ??= new SearchManager({
      settings: this.settings,
      ...(this.options.settingsFor === undefined ? {} : { settingsFor: this.options.settingsFor }),
      events: { subscribe: (listener) => this.engine.subscribe(listener) },
      loadNode: (database, id) => {
        const reader = this.engine.beginRead(database);
        try {
          return reader.getNode(id);
        } finally {
          reader.close();
        }
      },
      dataDir: this.engine.dataDir,
      ...(this.engine.committedVersion ? { committedVersion: (database: string) => this.engine.committedVersion!(database) } : {}),
      ...(this.options.logger ? { logger: this.options.logger } : {}),
      ...(this.options.embedder !== undefined ? { embedder: this.options.embedder } : {}),
      ...(this.options.embeddingDelayMs !== undefined ? { embeddingDelayMs: this.options.embeddingDelayMs } : {}),
    });
    return this.current;
  }

  /** The search services of `database`, its indexes built from the latest snapshot on first use. */
  database(database: string): DatabaseSearch {
    const key = database.toLowerCase();
    const search = this.manager.database(key);
    if (this.building.has(key)) this.finishBuild(key, Infinity);
    if (this.built.has(key)) return search;
    const reader = this.engine.beginRead(key);
    try {
      const loaded = search.load();
      search.rebuild(reader);
      if (loaded) search.removeOrphans((id) => reader.nodeExists(id));
    } finally {
      reader.close();
    }
    this.built.add(key);
    return search;
  }

  /**
   * The search services of `database` with its named FULLTEXT/VECTOR indexes matching the
   * catalog `catalog` shows (schema commits publish no change events, so procedures call this).
   */
  databaseWithIndexes(database: string, catalog: GraphReader): DatabaseSearch {
    const search = this.database(database);
    const wanted = catalog.indexes().filter((d) => d.type === 'FULLTEXT' || d.type === 'VECTOR');
    let stale = false;
    for (const definition of wanted) stale = dropIfRedefined(search, definition) || stale;
    const named = search.named;
    const have = named.fulltext.size + named.vector.size + named.failed.size;
    const inSync =
      !stale &&
      wanted.length === have &&
      wanted.every((d) => named.fulltext.has(d.name) || named.vector.has(d.name) || named.failed.has(d.name));
    if (!inSync) {
      const reader = this.engine.beginRead(database);
      try {
        search.syncIndexes(reader);
      } finally {
        reader.close();
      }
    }
    return search;
  }

  /**
   * `databaseWithIndexes` for a plan that can run without search (the exact-kNN plan): null while
   * the database's indexes are being built in the background, whose rest is never finished on the
   * caller's turn of the event loop.
   */
  databaseWithIndexesIfBuilt(database: string, catalog: GraphReader): DatabaseSearch | null {
    return this.building.has(database.toLowerCase()) ? null : this.databaseWithIndexes(database, catalog);
  }

  /**
   * Why the named FULLTEXT/VECTOR index `name` of `database` failed, as far as its search
   * services already know, without building or populating anything (SHOW INDEXES must not run a
   * database's index build on the event loop); null while unknown or online.
   */
  knownIndexFailure(database: string, name: string): string | null {
    const key = database.toLowerCase();
    if (this.current === null || !this.built.has(key) || this.building.has(key)) return null;
    return this.current.database(key).named.failed.get(name) ?? null;
  }

  /** Called after CREATE DATABASE (eager mode builds it at once). */
  databaseCreated(database: string): void {
    if (this.options.eager && !this.closed) this.buildInBackground(database);
  }

  /** Called after DROP DATABASE. */
  async databaseDropped(database: string): Promise<void> {
    const key = database.toLowerCase();
    if (this.building.has(key)) {
      const entry = this.building.get(key)!;
      this.building.delete(key);
      entry.reader.close();
    }
    this.built.delete(key);
    await this.current?.dropDatabase(database);
  }

  /** Readiness of every built database: building while any builds, progress of the slowest. */
  readiness(): SearchReadinessSummary {
    const statuses = this.statuses();
    const building = statuses.filter((s) => !s.ready);
    const backend = vectorBackend();
    return {
      ready: building.length === 0,
      build_phase: building[0]?.build_phase ?? 'ready',
      progress_pct: building.length === 0 ? 100 : Math.min(...building.map((s) => s.progress_pct)),
      vector_backend: backend.name,
      ...(backend.reason === undefined ? {} : { vector_backend_reason: backend.reason }),
      index_bytes: this.current?.budget.usedBytes ?? 0,
      index_max_bytes: this.current?.budget.maxBytes ?? this.settings.indexMaxBytes ?? resolveIndexMaxBytes(),
    };
  }

  /** Nodes waiting for an embedding, over every database. */
  embeddingsPending(): number {
    return this.statuses().reduce((sum, s) => sum + s.embeddings.pending, 0);
  }

  /** Embedding-worker totals over every database. */
  embeddingTotals(): EmbeddingTotals {
    let processed = 0;
    let durationSecondsTotal = 0;
    let durationSecondsCount = 0;
    for (const name of this.built) {
      const counters = this.current?.database(name).embeddingWorker?.counters;
      if (counters === undefined) continue;
      processed += counters.processed;
      durationSecondsTotal += counters.durationSecondsTotal;
      durationSecondsCount += counters.durationSecondsCount;
    }
    return { processed, durationSecondsTotal, durationSecondsCount };
  }

  /** Waits for pending embeddings and index builds of every built database (tests, shutdown). */
  async settle(): Promise<void> {
    for (const key of [...this.building.keys()]) this.finishBuild(key, Infinity);
    for (const name of this.built) await this.current?.database(name).settle();
  }

  /** Stops the worker, persists (when enabled) and releases every index. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const key of [...this.building.keys()]) this.finishBuild(key, 0);
    this.built.clear();
    await this.current?.close();
    this.current = null;
  }

  private statuses() {
    if (this.current === null) return [];
    const manager = this.current;
    return [...this.built].map((name) => manager.database(name).status());
  }
}

const sameList = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Drops a named index whose catalog definition changed under the same name (dropped and
 * re-created between two uses), so the next sync builds it anew. Returns whether it dropped one.
 */
function dropIfRedefined(search: DatabaseSearch, definition: IndexDefinition): boolean {
  const entity = search.named.entityOf(definition.name);
  if (entity !== null && entity !== definition.entityType) {
    search.named.drop(definition.name);
    return true;
  }
  const fulltext = search.named.fulltext.get(definition.name);
  if (fulltext !== undefined) {
    const same =
      definition.type === 'FULLTEXT' &&
      sameList(fulltext.definition.labels, definition.labelsOrTypes) &&
      sameList(fulltext.definition.properties, definition.properties);
    if (!same) search.named.drop(definition.name);
    return !same;
  }
  const vector = search.named.vector.get(definition.name);
  if (vector === undefined) return false;
  let same = false;
  if (definition.type === 'VECTOR') {
    try {
      const wanted = vectorIndexDefinition(definition);
      const held = vector.definition;
      same =
        wanted.label === held.label &&
        wanted.property === held.property &&
        wanted.dimensions === held.dimensions &&
        wanted.similarity === held.similarity;
    } catch {
      same = false;
    }
  }
  if (!same) search.named.drop(definition.name);
  return !same;
}
