/**
 * The context of one GraphQL operation (HTTP request, SSE stream or WebSocket subscription):
 * engine access bound to the database and SecurityContext, search, and the batch loaders that
 * turn a query level's node and relationship lookups into one snapshot read each.
 */
import type { SecurityContext, Direction, Node, Relationship } from '../../engine/index.js';
import { BatchLoader } from './batch-loader.js';
import { GraphAccess, nodeFromRecord, relationshipFromRecord, type GraphqlEngine } from './graph-access.js';
import type { SearchServices } from './search-services.js';

/** A request for the relationships of one node. */
export interface RelationshipQuery {
  readonly nodeId: bigint;
  readonly direction: Direction;
  readonly types: readonly string[];
  readonly limit: number | null;
}

/** The loaders of one operation. */
export interface Loaders {
  readonly node: BatchLoader<bigint, Node | null>;
  readonly relationships: BatchLoader<RelationshipQuery, Relationship[]>;
}

/** What every resolver receives as its context. */
export interface GraphqlContext {
  readonly graph: GraphAccess;
  readonly search: SearchServices | null;
  readonly loaders: Loaders;
  /** When the server started (for `stats.uptimeSeconds`). */
  readonly startedAt: Date;
}

/** Shared inputs of every operation's context. */
export interface ContextDependencies {
  readonly engine: GraphqlEngine;
  readonly search: SearchServices | null;
  readonly startedAt: Date;
}

function createLoaders(graph: GraphAccess): Loaders {
  const node = new BatchLoader<bigint, Node | null>(
    (ids) =>
      graph.read((reader) =>
        ids.map((id) => {
          const record = reader.getNode(id);
          return record === null ? null : nodeFromRecord(reader, record);
        }),
      ),
    (id) => id.toString(),
  );
  const relationships = new BatchLoader<RelationshipQuery, Relationship[]>(
    (queries) =>
      graph.read((reader) =>
        queries.map((query) => {
          const found: Relationship[] = [];
          for (const handle of reader.expand(query.nodeId, query.direction, query.types)) {
            if (query.limit !== null && found.length >= query.limit) break;
            const record = reader.getRelationship(handle.id);
            if (record !== null) found.push(relationshipFromRecord(reader, record));
          }
          return found;
        }),
      ),
    (query) => `${query.nodeId}|${query.direction}|${query.types.join('\u0000')}|${query.limit ?? ''}`,
  );
  return { node, relationships };
}

/** The context of one operation. */
export function createContext(dependencies: ContextDependencies, database: string, security: SecurityContext): GraphqlContext {
  const graph = new GraphAccess(dependencies.engine, database, security);
  return { graph, search: dependencies.search, loaders: createLoaders(graph), startedAt: dependencies.startedAt };
}
