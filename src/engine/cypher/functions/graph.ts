/**
 * Graph functions over entity references (reading through the `EntityAccessor`) and
 * materialized entities: id, elementId, labels, type, properties, keys, startNode, endNode,
 * nodes, relationships, length.
 */
import { CypherTypeError, EntityNotFound, SemanticError } from '../../errors/index.js';
import { isNode, isPath, isRelationship, typeName } from '../../values/kinds.js';
import { Node, NodeRef, Relationship, type CypherMap, type CypherValue, type EntityAccessor } from '../../values/types.js';
import { scalar, wrongType } from './define.js';
import type { FunctionContext, GraphCatalog, ScalarFunction } from './registry.js';

function deleted(kind: string, id: bigint): EntityNotFound {
  return new EntityNotFound(`${kind} with id ${id} has been deleted in this transaction`, { detail: 'DeletedEntityAccess' });
}

/** Properties of a node, relationship or map (null-safe for deleted entities: raises). */
export function propertiesOf(v: CypherValue, accessor: EntityAccessor, fn = 'properties'): CypherMap {
  if (v instanceof Map) return v;
  if (v instanceof Node || v instanceof Relationship) return v.properties;
  if (v instanceof NodeRef) return accessor.nodeProperties(v.id) ?? raise(deleted('Node', v.id));
  if (isRelationship(v)) return accessor.relationshipProperties(v.id) ?? raise(deleted('Relationship', v.id));
  throw wrongType(fn, v, 'Node, Relationship or Map');
}

function raise(error: Error): never {
  throw error;
}

function invalidArgumentValue(fn: string, v: CypherValue, expected: string): CypherTypeError {
  return new CypherTypeError(`Invalid input for function '${fn}()': Expected a ${expected}, got: ${typeName(v)}`, {
    detail: 'InvalidArgumentValue',
  });
}

/** The graphs of the composite database the statement runs on (Neo4j: only supported there). */
function compositeGraphs(fn: string, ctx: FunctionContext): GraphCatalog {
  if (ctx.graphs === undefined) throw new SemanticError(`${fn}() is only supported on composite databases.`);
  return ctx.graphs;
}

/** The graph functions. */
export const graphFunctions: readonly ScalarFunction[] = [
  scalar(
    'graph.names',
    { min: 0, category: 'Graph', description: 'Lists the names of graphs in the current database.', deterministic: false },
    (_args, ctx) => [...compositeGraphs('graph.names', ctx).names()],
  ),
  scalar(
    'graph.byName',
    { category: 'Graph', description: 'Returns the graph reference of the given name.', argumentTypes: [['String']], deterministic: false },
    () => {
      throw new SemanticError('graph.byName() is only supported in the USE clause.');
    },
  ),
  scalar(
    'graph.byElementId',
    {
      category: 'Graph',
      description: 'Returns the graph reference with the given element id.',
      argumentTypes: [['String']],
      deterministic: false,
    },
    () => {
      throw new SemanticError('graph.byElementId() is only supported in the USE clause.');
    },
  ),
  scalar(
    'graph.propertiesByName',
    {
      category: 'Graph',
      description: 'Returns the map of properties associated with a graph.',
      argumentTypes: [['String']],
      deterministic: false,
    },
    ([name], ctx) => {
      if (typeof name !== 'string') throw wrongType('graph.propertiesByName', name!, 'String');
      return compositeGraphs('graph.propertiesByName', ctx).properties(name);
    },
  ),
  scalar(
    'id',
    { category: 'Scalar', description: 'The internal id of a node or relationship.', argumentTypes: [['Node', 'Relationship']] },
    ([v]) => {
      if (isNode(v!) || isRelationship(v!)) return v.id;
      throw wrongType('id', v!, 'Node or Relationship');
    },
  ),
  scalar(
    'elementId',
    { category: 'Scalar', description: 'The element id of a node or relationship.', argumentTypes: [['Node', 'Relationship']] },
    ([v], ctx) => {
      if (v instanceof Node || v instanceof Relationship) return v.elementId;
      if (v instanceof NodeRef) return ctx.accessor.nodeElementId(v.id);
      if (isRelationship(v!)) return ctx.accessor.relationshipElementId(v.id);
      throw wrongType('elementId', v!, 'Node or Relationship');
    },
  ),
  scalar('labels', { category: 'List', description: 'The labels of a node.', argumentTypes: [['Node']] }, ([v], ctx) => {
    if (v instanceof Node) return [...v.labels];
    if (v instanceof NodeRef) return [...(ctx.accessor.nodeLabels(v.id) ?? raise(deleted('Node', v.id)))];
    throw invalidArgumentValue('labels', v!, 'Node');
  }),
  scalar('type', { category: 'Scalar', description: 'The type of a relationship.', argumentTypes: [['Relationship']] }, ([v]) => {
    if (isRelationship(v!)) return v.type;
    throw invalidArgumentValue('type', v!, 'Relationship');
  }),
  scalar(
    'properties',
    { category: 'Scalar', description: 'The properties of a node, relationship or map.', argumentTypes: [['Node', 'Relationship', 'Map']] },
    ([v], ctx) => propertiesOf(v!, ctx.accessor),
  ),
  scalar(
    'keys',
    {
      category: 'List',
      description: 'The property keys of a node, relationship or map.',
      argumentTypes: [['Node', 'Relationship', 'Map']],
    },
    ([v], ctx) => [...propertiesOf(v!, ctx.accessor, 'keys').keys()],
  ),
  scalar(
    'startNode',
    { category: 'Scalar', description: 'The start node of a relationship.', argumentTypes: [['Relationship']] },
    ([v]) => {
      if (isRelationship(v!)) return new NodeRef(v.startId);
      throw wrongType('startNode', v!, 'Relationship');
    },
  ),
  scalar('endNode', { category: 'Scalar', description: 'The end node of a relationship.', argumentTypes: [['Relationship']] }, ([v]) => {
    if (isRelationship(v!)) return new NodeRef(v.endId);
    throw wrongType('endNode', v!, 'Relationship');
  }),
  scalar('nodes', { category: 'List', description: 'The nodes of a path.', argumentTypes: [['Path']] }, ([v]) => {
    if (isPath(v!)) return [...v.nodes];
    throw wrongType('nodes', v!, 'Path');
  }),
  scalar('relationships', { category: 'List', description: 'The relationships of a path.', argumentTypes: [['Path']] }, ([v]) => {
    if (isPath(v!)) return [...v.relationships];
    throw wrongType('relationships', v!, 'Path');
  }),
  scalar('length', { category: 'Scalar', description: 'The number of relationships in a path.', argumentTypes: [['Path']] }, ([v]) => {
    if (isPath(v!)) return BigInt(v.relationships.length);
    throw wrongType('length', v!, 'Path');
  }),
];
