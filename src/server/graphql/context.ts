/**
 * The context of one GraphQL operation (HTTP request, SSE stream or WebSocket subscription):
 * engine access bound to the database and SecurityContext, the database's search services, and
 * the batch loaders that turn a query level's node and relationship lookups into one statement each.
 */
import type { DatabaseSearch, Node, Relationship, SecurityContext } from '../../engine/index.js';
import { BatchLoader } from './batch-loader.js';
import { GraphAccess, type GraphqlEngine } from './graph-access.js';
import { expansionKey, nodesById, relationshipsOf, type RelationshipQuery } from './graph-reads.js';

export type { RelationshipQuery } from './graph-reads.js';

/** The loaders of one operation. */
export interface Loaders {
  readonly node: BatchLoader<bigint, Node | null>;
  readonly relationships: BatchLoader<RelationshipQuery, Relationship[]>;
}

/** What every resolver receives as its context. */
export interface GraphqlContext {
  readonly graph: GraphAccess;
  /** The engine's search services of the operation's database; null when the engine runs without search. */
  search(): DatabaseSearch | null;
  readonly loaders: Loaders;
  /** When the server started (for `stats.uptimeSeconds`). */
  readonly startedAt: Date;
}

/** Shared inputs of every operation's context. */
export interface ContextDependencies {
  readonly engine: GraphqlEngine;
  readonly startedAt: Date;
}

function createLoaders(graph: GraphAccess): Loaders {
  const node = new BatchLoader<bigint, Node | null>(
    (ids) => nodesById(graph, ids),
    (id) => id.toString(),
  );
  const relationships = new BatchLoader<RelationshipQuery, Relationship[]>(
    (queries) => relationshipsOf(graph, queries),
    (query) => `${query.nodeId}|${expansionKey(query)}`,
  );
  return { node, relationships };
}

/** The context of one operation. */
export function createContext(dependencies: ContextDependencies, database: string, security: SecurityContext): GraphqlContext {
  const { engine } = dependencies;
  const graph = new GraphAccess(engine, database, security);
  return {
    graph,
    search: () => (engine.searchEnabled ? engine.search(database) : null),
    loaders: createLoaders(graph),
    startedAt: dependencies.startedAt,
  };
}
