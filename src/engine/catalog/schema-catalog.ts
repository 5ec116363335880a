/**
 * The schema catalog of one database: index and constraint definitions, with token ids
 * resolved for fast maintenance on every write.
 *
 * A catalog is immutable once published; a write transaction that runs DDL works on a copy
 * (`withIndex`, `withoutIndex`, ...) that is published on commit and dropped on rollback.
 */
import type { ConstraintDefinition, IndexDefinition } from '../storage/graph-store.js';

/** Index types whose entries the store maintains in `index_entries`. */
export const MAINTAINED_INDEX_TYPES = new Set(['RANGE', 'TEXT', 'POINT']);

/** An index plus what the store needs to maintain it. */
export interface IndexEntry {
  /** Row id in `schema_indexes`, also the `index_id` of its entries. */
  readonly id: number;
  readonly definition: IndexDefinition;
  /** Label ids (node index) or relationship type ids. */
  readonly tokenIds: readonly number[];
  /** Property key ids, in index order. */
  readonly keyIds: readonly number[];
  /** True when entries are kept in `index_entries`. */
  readonly maintained: boolean;
  /** True when it backs a uniqueness or key constraint. */
  readonly unique: boolean;
}

/** A constraint plus resolved token ids. */
export interface ConstraintEntry {
  readonly definition: ConstraintDefinition;
  readonly tokenId: number;
  readonly keyIds: readonly number[];
  /** The backing index for uniqueness and key constraints. */
  readonly index: IndexEntry | null;
}

/** Constraint kinds checked when the transaction commits (existence and type). */
export function isCommitTimeConstraint(type: ConstraintDefinition['type']): boolean {
  return type !== 'UNIQUENESS' && type !== 'RELATIONSHIP_UNIQUENESS';
}

function addTo<T>(map: Map<number, T[]>, key: number, value: T): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

/** An immutable set of indexes and constraints with lookup tables. */
export class SchemaCatalog {
  /** Maintained node indexes by label id. */
  readonly nodeIndexesByLabel = new Map<number, IndexEntry[]>();
  /** Maintained relationship indexes by type id. */
  readonly relIndexesByType = new Map<number, IndexEntry[]>();
  /** Node constraints checked at commit, by label id. */
  readonly nodeCommitChecks = new Map<number, ConstraintEntry[]>();
  /** Relationship constraints checked at commit, by type id. */
  readonly relCommitChecks = new Map<number, ConstraintEntry[]>();

  constructor(
    readonly indexes: readonly IndexEntry[],
    readonly constraints: readonly ConstraintEntry[],
  ) {
    for (const index of indexes) {
      if (!index.maintained) continue;
      const target = index.definition.entityType === 'NODE' ? this.nodeIndexesByLabel : this.relIndexesByType;
      for (const tokenId of index.tokenIds) addTo(target, tokenId, index);
    }
    for (const constraint of constraints) {
      if (!isCommitTimeConstraint(constraint.definition.type)) continue;
      const target = constraint.definition.entityType === 'NODE' ? this.nodeCommitChecks : this.relCommitChecks;
      addTo(target, constraint.tokenId, constraint);
    }
  }

  /** True when some constraint must be checked at commit. */
  get hasCommitChecks(): boolean {
    return this.nodeCommitChecks.size > 0 || this.relCommitChecks.size > 0;
  }

  indexNamed(name: string): IndexEntry | undefined {
    return this.indexes.find((i) => i.definition.name === name);
  }

  constraintNamed(name: string): ConstraintEntry | undefined {
    return this.constraints.find((c) => c.definition.name === name);
  }

  /** A maintained single-property index usable for seeks; RANGE preferred over TEXT and POINT. */
  seekableIndex(entityType: 'NODE' | 'RELATIONSHIP', tokenId: number, keyId: number): IndexEntry | null {
    const candidates = (entityType === 'NODE' ? this.nodeIndexesByLabel : this.relIndexesByType).get(tokenId);
    if (candidates === undefined) return null;
    let best: IndexEntry | null = null;
    for (const index of candidates) {
      if (index.keyIds.length !== 1 || index.keyIds[0] !== keyId) continue;
      if (index.definition.state !== 'ONLINE') continue;
      if (best === null || rank(index) < rank(best)) best = index;
    }
    return best;
  }

  withIndex(index: IndexEntry): SchemaCatalog {
    return new SchemaCatalog([...this.indexes, index], this.constraints);
  }

  withoutIndex(name: string): SchemaCatalog {
    return new SchemaCatalog(
      this.indexes.filter((i) => i.definition.name !== name),
      this.constraints,
    );
  }

  withConstraint(constraint: ConstraintEntry): SchemaCatalog {
    return new SchemaCatalog(this.indexes, [...this.constraints, constraint]);
  }

  withoutConstraint(name: string): SchemaCatalog {
    return new SchemaCatalog(
      this.indexes,
      this.constraints.filter((c) => c.definition.name !== name),
    );
  }
}

function rank(index: IndexEntry): number {
  switch (index.definition.type) {
    case 'RANGE':
      return index.unique ? 0 : 1;
    case 'TEXT':
      return 2;
    default:
      return 3;
  }
}

/** The two token lookup indexes Neo4j 5 creates by default (implicit here: always present). */
export const LOOKUP_INDEXES: readonly IndexDefinition[] = [
  {
    name: 'index_343aff4e',
    type: 'LOOKUP',
    entityType: 'NODE',
    labelsOrTypes: [],
    properties: [],
    owningConstraint: null,
    options: new Map(),
    state: 'ONLINE',
  },
  {
    name: 'index_f7700477',
    type: 'LOOKUP',
    entityType: 'RELATIONSHIP',
    labelsOrTypes: [],
    properties: [],
    owningConstraint: null,
    options: new Map(),
    state: 'ONLINE',
  },
];
