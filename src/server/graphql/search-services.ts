/**
 * The search services GraphQL uses (`search`, `similar`, `hasEmbedding`, `embeddingDimensions`,
 * `stats.embeddedNodeCount`): one SearchManager per engine, fed by the engine's change events,
 * each database's indexes rebuilt from a snapshot on first use. Shared through
 * `searchServicesFor(graphdb, ...)` so other route groups (REST search) can reuse the same one.
 */
import type { GraphdbConfig } from '../../engine/config/types.js';
import type { GraphDB } from '../../engine/graphdb.js';
import { SearchManager, searchSettingsFrom, type DatabaseSearch, type SearchLogger } from '../../engine/search/index.js';

/** Search of every database of one engine, built lazily. */
export class SearchServices {
  private readonly built = new Set<string>();

  constructor(
    readonly manager: SearchManager,
    private readonly graphdb: Pick<GraphDB, 'store'>,
  ) {}

  /** The search services of `database`, with its indexes built from storage the first time. */
  database(database: string): DatabaseSearch {
    const key = database.toLowerCase();
    const search = this.manager.database(key);
    if (!this.built.has(key)) {
      const reader = this.graphdb.store(key).beginRead();
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

const servicesByEngine = new WeakMap<object, SearchServices>();

/** The search services of `graphdb`, created on the first call (closed by `closeSearchServices`). */
export function searchServicesFor(graphdb: GraphDB, config: GraphdbConfig, logger?: SearchLogger): SearchServices {
  let services = servicesByEngine.get(graphdb);
  if (services === undefined) {
    const manager = new SearchManager({
      settings: searchSettingsFrom(config),
      events: { subscribe: (listener) => graphdb.onChange(listener) },
      loadNode: (database, id) => {
        const reader = graphdb.store(database).beginRead();
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
