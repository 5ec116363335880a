/**
 * The search services GraphQL uses (`search`, `similar`, `hasEmbedding`, `embeddingDimensions`,
 * `stats.embeddedNodeCount`): one SearchManager per engine, fed by the engine's change events,
 * each database's indexes rebuilt from a snapshot on first use. Shared through
 * `searchServicesFor(graphdb, ...)` so other route groups (REST search) can reuse the same one.
 */
import type { GraphdbConfig } from '../../engine/config/index.js';
import { type GraphDB, type DatabaseSearch, type SearchLogger, SearchManager, searchSettingsFrom } from '../../engine/index.js';

/** Search of every database of one engine, built lazily. */
export class SearchServices {
  private readonly built = new Set<string>();

  constructor(
    readonly manager: SearchManager,
    private readonly graphdb: Pick<GraphDB, 'databaseServices'>,
  ) {}

  /** The search services of `database`, with its indexes built from storage the first time. */
  database(database: string): DatabaseSearch {
    const key = database.toLowerCase();
    const search = this.manager.database(key);
    if (!this.built.has(key)) {
      const reader = this.graphdb.databaseServices.snapshot(key);
      try {
        search.load();
        search.rebuild(reader);
      } finally {
        reader.close();
      }
      this.built.add(key);
    }
    return search;
  }

  close(): Promise<void> {
    return this.manager.close();
  }
}

/**
 * `SearchServices` backed by the engine's own (`GraphDB.search`), so GraphQL, the REST search
 * routes and the Cypher procedures share one set of indexes, one embedding worker and one result
 * cache. The engine owns and closes them.
 */
class EngineSearchServices extends SearchServices {
  constructor(
    private readonly engine: GraphDB,
    manager: SearchManager,
  ) {
    super(manager, engine);
  }

  override database(database: string): DatabaseSearch {
    return this.engine.search(database);
  }

  override async close(): Promise<void> {}
}

const servicesByEngine = new WeakMap<object, SearchServices>();

/**
 * The search services of `graphdb`, created on the first call (closed by `closeSearchServices`):
 * the engine's own when it has them, else a manager of their own built from `config`.
 */
export function searchServicesFor(graphdb: GraphDB, config: GraphdbConfig, logger?: SearchLogger): SearchServices {
  let services = servicesByEngine.get(graphdb);
  const engineSearch = graphdb.searchServices;
  if (services === undefined && engineSearch !== null) {
    services = new EngineSearchServices(graphdb, engineSearch.manager);
    servicesByEngine.set(graphdb, services);
  }
  if (services === undefined) {
    const manager = new SearchManager({
      settings: searchSettingsFrom(config),
      events: { subscribe: (listener) => graphdb.onChange(listener) },
      loadNode: (database, id) => {
        const reader = graphdb.databaseServices.snapshot(database);
        try {
          return reader.getNode(id);
        } finally {
          reader.close();
        }
      },
      dataDir: config.database.path,
      ...(logger ? { logger } : {}),
    });
    services = new SearchServices(manager, graphdb);
    servicesByEngine.set(graphdb, services);
  }
  return services;
}

/** Closes and forgets the search services of `graphdb` (no-op when none were created). */
export async function closeSearchServices(graphdb: GraphDB): Promise<void> {
  const services = servicesByEngine.get(graphdb);
  servicesByEngine.delete(graphdb);
  await services?.close();
}

/** The search services already created for `graphdb`, or null. */
export function existingSearchServices(graphdb: GraphDB): SearchServices | null {
  return servicesByEngine.get(graphdb) ?? null;
}
