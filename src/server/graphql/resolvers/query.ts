/** `Query` resolvers: reads need the `read` permission on the operation's database. */
import { ArgumentError, type SearchMethod } from '../../../engine/index.js';
import type { GraphqlContext } from '../context.js';
import { nodePage, relationshipById, shortestPathNodes } from '../graph-reads.js';
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

const METHODS: Readonly<Record<string, SearchMethod>> = { HYBRID: 'hybrid', TEXT: 'text', VECTOR: 'vector' };

interface SearchOptions {
  readonly limit?: number | null;
  readonly labels?: readonly string[] | null;
  readonly method?: string | null;
  readonly minSimilarity?: number | null;
}

async function search(query: string, options: SearchOptions, context: GraphqlContext) {
  const services = context.search();
  if (services === null) throw new ArgumentError('search is not available on this server');
  const page = await services.search({
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
    return id === null ? null : relationshipById(context.graph, id);
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
    return nodePage(context.graph, labels, offset, limit);
  },
  search: (_root: unknown, args: { query: string; options?: SearchOptions | null }, context: GraphqlContext) => {
    context.graph.authorize('read');
    return search(args.query, args.options ?? {}, context);
  },
  similar: async (_root: unknown, args: { nodeId: string; limit?: number | null; threshold?: number | null }, context: GraphqlContext) => {
    context.graph.authorize('read');
    const services = context.search();
    if (services === null) return [];
    const id = requireNodeId(context, args.nodeId, 'nodeId');
    const hits = services.similar({
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
    return shortestPathNodes(context.graph, start, end, maxDepth, types);
  },
  cypher: async (_root: unknown, args: { input: { statement: string; parameters?: unknown } }, context: GraphqlContext) => {
    const parameters = jsonToMap(args.input.parameters, 'parameters');
    const { columns, rows } = await context.graph.run(args.input.statement, parameters);
    return { columns, rows: rows.map((row) => row.map(cypherToJson)), rowCount: rows.length };
  },
};
