/**
 * A content hash of one database version, equal on members that hold the same graph whatever
 * their token ids or physical layout: identity, version, every node (id, sorted labels,
 * properties by name), every relationship (id, type, ends, properties), every index and
 * constraint. Used to prove that replicas did not diverge.
 */
import { createHash } from 'node:crypto';
import type { CypherMap, CypherValue } from '../values/types.js';
import { encodeStandalone } from '../storage/codec/value-codec.js';
import type { GraphReader } from '../storage/graph-store.js';

function sorted(properties: CypherMap): CypherMap {
  return new Map([...properties].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The hash (hex SHA-256) of everything `reader` sees, plus the database identity `uuid`. */
export function contentHash(reader: GraphReader, uuid: string): string {
  const hash = createHash('sha256');
  const add = (value: CypherValue): void => {
    const bytes = encodeStandalone(value);
    hash.update(`${bytes.length}:`);
    hash.update(bytes);
  };
  add(['db', uuid, reader.version]);
  for (const id of reader.allNodeIds()) {
    const node = reader.getNode(id);
    if (node !== null) add(['n', id, [...node.labels].sort(), sorted(node.properties)]);
  }
  for (const handle of reader.allRelationships()) {
    const rel = reader.getRelationship(handle.id);
    if (rel !== null) add(['r', rel.id, rel.type, rel.startId, rel.endId, sorted(rel.properties)]);
  }
  const byName = <T extends { name: string }>(items: readonly T[]) => [...items].sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const index of byName(reader.indexes())) {
    add(['i', index.name, index.type, index.entityType, [...index.labelsOrTypes], [...index.properties], sorted(index.options)]);
  }
  for (const constraint of byName(reader.constraints())) {
    add(['c', constraint.name, constraint.type, constraint.entityType, [...constraint.labelsOrTypes], [...constraint.properties]]);
  }
  return hash.digest('hex');
}
