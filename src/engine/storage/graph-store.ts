/**
 * The narrow interface between the Cypher runtime and storage. The runtime reaches storage,
 * MVCC and indexes only through these types, so operators can be tested against a fake.
 *
 * Terminology:
 * - A *read transaction* sees one committed snapshot (version) for its whole life.
 * - A *write transaction* sees the last committed state plus its own writes; there is one
 *   writer per database at a time (others wait, then fail with a TransientError).
 * - Every committed write transaction gets the next monotonic *commit version*; the head of
 *   each node/relationship is current, closed historical versions are kept until pruned.
 */
import type { CypherMap, CypherValue } from '../values/types.js';

/** Relationship traversal direction relative to a node. */
export type Direction = 'out' | 'in' | 'both';

/** A node's stored state. */
export interface NodeRecord {
  readonly id: bigint;
  readonly labels: readonly string[];
  readonly properties: CypherMap;
}

/** A relationship's identity and endpoints (cheap to produce during expansion). */
export interface RelationshipHandle {
  readonly id: bigint;
  readonly type: string;
  readonly startId: bigint;
  readonly endId: bigint;
}

/** A relationship's stored state. */
export interface RelationshipRecord extends RelationshipHandle {
  readonly properties: CypherMap;
}

/**
 * A batch of selected node properties as columns: `columns[k][i]` is the k-th requested key of
 * the batch's i-th node, undefined when that node lacks it.
 */
export interface NodePropertyColumns {
  readonly count: number;
  readonly columns: readonly (readonly (CypherValue | undefined)[])[];
}

/**
 * One direction of an in-memory adjacency (compressed sparse rows): the relationships of node
 * `n` sit at positions `offsets[n]` to `offsets[n + 1] - 1` (nodes above the last offset have
 * none), in the order `GraphReader.expand` returns them; `other` is the node at the far end.
 */
export interface AdjacencyLists {
  readonly offsets: Int32Array;
  readonly other: Int32Array;
  readonly relationship: Float64Array;
  readonly type: Int32Array;
}

/** The whole relationship graph of one version in memory, for long traversals (shortestPath). */
export interface AdjacencySnapshot {
  readonly out: AdjacencyLists;
  readonly in: AdjacencyLists;
  /** The type token id of a relationship type name, undefined when no such type exists. */
  typeId(name: string): number | undefined;
  typeName(id: number): string;
}

/** A predicate a property index can answer. Values are Cypher values (bigint, number, string, ...). */
export type IndexPredicate =
  | { readonly kind: 'equals'; readonly value: CypherValue }
  | { readonly kind: 'in'; readonly values: readonly CypherValue[] }
  | {
      readonly kind: 'range';
      readonly lower?: { readonly value: CypherValue; readonly inclusive: boolean };
      readonly upper?: { readonly value: CypherValue; readonly inclusive: boolean };
    }
  | { readonly kind: 'prefix'; readonly prefix: string }
  | { readonly kind: 'contains'; readonly substring: string }
  | { readonly kind: 'suffix'; readonly suffix: string }
  | { readonly kind: 'exists' };

/** Kinds of index the catalog knows. */
export type IndexType = 'RANGE' | 'TEXT' | 'POINT' | 'LOOKUP' | 'FULLTEXT' | 'VECTOR';

/** An index definition as stored in the catalog (shape of `SHOW INDEXES`). */
export interface IndexDefinition {
  readonly name: string;
  readonly type: IndexType;
  readonly entityType: 'NODE' | 'RELATIONSHIP';
  /** Labels (node) or relationship types the index covers. */
  readonly labelsOrTypes: readonly string[];
  readonly properties: readonly string[];
  /** Name of the constraint that owns this index, if any. */
  readonly owningConstraint: string | null;
  /** Provider-specific options (vector dimensions, similarity function, analyzer, ...). */
  readonly options: CypherMap;
  readonly state: 'ONLINE' | 'POPULATING' | 'FAILED';
}

/** Kinds of constraint. */
export type ConstraintType =
  | 'UNIQUENESS'
  | 'NODE_PROPERTY_EXISTENCE'
  | 'RELATIONSHIP_PROPERTY_EXISTENCE'
  | 'NODE_KEY'
  | 'RELATIONSHIP_UNIQUENESS'
  | 'RELATIONSHIP_KEY'
  | 'NODE_PROPERTY_TYPE'
  | 'RELATIONSHIP_PROPERTY_TYPE';

