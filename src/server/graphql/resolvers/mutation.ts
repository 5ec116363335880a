/**
 * `Mutation` resolvers. Every write is parameterised Cypher run through an engine session (so
 * constraints, per-statement authorization and change events behave as on Bolt); labels, types
 * and property keys, which Cypher cannot take as parameters, are validated and backtick-quoted.
 */
import {
  ArgumentError,
  EntityNotFound,
  toGraphError,
  Node,
  Relationship,
  type CypherMap,
  type CypherValue,
} from '../../../engine/index.js';
import type { GraphqlContext } from '../context.js';
import { quoteIdentifier, type StatementRows } from '../graph-access.js';
import { jsonToMap } from '../values.js';
import { checkNames } from './arguments.js';

function labelsClause(labels: readonly string[]): string {
  return checkNames(labels, 'labels')
    .map((label) => `:${quoteIdentifier(label)}`)
    .join('');
}

function requireId(context: GraphqlContext, elementId: string, kind: 'node' | 'relationship'): bigint {
  const id = context.graph.internalId(elementId, kind);
  if (id === null) throw new EntityNotFound(`No ${kind} with id ${elementId} in database ${context.graph.database}`);
  return id;
}

function single<T extends Node | Relationship>(rows: StatementRows, kind: 'node' | 'relationship', elementId: string): T {
  const value = rows.rows[0]?.[0];
  if (value === undefined || value === null) throw new EntityNotFound(`No ${kind} with id ${elementId}`);
  return value as T;
}

interface NodeInput {
  readonly labels?: readonly string[] | null;
  readonly properties?: unknown;
}

async function bulkCreate(nodes: readonly NodeInput[], context: GraphqlContext) {
  const errors: { index: number; message: string; code: string }[] = [];
  const groups = new Map<string, { clause: string; indexes: number[]; rows: CypherMap[] }>();
  nodes.forEach((node, index) => {
    try {
      const clause = labelsClause(node.labels ?? []);
      const properties = jsonToMap(node.properties, `nodes[${index}].properties`);
      const group = groups.get(clause) ?? { clause, indexes: [], rows: [] };
      group.indexes.push(index);
      group.rows.push(properties);
      groups.set(clause, group);
    } catch (error) {
      const graphError = toGraphError(error);
      errors.push({ index, message: graphError.message, code: graphError.code });
    }
  });
  const valid = [...groups.values()];
  try {
    await context.graph.transaction(async (run) => {
      for (const group of valid) await run(`UNWIND $rows AS row CREATE (n${group.clause}) SET n = row`, { rows: group.rows });
    });
  } catch {
    // One item failed the batch (a constraint, a bad value): create item by item to tell which.
    for (const group of valid) {
      for (const [position, properties] of group.rows.entries()) {
        try {
          await context.graph.run(`CREATE (n${group.clause}) SET n = $properties`, { properties });
        } catch (error) {
          const graphError = toGraphError(error);
          errors.push({ index: group.indexes[position]!, message: graphError.message, code: graphError.code });
        }
      }
    }
  }
  errors.sort((a, b) => a.index - b.index);
  return { created: nodes.length - errors.length, skipped: errors.length, errors };
}

function mergeStatement(labels: readonly string[], match: CypherMap): string {
  if (match.size === 0) throw new ArgumentError('matchProperties must name at least one property');
  const keys = [...match.keys()].map((key, index) => `${quoteIdentifier(checkNames([key], 'property keys')[0]!)}: $match${index}`);
  return `MERGE (n${labelsClause(labels)} {${keys.join(', ')}}) SET n += $set RETURN n`;
}

function matchParameters(match: CypherMap): Record<string, CypherValue> {
  const parameters: Record<string, CypherValue> = {};
  [...match.values()].forEach((value, index) => (parameters[`match${index}`] = value));
  return parameters;
}

