/**
 * The reads of GraphQL resolvers as parameterised Cypher through an engine session (so each
 * statement is authorised, time-sliced and bounded as on Bolt): nodes and relationships by id,
 * a node's relationships, a page of nodes, a shortest path. Each function answers a whole batch
 * with one statement, so the batch loaders keep a query level to one read.
 */
import { Node, Relationship } from '../../engine/index.js';
import { quoteIdentifier, type GraphAccess } from './graph-access.js';

/** A direction of expansion from a node. */
export type Direction = 'out' | 'in' | 'both';

/** A request for the relationships of one node. */
export interface RelationshipQuery {
  readonly nodeId: bigint;
  readonly direction: Direction;
  readonly types: readonly string[];
  /** At most this many relationships (null: all). */
  readonly limit: number | null;
}

/** What queries for the relationships of different nodes share one statement on (direction, types, limit). */
export function expansionKey(query: RelationshipQuery): string {
  return `${query.direction}|${query.types.join('\u0000')}|${query.limit ?? ''}`;
}

/** `:A|B` for relationship types or labels, nothing for none. */
function alternatives(names: readonly string[]): string {
  return names.length === 0 ? '' : `:${names.map(quoteIdentifier).join('|')}`;
}

function entities<T>(rows: readonly (readonly unknown[])[], kind: abstract new (...args: never[]) => T): T[] {
  return rows.flatMap((row) => (row[0] instanceof kind ? [row[0]] : []));
}

/** The nodes of `ids`, in order; null for an id with no node. */
export async function nodesById(graph: GraphAccess, ids: readonly bigint[]): Promise<(Node | null)[]> {
  const { rows } = await graph.run('UNWIND $ids AS nodeId MATCH (n) WHERE id(n) = nodeId RETURN n', { ids: [...ids] });
  const found = new Map(entities(rows, Node).map((node) => [node.id, node]));
  return ids.map((id) => found.get(id) ?? null);
}

/** The relationship with internal id `id`, or null. */
export async function relationshipById(graph: GraphAccess, id: bigint): Promise<Relationship | null> {
  const { rows } = await graph.run('MATCH ()-[r]->() WHERE id(r) = $id RETURN r', { id });
  return entities(rows, Relationship)[0] ?? null;
}

function expansion(direction: Direction, types: readonly string[]): string {
  const relationship = `[r${alternatives(types)}]`;
  if (direction === 'out') return `(n)-${relationship}->()`;
  if (direction === 'in') return `(n)<-${relationship}-()`;
  return `(n)-${relationship}-()`;
}

/**
 * The relationships of each query's node, in the order the engine expands them. Queries of the
 * same direction, types and limit (the same field on every parent of a level) share one statement.
 */
export async function relationshipsOf(graph: GraphAccess, queries: readonly RelationshipQuery[]): Promise<Relationship[][]> {
  const groups = new Map<string, RelationshipQuery[]>();
  for (const query of queries) {
    const key = expansionKey(query);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [query]);
    else group.push(query);
  }
  const byQuery = new Map<RelationshipQuery, Relationship[]>();
  for (const group of groups.values()) {
    const [{ direction, types, limit }] = group as [RelationshipQuery, ...RelationshipQuery[]];
    const page = limit === null ? '' : ' LIMIT $limit';
    const { rows } = await graph.run(
      `UNWIND $ids AS nodeId MATCH (n) WHERE id(n) = nodeId CALL (n) { MATCH ${expansion(direction, types)} RETURN r${page} } RETURN nodeId, collect(r)`,
      { ids: [...new Set(group.map((query) => query.nodeId))], ...(limit === null ? {} : { limit: BigInt(limit) }) },
    );
    const byNode = new Map<bigint, Relationship[]>();
    for (const [nodeId, found] of rows) byNode.set(nodeId as bigint, found as Relationship[]);
    for (const query of group) byQuery.set(query, byNode.get(query.nodeId) ?? []);
  }
  return queries.map((query) => byQuery.get(query) ?? []);
}

/**
 * Nodes with any of `labels` (every node when none) in ascending id order, after `offset`, at
 * most `limit`. One label or none reads the engine's scan, which is in id order; several labels
 * are ordered explicitly.
 */
export async function nodePage(graph: GraphAccess, labels: readonly string[], offset: number, limit: number): Promise<Node[]> {
  const order = labels.length > 1 ? ' ORDER BY id(n)' : '';
  const { rows } = await graph.run(`MATCH (n${alternatives(labels)}) RETURN n${order} SKIP $offset LIMIT $limit`, {
    offset: BigInt(offset),
    limit: BigInt(limit),
  });
  return entities(rows, Node);
}

/**
 * The nodes of a shortest path (any direction) over `types` of at most `maxDepth` hops from
 * `start` to `end`, or null when there is none or either node does not exist. A node is its own
 * shortest path.
 */
export async function shortestPathNodes(
  graph: GraphAccess,
  start: bigint,
  end: bigint,
  maxDepth: number,
  types: readonly string[],
): Promise<Node[] | null> {
  if (start === end) {
    const [node] = await nodesById(graph, [start]);
    return node === null || node === undefined ? null : [node];
  }
  if (maxDepth === 0) return null;
  const { rows } = await graph.run(
    `MATCH (a) WHERE id(a) = $start MATCH (b) WHERE id(b) = $end MATCH p = shortestPath((a)-[${alternatives(types)}*..${maxDepth}]-(b)) RETURN nodes(p)`,
    { start, end },
  );
  const nodes = rows[0]?.[0];
  return Array.isArray(nodes) ? (nodes as Node[]) : null;
}