/** A constraint definition as stored in the catalog (shape of `SHOW CONSTRAINTS`). */
export interface ConstraintDefinition {
  readonly name: string;
  readonly type: ConstraintType;
  readonly entityType: 'NODE' | 'RELATIONSHIP';
  readonly labelsOrTypes: readonly string[];
  readonly properties: readonly string[];
  /** For property type constraints: the Cypher type text, e.g. `INTEGER`, `STRING | LIST<STRING>`. */
  readonly propertyType: string | null;
}

/** Read access to one snapshot of one database. */
export interface GraphReader {
  /** The commit version this reader sees. */
  readonly version: bigint;

  getNode(id: bigint): NodeRecord | null;
  getRelationship(id: bigint): RelationshipRecord | null;
  nodeExists(id: bigint): boolean;
  nodeLabels(id: bigint): readonly string[] | null;
  nodeProperty(id: bigint, key: string): CypherValue | undefined;
  relationshipProperty(id: bigint, key: string): CypherValue | undefined;

  /**
   * Every node id, ascending. `expected` is how many ids the caller will probably take (a LIMIT
   * above the scan): a reader that pages may size its first page by it; it never changes the ids.
   */
  allNodeIds(expected?: number): Iterable<bigint>;
  /** Node ids carrying `label`, ascending (`expected` as for `allNodeIds`). */
  nodeIdsByLabel(label: string, expected?: number): Iterable<bigint>;
  /**
   * Optional fast path of scans that read only properties: the `keys` of every node carrying
   * `label` (every node when null), in ascending id order, as column batches. A reader without
   * it is read through `nodeIdsByLabel`/`allNodeIds` and `nodeProperty`, which gives the same rows.
   */
  scanNodeProperties?(label: string | null, keys: readonly string[]): Iterable<NodePropertyColumns>;
  /**
   * Node ids with `label` whose `property` satisfies `predicate`, answered from a property index.
   * Throws if no index covers (label, property); check `findIndex` first.
   */
  seekNodes(label: string, property: string, predicate: IndexPredicate): Iterable<bigint>;
  /** Relationships touching `nodeId` in `direction`, restricted to `types` when non-empty. */
  expand(nodeId: bigint, direction: Direction, types?: readonly string[]): Iterable<RelationshipHandle>;
  /** Every relationship, restricted to `types` when non-empty. */
  allRelationships(types?: readonly string[]): Iterable<RelationshipHandle>;
  /** Relationship ids whose `property` satisfies `predicate` for relationship `type`, via an index. */
  seekRelationships(type: string, property: string, predicate: IndexPredicate): Iterable<RelationshipHandle>;
  degree(nodeId: bigint, direction: Direction, types?: readonly string[]): number;
  /**
   * Optional: the in-memory adjacency of this reader's (immutable) version. `work` is the number
   * of node expansions the caller did through `expand` since it last asked; the reader builds a
   * snapshot once that work, summed over the version, would have paid for reading every
   * relationship once. Null until then, and always for readers that see their own writes.
   */
  adjacencySnapshot?(work: number): AdjacencySnapshot | null;

  countNodes(label?: string): number;
  countRelationships(type?: string): number;

  labels(): readonly string[];
  relationshipTypes(): readonly string[];
  propertyKeys(): readonly string[];
  indexes(): readonly IndexDefinition[];
  constraints(): readonly ConstraintDefinition[];
  /** An ONLINE index usable for (entity, labelOrType, property) seeks, or null. */
  findIndex(entityType: 'NODE' | 'RELATIONSHIP', labelOrType: string, property: string): IndexDefinition | null;

  /** Stable element ids (`4:<database uuid>:<id>` for nodes, `5:...` for relationships). */
  nodeElementId(id: bigint): string;
  relationshipElementId(id: bigint): string;
  /** Parses an element id of this database back to an internal id (null if foreign/malformed). */
  idFromElementId(elementId: string): bigint | null;
}

