/**
 * What an incremental import (neo4j-admin's `--mode incremental`) knows about the database it
 * adds to: each id space names a label and an id property backed by a uniqueness constraint
 * (`uuid:ID(Person){label:Person}`), so a node id of the files is found among the nodes already
 * in the database through that constraint's index, and relationship files may refer to them.
 * Lookups read the state committed before the import started (nodes of this import are found in
 * its own id map first).
 */
import type { DatabaseStore, ReadTransaction } from '../storage/index.js';
import type { CypherMap, CypherValue } from '../values/types.js';
import { equivalent } from '../values/equality.js';

/** The key an id space identifies nodes by in the database. */
export interface IdSpaceKey {
  readonly label: string;
  readonly property: string;
  /** Ids are compared as INTEGER values (`--id-type integer`) or as strings. */
  readonly integer: boolean;
}

/** Thrown when an id space cannot identify existing nodes; the message says how to fix it. */
export class IdSpaceKeyError extends Error {
  override name = 'IdSpaceKeyError';
}

/** How an incremental import of neo4j-admin CSV adds to a database. */
const CSV_INCREMENTAL =
  'Use --mode incremental to add to it: nodes are then identified by their id property, and entries already in the database are duplicates.';

/**
 * The refusal of a full import (neo4j-admin's default mode) into a database that holds nodes:
 * importing the same files twice would duplicate them. `way` says how to add to the database
 * instead; `note` adds what else the caller knows.
 */
export function notEmptyForFullImport(database: string, note = '', way = CSV_INCREMENTAL): Error {
  return new Error(
    `Database '${database}' is not empty: a full import needs an empty database (importing the same files twice would duplicate them). ` +
      way +
      note,
  );
}

/** Looks up nodes and relationships already in a database by the keys of the import's id spaces. */
export class ExistingNodes {
  private reader: ReadTransaction | null = null;
  private readonly keys = new Map<string, IdSpaceKey>();
  /** Relationships from this id on are the import's own (a resumed import's earlier batches). */
  private ownRelationshipsFrom: bigint | null = null;

  constructor(private readonly store: DatabaseStore) {}

  /**
   * Tells a resumed import's lookups that relationships with ids from `id` on were written by its
   * own earlier batches: they were not in the database when the import started, so, as for an
   * uninterrupted run, they are not duplicates of the files' relationships.
   */
  ownRelationshipsStartAt(id: bigint): void {
    this.ownRelationshipsFrom = id;
  }

  private snapshot(): ReadTransaction {
    this.reader ??= this.store.beginRead();
    return this.reader;
  }

  /** True when the database holds no node. */
  isEmpty(): boolean {
    for (const id of this.snapshot().allNodeIds()) return id === undefined;
    return true;
  }

  /**
   * Declares the key of an id space (from a node file's header). The label and property must be
   * backed by a uniqueness or key constraint, as neo4j-admin requires for incremental imports.
   * @throws IdSpaceKeyError when the constraint is missing or the space was declared otherwise
   */
  declare(space: string, key: IdSpaceKey): void {
    const known = this.keys.get(space);
    if (known !== undefined) {
      if (known.label !== key.label || known.property !== key.property)
        throw new IdSpaceKeyError(
          `Id space '${space}' is already identified by :${known.label}(${known.property}), not :${key.label}(${key.property})`,
        );
      return;
    }
    const constrained = this.snapshot()
      .constraints()
      .some(
        (c) =>
          (c.type === 'UNIQUENESS' || c.type === 'NODE_KEY') &&
          c.labelsOrTypes[0] === key.label &&
          c.properties.length === 1 &&
          c.properties[0] === key.property,
      );
    if (!constrained)
      throw new IdSpaceKeyError(
        `An incremental import identifies nodes by a property uniqueness constraint, and there is none on :${key.label}(${key.property}). ` +
          `Create it first: CREATE CONSTRAINT FOR (n:${key.label}) REQUIRE n.${key.property} IS UNIQUE`,
      );
    this.keys.set(space, key);
  }

  /** The key of an id space, when one was declared. */
  keyOf(space: string): IdSpaceKey | undefined {
    return this.keys.get(space);
  }

  /** The id of the node already in the database whose key in `space` is `id`, or undefined. */
  find(space: string, id: string): bigint | undefined {
    const key = this.keys.get(space);
    if (key === undefined) return undefined;
    const value: CypherValue = key.integer ? BigInt(id) : id;
    for (const node of this.snapshot().seekNodes(key.label, key.property, { kind: 'equals', value })) return node;
    return undefined;
  }

  /** True when a relationship of `type` from `start` to `end` with exactly these properties is in the database. */
  hasRelationship(start: bigint, type: string, end: bigint, properties: CypherMap): boolean {
    const reader = this.snapshot();
    for (const handle of reader.expand(start, 'out', [type])) {
      if (handle.endId !== end || (this.ownRelationshipsFrom !== null && handle.id >= this.ownRelationshipsFrom)) continue;
      const existing = reader.getRelationship(handle.id)?.properties;
      if (existing !== undefined && sameProperties(existing, properties)) return true;
    }
    return false;
  }

  /** Releases the snapshot. */
  close(): void {
    this.reader?.close();
    this.reader = null;
  }
}

function sameProperties(a: CypherMap, b: CypherMap): boolean {
  let count = 0;
  for (const [key, value] of b) {
    if (value === null) continue;
    count++;
    const other = a.get(key);
    if (other === undefined || !equivalent(other, value)) return false;
  }
  let existing = 0;
  for (const value of a.values()) if (value !== null) existing++;
  return count === existing;
}
