/**
 * Converts engine values to what leaves the engine: entity references become `Node`,
 * `Relationship` and `Path` snapshots read through the statement's transaction.
 */
import type { GraphReader } from '../storage/graph-store.js';
import { Node, NodeRef, Path, PathRef, Relationship, RelationshipRef } from '../values/types.js';
import type { CypherValue } from '../values/types.js';

function node(ref: NodeRef, reader: GraphReader): Node {
  const record = reader.getNode(ref.id);
  return new Node(ref.id, reader.nodeElementId(ref.id), record?.labels ?? [], record?.properties ?? new Map());
}

function relationship(ref: RelationshipRef, reader: GraphReader): Relationship {
  const record = reader.getRelationship(ref.id);
  return new Relationship(
    ref.id,
    reader.relationshipElementId(ref.id),
    ref.type,
    ref.startId,
    ref.endId,
    reader.nodeElementId(ref.startId),
    reader.nodeElementId(ref.endId),
    record?.properties ?? new Map(),
  );
}

/** Materializes a value (recursively through lists and maps). */
export function materialize(value: CypherValue, reader: GraphReader): CypherValue {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof NodeRef) return node(value, reader);
  if (value instanceof RelationshipRef) return relationship(value, reader);
  if (value instanceof PathRef) {
    return new Path(
      value.nodes.map((n) => node(n, reader)),
      value.relationships.map((r) => relationship(r, reader)),
    );
  }
  if (Array.isArray(value)) return (value as readonly CypherValue[]).map((v) => materialize(v, reader));
  if (value instanceof Map) {
    const out = new Map<string, CypherValue>();
    for (const [k, v] of value) out.set(k as string, materialize(v as CypherValue, reader));
    return out;
  }
  return value;
}