/** Counters of one write transaction's effects (names as Neo4j's summary counters). */
export interface WriteCounters {
  nodesCreated: number;
  nodesDeleted: number;
  relationshipsCreated: number;
  relationshipsDeleted: number;
  propertiesSet: number;
  labelsAdded: number;
  labelsRemoved: number;
  indexesAdded: number;
  indexesRemoved: number;
  constraintsAdded: number;
  constraintsRemoved: number;
}

/** Write access: a reader that also mutates. Constraint checks happen on each call. */
export interface GraphWriter extends GraphReader {
  /** With `merge` (MERGE's create), concurrent creates of the same pattern are serialised by key locks. */
  createNode(labels: readonly string[], properties: CypherMap, options?: { readonly merge?: boolean }): bigint;
  /** Sets (or with null removes) one property. */
  setNodeProperty(id: bigint, key: string, value: CypherValue): void;
  /** Replaces all properties (`SET n = map`). */
  replaceNodeProperties(id: bigint, properties: CypherMap): void;
  /** Returns how many labels were actually added. */
  addLabels(id: bigint, labels: readonly string[]): number;
  /** Returns how many labels were actually removed. */
  removeLabels(id: bigint, labels: readonly string[]): number;
  /** Deletes a node; with `detach` false it fails if relationships remain. */
  deleteNode(id: bigint, detach: boolean): void;

  createRelationship(type: string, startId: bigint, endId: bigint, properties: CypherMap, options?: { readonly merge?: boolean }): bigint;
  setRelationshipProperty(id: bigint, key: string, value: CypherValue): void;
  replaceRelationshipProperties(id: bigint, properties: CypherMap): void;
  deleteRelationship(id: bigint): void;

  createIndex(definition: Omit<IndexDefinition, 'state' | 'owningConstraint'>, ifNotExists: boolean): boolean;
  /**
   * `createIndex` as steps: the generator yields while it populates the index (once per existing
   * entity), so a statement can pause between time slices; its return value is createIndex's.
   */
  createIndexSteps(definition: Omit<IndexDefinition, 'state' | 'owningConstraint'>, ifNotExists: boolean): Generator<void, boolean>;
  dropIndex(name: string, ifExists: boolean): boolean;
  createConstraint(definition: ConstraintDefinition, ifNotExists: boolean): boolean;
  dropConstraint(name: string, ifExists: boolean): boolean;
  /** Creates a label, relationship type or property key token if it does not exist yet. */
  createToken(kind: 'label' | 'type' | 'key', name: string): void;

  /** Effects so far in this transaction. */
  readonly counters: WriteCounters;
  /** Statement-level atomicity inside a transaction. */
  savepoint(): Savepoint;
}

/** Who committed a write transaction, for change data capture (Neo4j's CDC metadata). */
export interface CommitOrigin {
  /** Epoch milliseconds when the transaction started. */
  readonly startedAt: number;
  /** The user the transaction ran as (empty without authentication). */
  readonly executingUser: string;
  /** The user who authenticated the connection. */
  readonly authenticatedUser: string;
  /** The transaction's metadata, as the client set it. */
  readonly metadata: CypherMap;
  /** The protocol of the client's connection: `bolt`, `http` or `embedded`. */
  readonly connectionType: string;
  /** The client's `host:port` (empty when unknown). */
  readonly connectionClient: string;
  /** The `host:port` of the listener the client reached (empty when unknown). */
  readonly connectionServer: string;
  /** The server that ran the transaction. */
  readonly serverId: string;
}

/** A rollback point inside a write transaction. */
export interface Savepoint {
  release(): void;
  rollbackTo(): void;
}

/** One change, published on the engine's event bus after its transaction commits. */
export type ChangeEvent =
  | { readonly kind: 'nodeCreated' | 'nodeUpdated'; readonly database: string; readonly node: NodeRecord }
  | { readonly kind: 'nodeDeleted'; readonly database: string; readonly id: bigint; readonly labels: readonly string[] }
  | { readonly kind: 'relationshipCreated' | 'relationshipUpdated'; readonly database: string; readonly relationship: RelationshipRecord }
  | { readonly kind: 'relationshipDeleted'; readonly database: string; readonly id: bigint; readonly type: string };