/** The `Mutation` type. */
export const mutationResolvers = {
  createNode: async (_root: unknown, args: { input: NodeInput }, context: GraphqlContext) => {
    context.graph.authorize('write');
    const properties = jsonToMap(args.input.properties, 'properties');
    const rows = await context.graph.run(`CREATE (n${labelsClause(args.input.labels ?? [])}) SET n = $properties RETURN n`, { properties });
    return rows.rows[0]![0] as Node;
  },
  createRelationship: async (
    _root: unknown,
    args: { input: { startNodeId: string; endNodeId: string; type: string; properties?: unknown } },
    context: GraphqlContext,
  ) => {
    context.graph.authorize('write');
    const { input } = args;
    const start = requireId(context, input.startNodeId, 'node');
    const end = requireId(context, input.endNodeId, 'node');
    const type = quoteIdentifier(checkNames([input.type], 'type')[0]!);
    const properties = jsonToMap(input.properties, 'properties');
    const rows = await context.graph.run(
      `MATCH (a) WHERE id(a) = $start MATCH (b) WHERE id(b) = $end CREATE (a)-[r:${type}]->(b) SET r = $properties RETURN r`,
      { start, end, properties },
    );
    return single<Relationship>(rows, 'node', `${input.startNodeId} or ${input.endNodeId}`);
  },
  bulkCreateNodes: (_root: unknown, args: { input: { nodes: NodeInput[] } }, context: GraphqlContext) => {
    context.graph.authorize('write');
    return bulkCreate(args.input.nodes, context);
  },
  updateNode: async (_root: unknown, args: { input: { id: string; properties: unknown } }, context: GraphqlContext) => {
    context.graph.authorize('write');
    const id = requireId(context, args.input.id, 'node');
    const properties = jsonToMap(args.input.properties, 'properties');
    const rows = await context.graph.run('MATCH (n) WHERE id(n) = $id SET n += $properties RETURN n', { id, properties });
    return single<Node>(rows, 'node', args.input.id);
  },
  mergeNode: async (
    _root: unknown,
    args: { labels: string[]; matchProperties: unknown; setProperties?: unknown },
    context: GraphqlContext,
  ) => {
    context.graph.authorize('write');
    const match = jsonToMap(args.matchProperties, 'matchProperties');
    const set = jsonToMap(args.setProperties, 'setProperties');
    const rows = await context.graph.run(mergeStatement(args.labels, match), { ...matchParameters(match), set });
    return rows.rows[0]![0] as Node;
  },
  deleteNode: async (_root: unknown, args: { id: string }, context: GraphqlContext) => {
    context.graph.authorize('delete');
    const id = context.graph.internalId(args.id, 'node');
    if (id === null) return false;
    const rows = await context.graph.run('MATCH (n) WHERE id(n) = $id DETACH DELETE n RETURN count(*) AS deleted', { id });
    return rows.rows[0]?.[0] === 1n;
  },
  updateRelationship: async (_root: unknown, args: { input: { id: string; properties: unknown } }, context: GraphqlContext) => {
    context.graph.authorize('write');
    const id = requireId(context, args.input.id, 'relationship');
    const properties = jsonToMap(args.input.properties, 'properties');
    const rows = await context.graph.run('MATCH ()-[r]->() WHERE id(r) = $id SET r += $properties RETURN r', { id, properties });
    return single<Relationship>(rows, 'relationship', args.input.id);
  },
  deleteRelationship: async (_root: unknown, args: { id: string }, context: GraphqlContext) => {
    context.graph.authorize('delete');
    const id = context.graph.internalId(args.id, 'relationship');
    if (id === null) return false;
    const rows = await context.graph.run('MATCH ()-[r]->() WHERE id(r) = $id DELETE r RETURN count(*) AS deleted', { id });
    return rows.rows[0]?.[0] === 1n;
  },
  bulkDeleteNodes: async (_root: unknown, args: { ids: string[] }, context: GraphqlContext) => {
    context.graph.authorize('delete');
    const known = args.ids.map((elementId) => ({ elementId, id: context.graph.internalId(elementId, 'node') }));
    const ids = known.flatMap((entry) => (entry.id === null ? [] : [entry.id]));
    const rows = await context.graph.run(
      'MATCH (n) WHERE id(n) IN $ids WITH n, id(n) AS nodeId DETACH DELETE n RETURN collect(nodeId) AS deleted',
      { ids },
    );
    const deleted = new Set((rows.rows[0]?.[0] as bigint[] | undefined) ?? []);
    const notFound = known.filter((entry) => entry.id === null || !deleted.has(entry.id)).map((entry) => entry.elementId);
    return { deleted: deleted.size, notFound };
  },
};
