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

type NodeEvent = Extract<ChangeEvent, { readonly node: unknown }>;
type RelationshipEvent = Extract<ChangeEvent, { readonly relationship: unknown }>;
type DeletionEvent = Extract<ChangeEvent, { readonly kind: 'nodeDeleted' | 'relationshipDeleted' }>;

/** A created or updated node; the `Node` value is built on first access. */
class NodeChange {
  private value: Node | null = null;
  readonly kind: NodeEvent['kind'];
  readonly database: string;

  constructor(
    private readonly event: NodeEvent,
    private readonly namespace: string,
  ) {
    this.kind = event.kind;
    this.database = event.database;
  }

  get node(): Node {
    const { id, labels, properties } = this.event.node;
    return (this.value ??= new Node(id, nodeElementId(this.namespace, id), labels, properties));
  }
}

/** A created or updated relationship; the `Relationship` value is built on first access. */
class RelationshipChange {
  private value: Relationship | null = null;
  readonly kind: RelationshipEvent['kind'];
  readonly database: string;

  constructor(
    private readonly event: RelationshipEvent,
    private readonly namespace: string,
  ) {
    this.kind = event.kind;
    this.database = event.database;
  }

  get relationship(): Relationship {
    const { id, type, startId, endId, properties } = this.event.relationship;
    const namespace = this.namespace;
    return (this.value ??= new Relationship(
      id,
      relationshipElementId(namespace, id),
      type,
      startId,
      endId,
      nodeElementId(namespace, startId),
      nodeElementId(namespace, endId),
      properties,
    ));
  }
}

function deletion(event: DeletionEvent, namespace: string): EntityChange {
  return event.kind === 'nodeDeleted'
    ? {
        ...event,
        get elementId() {
          return nodeElementId(namespace, event.id);
        },
      }
    : {
        ...event,
        get elementId() {
          return relationshipElementId(namespace, event.id);
        },
      };
}

/**
 * One commit's change events as `EntityChange` values; `uuidOf` names the element-id namespace of
 * a database (asked once per database of the batch). Values and element ids are built when first
 * read, so a listener that skips an event (or reads it later, in its own time slices) pays nothing
 * for it here.
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
      case 'nodeUpdated':
        return new NodeChange(event, namespace);
      case 'relationshipCreated':
      case 'relationshipUpdated':
        return new RelationshipChange(event, namespace);
      default:
        return deletion(event, namespace);
    }
  });
}
