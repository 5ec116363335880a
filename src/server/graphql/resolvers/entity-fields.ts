/**
 * Field resolvers of `Node` and `Relationship`. Parents are the engine's materialized `Node` and
 * `Relationship` values; traversals go through the operation's batch loaders.
 */
import type { Node, Relationship } from '../../../engine/index.js';
import type { GraphqlContext } from '../context.js';
import type { Direction } from '../graph-reads.js';
import { mapToJson } from '../values.js';
import { clampLimit } from './arguments.js';

type GraphqlDirection = 'OUTGOING' | 'INCOMING' | 'BOTH';

const DIRECTIONS: Readonly<Record<GraphqlDirection, Direction>> = { OUTGOING: 'out', INCOMING: 'in', BOTH: 'both' };

/**
 * `createdAt` / `updatedAt` as RFC 3339 text: the commit times of the entity's creating and
 * current versions, maintained by the storage on every write (DatabaseStore.entityTimestamps).
 */
function timestamp(kind: 'node' | 'relationship', id: bigint, which: 'createdAt' | 'updatedAt', context: GraphqlContext): string | null {
  const stamps = context.graph.engine.databaseServices.entityTimestamps(context.graph.database, kind, id);
  const ms = stamps?.[which] ?? null;
  return ms === null ? null : new Date(ms).toISOString();
}

interface RelationshipArgs {
  readonly types?: readonly string[] | null;
  readonly direction?: GraphqlDirection | null;
  readonly limit?: number | null;
}

function relationshipsOf(node: Node, direction: Direction, args: RelationshipArgs, context: GraphqlContext): Promise<Relationship[]> {
  return context.loaders.relationships.load({
    nodeId: node.id,
    direction,
    types: args.types ?? [],
    limit: args.limit === undefined || args.limit === null ? null : clampLimit(args.limit, 'limit'),
  });
}

interface NeighborArgs {
  readonly direction?: GraphqlDirection | null;
  readonly relationshipTypes?: readonly string[] | null;
  readonly labels?: readonly string[] | null;
  readonly limit?: number | null;
}

async function neighbors(node: Node, args: NeighborArgs, context: GraphqlContext): Promise<Node[]> {
  const relationships = await relationshipsOf(node, DIRECTIONS[args.direction ?? 'BOTH'], { types: args.relationshipTypes }, context);
  const seen = new Set<bigint>();
  const ids: bigint[] = [];
  for (const relationship of relationships) {
    const other = relationship.startId === node.id ? relationship.endId : relationship.startId;
    if (!seen.has(other)) {
      seen.add(other);
      ids.push(other);
    }
  }
  const labels = args.labels ?? [];
  const limit = args.limit === undefined || args.limit === null ? Infinity : clampLimit(args.limit, 'limit');
  const found = await Promise.all(ids.map((id) => context.loaders.node.load(id)));
  return found
    .filter((other): other is Node => other !== null && (labels.length === 0 || other.labels.some((label) => labels.includes(label))))
    .slice(0, limit);
}

async function similarTo(node: Node, args: { limit?: number | null; threshold?: number | null }, context: GraphqlContext) {
  const services = context.search();
  if (services === null) return [];
  const hits = services.similar({
    nodeId: node.id,
    limit: clampLimit(args.limit ?? 10, 'limit'),
    ...(args.threshold !== undefined && args.threshold !== null ? { minSimilarity: args.threshold } : {}),
  });
  const nodes = await Promise.all(hits.map((hit) => context.loaders.node.load(hit.nodeId)));
  return hits.flatMap((hit, index) => {
    const other = nodes[index];
    return other === null || other === undefined ? [] : [{ node: other, similarity: hit.score }];
  });
}

/** `Node` fields. */
export const nodeFields = {
  id: (node: Node) => node.elementId,
  internalId: (node: Node) => node.id.toString(),
  labels: (node: Node) => node.labels,
  properties: (node: Node) => mapToJson(node.properties),
  createdAt: (node: Node, _args: unknown, context: GraphqlContext) => timestamp('node', node.id, 'createdAt', context),
  updatedAt: (node: Node, _args: unknown, context: GraphqlContext) => timestamp('node', node.id, 'updatedAt', context),
  hasEmbedding: (node: Node, _args: unknown, context: GraphqlContext) => context.search()?.hasEmbedding(node.id) ?? false,
  embeddingDimensions: (node: Node, _args: unknown, context: GraphqlContext) => context.search()?.embeddingOf(node.id)?.length ?? 0,
  relationships: (node: Node, args: RelationshipArgs, context: GraphqlContext) =>
    relationshipsOf(node, DIRECTIONS[args.direction ?? 'BOTH'], args, context),
  outgoing: (node: Node, args: RelationshipArgs, context: GraphqlContext) => relationshipsOf(node, 'out', args, context),
  incoming: (node: Node, args: RelationshipArgs, context: GraphqlContext) => relationshipsOf(node, 'in', args, context),
  neighbors: (node: Node, args: NeighborArgs, context: GraphqlContext) => neighbors(node, args, context),
  similar: (node: Node, args: { limit?: number | null; threshold?: number | null }, context: GraphqlContext) =>
    similarTo(node, args, context),
};

/** `Relationship` fields. */
export const relationshipFields = {
  id: (relationship: Relationship) => relationship.elementId,
  type: (relationship: Relationship) => relationship.type,
  startNode: (relationship: Relationship, _args: unknown, context: GraphqlContext) => context.loaders.node.load(relationship.startId),
  endNode: (relationship: Relationship, _args: unknown, context: GraphqlContext) => context.loaders.node.load(relationship.endId),
  properties: (relationship: Relationship) => mapToJson(relationship.properties),
  createdAt: (relationship: Relationship, _args: unknown, context: GraphqlContext) =>
    timestamp('relationship', relationship.id, 'createdAt', context),
  updatedAt: (relationship: Relationship, _args: unknown, context: GraphqlContext) =>
    timestamp('relationship', relationship.id, 'updatedAt', context),
  confidence: (relationship: Relationship) => {
    const value = relationship.properties.get('confidence');
    return typeof value === 'number' ? value : typeof value === 'bigint' ? Number(value) : null;
  },
  autoGenerated: (relationship: Relationship) => relationship.properties.get('autoGenerated') === true,
};
