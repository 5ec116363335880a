/**
 * Committed changes as listeners see them (`GraphDB.onChange`): nodes and relationships are the
 * engine's materialized `Node` / `Relationship` values with their element ids, deletions carry
 * the deleted entity's id, element id and labels or type. Storage records never leave the engine.
 */
import { nodeElementId, relationshipElementId } from './storage/element-id.js';
import type { ChangeEvent } from './storage/graph-store.js';
import { Node, Relationship } from './values/types.js';

/** One committed change of a database, published after its transaction commits. */
export type EntityChange =
  | { readonly kind: 'nodeCreated' | 'nodeUpdated'; readonly database: string; readonly node: Node }
  | {
      readonly kind: 'nodeDeleted';
      readonly database: string;
      readonly id: bigint;
      readonly elementId: string;
      readonly labels: readonly string[];
    }
  | { readonly kind: 'relationshipCreated' | 'relationshipUpdated'; readonly database: string; readonly relationship: Relationship }
  | {
      readonly kind: 'relationshipDeleted';
      readonly database: string;
      readonly id: bigint;
      readonly elementId: string;
      readonly type: string;
    };

/** The kinds of change, as `EntityChange['kind']`. */
export type EntityChangeKind = EntityChange['kind'];

/**
 * Materializes one commit's change events; `uuidOf` names the element-id namespace of a database
 * (asked once per database of the batch).
 */
export function materializeChanges(events: readonly ChangeEvent[], uuidOf: (database: string) => string): EntityChange[] {
  const uuids = new Map<string, string>();
  const uuid = (database: string): string => {
    let found = uuids.get(database);
    if (found === undefined) uuids.set(database, (found = uuidOf(database)));
    return found;
  };
  return events.map((event): EntityChange => {
    const namespace = uuid(event.database);
    switch (event.kind) {
      case 'nodeCreated':
      case 'nodeUpdated': {
        const { id, labels, properties } = event.node;
        return { kind: event.kind, database: event.database, node: new Node(id, nodeElementId(namespace, id), labels, properties) };
      }
      case 'nodeDeleted':
        return { ...event, elementId: nodeElementId(namespace, event.id) };
      case 'relationshipCreated':
      case 'relationshipUpdated': {
        const { id, type, startId, endId, properties } = event.relationship;
        const relationship = new Relationship(
          id,
          relationshipElementId(namespace, id),
          type,
          startId,
          endId,
          nodeElementId(namespace, startId),
          nodeElementId(namespace, endId),
          properties,
        );
        return { kind: event.kind, database: event.database, relationship };
      }
      case 'relationshipDeleted':
        return { ...event, elementId: relationshipElementId(namespace, event.id) };
    }
  });
}
