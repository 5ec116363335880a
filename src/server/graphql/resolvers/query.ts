/** `Query` resolvers: reads need the `read` permission on the operation's database. */
import { ArgumentError, type SearchMethod, type GraphReader, type Node } from '../../../engine/index.js';
import type { GraphqlContext } from '../context.js';
import { relationshipFromRecord } from '../graph-access.js';
import { cypherToJson, jsonToMap } from '../values.js';
import { checkNames, clampLimit } from './arguments.js';
import { StatsSource } from './stats.js';

const DEFAULT_PAGE = 100;

function nodeIdOf(context: GraphqlContext, elementId: string): bigint | null {
  return context.graph.internalId(elementId, 'node');
}

function requireNodeId(context: GraphqlContext, elementId: string, what: string): bigint {
  const id = nodeIdOf(context, elementId);
  if (id === null) throw new ArgumentError(`${what} is not a node id of database ${context.graph.database}: ${elementId}`);
  return id;
}

/** Node ids with any of `labels` (all nodes when none), ascending, after `offset`, at most `limit`. */
function pageOfNodeIds(reader: GraphReader, labels: readonly string[], offset: number, limit: number): bigint[] {
  let ids: Iterable<bigint>;
  if (labels.length === 0) ids = reader.allNodeIds();
  else if (labels.length === 1) ids = reader.nodeIdsByLabel(labels[0]!);
  else ids = [...new Set(labels.flatMap((label) => [...reader.nodeIdsByLabel(label)]))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const page: bigint[] = [];
  let skipped = 0;
  for (const id of ids) {
    if (skipped < offset) {
      skipped++;
      continue;
    }
    if (page.length >= limit) break;
    page.push(id);
  }
  return page;
}

/** Longest the breadth-first search runs before it yields to the event loop. */
const SEARCH_SLICE_MS = 8;

/**
 * Breadth-first shortest path (any direction) over `types`, at most `maxDepth` hops. Yields to
 * the event loop every {@link SEARCH_SLICE_MS} (between expansions, on one snapshot), so a search
 * over a large neighbourhood never stalls other requests.
 */
async function shortestPathIds(
  reader: GraphReader,
  start: bigint,
  end: bigint,
  maxDepth: number,
  types: readonly string[],
): Promise<bigint[] | null> {
  if (!reader.nodeExists(start) || !reader.nodeExists(end)) return null;
  const previous = new Map<bigint, bigint | null>([[start, null]]);
  let frontier = [start];
  let sliceStart = performance.now();
  for (let depth = 0; depth < maxDepth && frontier.length > 0 && !previous.has(end); depth++) {
    const next: bigint[] = [];
    for (const id of frontier) {
      for (const handle of reader.expand(id, 'both', types)) {
        const other = handle.startId === id ? handle.endId : handle.startId;
        if (previous.has(other)) continue;
        previous.set(other, id);
        next.push(other);
      }
      if (performance.now() - sliceStart >= SEARCH_SLICE_MS) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
    }
    frontier = next;
  }
  if (!previous.has(end)) return null;
  const path: bigint[] = [];
  for (let at: bigint | null = end; at !== null; at = previous.get(at) ?? null) path.push(at);
  return path.reverse();
}

const METHODS: Readonly<Record<string, SearchMethod>> = { HYBRID: 'hybrid', TEXT: 'text', VECTOR: 'vector' };

interface SearchOptions {
  readonly limit?: number | null;
  readonly labels?: readonly string[] | null;
  readonly method?: string | null;
  readonly minSimilarity?: number | null;
}

async function search(query: string, options: SearchOptions, context: GraphqlContext) {
  if (context.search === null) throw new ArgumentError('search is not available on this server');
  const page = await context.search.database(context.graph.database).search({
    query,
    limit: clampLimit(options.limit ?? 10, 'limit'),
    ...(options.labels ? { labels: options.labels } : {}),
    method: METHODS[options.method ?? 'HYBRID'] ?? 'hybrid',
    ...(options.minSimilarity !== undefined && options.minSimilarity !== null ? { minSimilarity: options.minSimilarity } : {}),
  });
  const nodes = await Promise.all(page.results.map((result) => context.loaders.node.load(result.nodeId)));
  const results = page.results.flatMap((result, index) => {
    const node = nodes[index];
    return node === null || node === undefined ? [] : [{ node, score: result.score, rrfScore: result.rrfScore }];
  });
  return { results, totalCount: results.length, executionTimeMs: page.executionTimeMs };
}

/** The `Query` type. */
export const queryResolvers = {
  stats: (_root: unknown, _args: unknown, context: GraphqlContext) => {
    context.graph.authorize('read');
    return new StatsSource(context);
  },
  node: (_root: unknown, args: { id: string }, context: GraphqlContext) => {
    context.graph.authorize('read');
    const id = nodeIdOf(context, args.id);
    return id === null ? null : context.loaders.node.load(id);
  },
  relationship: (_root: unknown, args: { id: string }, context: GraphqlContext) => {
    context.graph.authorize('read');
    const id = context.graph.internalId(args.id, 'relationship');
    if (id === null) return null;
    return context.graph.read((reader) => {
      const record = reader.getRelationship(id);
      return record === null ? null : relationshipFromRecord(reader, record);
    });
  },
  allNodes: (
    _root: unknown,
    args: { labels?: string[] | null; limit?: number | null; offset?: number | null },
    context: GraphqlContext,
  ) => {
    context.graph.authorize('read');
    const labels = checkNames(args.labels ?? [], 'labels');
    const limit = clampLimit(args.limit ?? DEFAULT_PAGE, 'limit');
    const offset = args.offset ?? 0;
    if (!Number.isInteger(offset) || offset < 0) throw new ArgumentError(`offset must be a non-negative integer, got ${offset}`);
    const ids = context.graph.read((reader) => pageOfNodeIds(reader, labels, offset, limit));
    return Promise.all(ids.map((id) => context.loaders.node.load(id))).then((nodes) => nodes.filter((node): node is Node => node !== null));
  },
  search: (_root: unknown, args: { query: string; options?: SearchOptions | null }, context: GraphqlContext) => {
    context.graph.authorize('read');
    return search(args.query, args.options ?? {}, context);
  },
  similar: async (_root: unknown, args: { nodeId: string; limit?: number | null; threshold?: number | null }, context: GraphqlContext) => {
    context.graph.authorize('read');
    if (context.search === null) return [];
    const id = requireNodeId(context, args.nodeId, 'nodeId');
    const hits = context.search.database(context.graph.database).similar({
      nodeId: id,
      limit: clampLimit(args.limit ?? 10, 'limit'),
      ...(args.threshold !== undefined && args.threshold !== null ? { minSimilarity: args.threshold } : {}),
    });
    const nodes = await Promise.all(hits.map((hit) => context.loaders.node.load(hit.nodeId)));
    return hits.flatMap((hit, index) => (nodes[index] ? [{ node: nodes[index], similarity: hit.score }] : []));
  },
  shortestPath: async (
    _root: unknown,
    args: { startNodeId: string; endNodeId: string; maxDepth?: number | null; relationshipTypes?: string[] | null },
    context: GraphqlContext,
  ) => {
    context.graph.authorize('read');
    const start = requireNodeId(context, args.startNodeId, 'startNodeId');
    const end = requireNodeId(context, args.endNodeId, 'endNodeId');
    const maxDepth = clampLimit(args.maxDepth ?? 15, 'maxDepth');
    const types = checkNames(args.relationshipTypes ?? [], 'relationshipTypes');
    const ids = await context.graph.readAsync((reader) => shortestPathIds(reader, start, end, maxDepth, types));
    if (ids === null) return null;
    const nodes = await Promise.all(ids.map((id) => context.loaders.node.load(id)));
    return nodes.filter((node): node is Node => node !== null);
  },
  cypher: async (_root: unknown, args: { input: { statement: string; parameters?: unknown } }, context: GraphqlContext) => {
    const parameters = jsonToMap(args.input.parameters, 'parameters');
    const { columns, rows } = await context.graph.run(args.input.statement, parameters);
    return { columns, rows: rows.map((row) => row.map(cypherToJson)), rowCount: rows.length };
  },
};
