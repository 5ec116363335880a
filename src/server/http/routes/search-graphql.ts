/**
 * GraphQL's search services backed by the engine's own (`GraphDB.search`), so GraphQL, the REST
 * search routes and the Cypher procedures share one set of indexes, one embedding worker and one
 * result cache. `startServer` passes it as `graphqlRoutes({ search })`; the engine closes it.
 */
import type { GraphDB } from '../../../engine/graphdb.js';
import type { DatabaseSearch } from '../../../engine/search/index.js';
import { SearchServices } from '../../graphql/search-services.js';

/** `SearchServices` delegating to the engine's search services. */
export class EngineSearchServices extends SearchServices {
  constructor(private readonly engine: GraphDB) {
    const host = engine.searchServices;
    if (host === null) throw new Error('search is disabled for this GraphDB');
    super(host.manager, engine);
  }

  /** The engine's search services of `database` (indexes built on first use). */
  override database(database: string): DatabaseSearch {
    return this.engine.search(database);
  }

  /** The engine owns and closes its search services. */
  override async close(): Promise<void> {}
}
