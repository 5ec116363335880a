import { Node, Path, Relationship } from '../../../../engine/index.js';
import { Structure } from '../../packstream/structure.js';
import { ValueSignature } from './signatures.js';

/**
 * Graph entities as Bolt structures. Ids are the engine's integer ids (the same `id()` returns),
 * element ids the engine's strings (the same `elementId()` returns); 4.4 has no element ids.
 */
export function nodeToStructure(node: Node, elementIds: boolean): Structure {
  const fields: unknown[] = [node.id, node.labels, node.properties];
  if (elementIds) fields.push(node.elementId);
  return new Structure(ValueSignature.Node, fields);
}

/** A bound relationship (with its endpoints). */
export function relationshipToStructure(rel: Relationship, elementIds: boolean): Structure {
  const fields: unknown[] = [rel.id, rel.startId, rel.endId, rel.type, rel.properties];
  if (elementIds) fields.push(rel.elementId, rel.startElementId, rel.endElementId);
  return new Structure(ValueSignature.Relationship, fields);
}

function unboundRelationship(rel: Relationship, elementIds: boolean): Structure {
  const fields: unknown[] = [rel.id, rel.type, rel.properties];
  if (elementIds) fields.push(rel.elementId);
  return new Structure(ValueSignature.UnboundRelationship, fields);
}

/**
 * A path as Bolt sends it: distinct nodes, distinct unbound relationships, and an index
 * sequence alternating (1-based relationship index, negative when walked against its
 * direction) and (0-based node index) for each step after the first node.
 */
export function pathToStructure(path: Path, elementIds: boolean): Structure {
  const nodes: Node[] = [];
  const nodeIndex = new Map<bigint, number>();
  const rels: Relationship[] = [];
  const relIndex = new Map<bigint, number>();
  const indexOfNode = (node: Node): number => {
    let index = nodeIndex.get(node.id);
    if (index === undefined) {
      index = nodes.push(node) - 1;
      nodeIndex.set(node.id, index);
    }
    return index;
  };
  if (path.nodes.length > 0) indexOfNode(path.nodes[0]!);
  const sequence: bigint[] = [];
  path.relationships.forEach((rel, step) => {
    let index = relIndex.get(rel.id);
    if (index === undefined) {
      index = rels.push(rel);
      relIndex.set(rel.id, index);
    }
    const previous = path.nodes[step]!;
    const forward = rel.startId === previous.id;
    sequence.push(BigInt(forward ? index : -index), BigInt(indexOfNode(path.nodes[step + 1]!)));
  });
  return new Structure(ValueSignature.Path, [
    nodes.map((node) => nodeToStructure(node, elementIds)),
    rels.map((rel) => unboundRelationship(rel, elementIds)),
    sequence,
  ]);
}
