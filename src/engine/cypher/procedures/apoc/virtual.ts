/**
 * Virtual nodes and relationships (apoc.create.vNode, apoc.meta.graph, apoc.nodes.group...):
 * materialized values with negative ids that exist only in results, never in the store.
 */
import { isNode, isPath, isRelationship, isMap } from '../../../values/kinds.js';
import { Node, Relationship, type CypherMap, type CypherValue, type EntityAccessor } from '../../../values/types.js';

let nextVirtualId = -1n;

/** A fresh negative id for a virtual entity. */
export function virtualId(): bigint {
  return nextVirtualId--;
}

/** A virtual node. */
export function virtualNode(labels: readonly string[], properties: CypherMap): Node {
  const id = virtualId();
  return new Node(id, String(id), [...labels], properties);
}

/** A virtual relationship between two (real or virtual) nodes. */
export function virtualRelationship(
  type: string,
  start: CypherValue,
  end: CypherValue,
  properties: CypherMap,
  accessor: EntityAccessor,
): Relationship {
  if (!isNode(start) || !isNode(end)) throw new Error('A virtual relationship needs a start and an end node');
  const id = virtualId();
  const elementIdOf = (n: CypherValue & { id: bigint }) => (n instanceof Node ? n.elementId : accessor.nodeElementId(n.id));
  return new Relationship(id, String(id), type, start.id, end.id, elementIdOf(start), elementIdOf(end), properties);
}

/** Collects the distinct nodes and relationships inside a value (lists, maps, paths). */
export function collectEntities(value: CypherValue, nodes: Map<bigint, CypherValue>, rels: Map<bigint, CypherValue>): void {
  if (value === null || typeof value !== 'object') return;
  if (isNode(value)) nodes.set(value.id, value);
  else if (isRelationship(value)) rels.set(value.id, value);
  else if (isPath(value)) {
    for (const n of value.nodes) nodes.set(n.id, n);
    for (const r of value.relationships) rels.set(r.id, r);
  } else if (Array.isArray(value)) for (const v of value as CypherValue[]) collectEntities(v, nodes, rels);
  else if (isMap(value)) for (const v of value.values()) collectEntities(v, nodes, rels);
}
