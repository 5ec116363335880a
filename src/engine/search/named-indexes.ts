/**
 * Named FULLTEXT and VECTOR indexes of one database, kept in line with the catalog's index
 * definitions (`GraphReader.indexes()`), populated by scanning the store when created. Each
 * index's estimated bytes are charged to the process's search-index budget
 * (`dbms.memory.search_index.max_size`, search/index-budget.ts) as it is populated and as it
 * grows; an index that takes the total past it is released and marked failed.
 */
import { ArgumentError, ClientError, StatusCodes } from '../errors/index.js';
import { namedIndexKey, namedIndexOverBudget, namedIndexOverBudgetMessage, type SearchIndexBudget } from './index-budget.js';
import type { GraphReader, IndexDefinition, NodeRecord, RelationshipRecord } from '../storage/graph-store.js';
import { CypherVector, type CypherMap, type CypherValue } from '../values/types.js';
import type { SearchLogger } from './logger.js';
import { FulltextIndex } from './text/fulltext-index.js';
import type { SimilarityFunction } from './vector/similarity.js';
import { exactlyServable } from './vector/exact-candidates.js';
import type { VectorTuning } from './vector/tuning.js';
import { VectorCollection, type VectorHit } from './vector/vector-collection.js';
import { isMap } from '../values/kinds.js';
import { valueText } from '../values/to-string.js';

/** A named VECTOR index: one label, one property holding a list of numbers. */
export interface VectorIndexDefinition {
  readonly name: string;
  readonly label: string;
  readonly property: string;
  readonly dimensions: number;
  readonly similarity: SimilarityFunction;
}

function optionValue(options: CypherMap, key: string): CypherValue | undefined {
  const config = options.get('indexConfig');
  if (config !== undefined && isMap(config) && config.has(key)) return config.get(key);
  return options.get(key);
}

/** Reads Neo4j's `indexConfig` (`vector.dimensions`, `vector.similarity_function`) from index options. */
export function vectorIndexDefinition(definition: IndexDefinition): VectorIndexDefinition {
  const dimensions = Number(optionValue(definition.options, 'vector.dimensions') ?? Number.NaN);
  const similarityText = valueText(optionValue(definition.options, 'vector.similarity_function') ?? 'cosine').toLowerCase();
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 4096) {
    throw new ArgumentError(`Vector index ${definition.name}: 'vector.dimensions' must be an integer between 1 and 4096`);
  }
  if (similarityText !== 'cosine' && similarityText !== 'euclidean') {
    throw new ArgumentError(`Vector index ${definition.name}: 'vector.similarity_function' must be 'cosine' or 'euclidean'`);
  }
  if (definition.labelsOrTypes.length !== 1 || definition.properties.length !== 1) {
    throw new ArgumentError(`Vector index ${definition.name} must cover exactly one label and one property`);
  }
  return {
    name: definition.name,
    label: definition.labelsOrTypes[0]!,
    property: definition.properties[0]!,
    dimensions,
    similarity: similarityText,
  };
}

/** The numeric vector a property holds (a LIST of numbers or a VECTOR), or null when it is not one of the right length. */
function vectorValue(value: CypherValue | undefined, dimensions: number): number[] | null {
  if (value instanceof CypherVector) return value.dimension === dimensions ? value.toNumbers() : null;
  if (!Array.isArray(value) || value.length !== dimensions) return null;
  const out = value.map((x) => (typeof x === 'number' ? x : typeof x === 'bigint' ? Number(x) : Number.NaN));
  return out.every(Number.isFinite) ? out : null;
}

/** A VECTOR index with its collection. */
export class VectorIndex {
  /**
   * Nodes with the label whose property is set but that the exact-kNN plan cannot serve from the
   * collection: not a vector of the index's dimension with finite components (the Cypher function
   * answers null or an error for them), or outside `exactlyServable` bounds.
   */
  private readonly unservable = new Set<bigint>();
  /**
   * The committed version the index was populated from, and whether commits published before the
   * index existed may be missing from it (then it never serves the exact-kNN plan). Set by
   * `DatabaseSearch` when the index is created.
   */
  populatedAt: bigint | null = null;
  missedCommits = false;

  constructor(
    readonly definition: VectorIndexDefinition,
    readonly collection: VectorCollection,
  ) {}

  applyNode(node: NodeRecord): void {
    const labelled = node.labels.includes(this.definition.label);
    const value = labelled ? node.properties.get(this.definition.property) : undefined;
    const vector = vectorValue(value, this.definition.dimensions);
    if (vector === null) this.collection.remove(node.id);
    else this.collection.upsert(node.id, vector);
    const servable = vector === null ? value === undefined || value === null : exactlyServable(vector, this.definition.similarity);
    if (servable) this.unservable.delete(node.id);
    else this.unservable.add(node.id);
  }

  removeNode(nodeId: bigint): void {
    this.collection.remove(nodeId);
    this.unservable.delete(nodeId);
  }

  /** Estimated bytes: the collection and about 40 B per unservable node. */
  estimatedBytes(): number {
    return this.collection.estimatedBytes() + this.unservable.size * 40;
  }

  /** Nodes with the label and the property set that the exact-kNN plan cannot serve. */
  get unservableCount(): number {
    return this.unservable.size;
  }

  /** `db.index.vector.queryNodes(name, k, vector)`: scores in 0..1, best first. */
  query(k: number, vector: readonly number[]): VectorHit[] {
    if (vector.length !== this.definition.dimensions) {
      throw new ArgumentError(
        `Index query vector has ${vector.length} dimensions, but indexed vectors have ${this.definition.dimensions}.`,
      );
    }
    if (!Number.isInteger(k) || k < 1) throw new ArgumentError(`Invalid number of nearest neighbours: ${k}`);
    return this.collection.search(vector, k);
  }
}

/**
 * A relationship as the indexes see it: its type in place of the labels (an index covers
 * relationship types the way a node index covers labels).
 */
function relationshipAsEntry(relationship: RelationshipRecord): NodeRecord {
  return { id: relationship.id, labels: [relationship.type], properties: relationship.properties };
}

/** The process's search-index budget and the database whose indexes are charged to it. */
export interface NamedIndexBudget {
  readonly budget: SearchIndexBudget;
  readonly database: string;
}

/** Thrown out of a population that went over budget. */
class PopulationOverBudget extends Error {}

/** Named indexes of one database. */
export class NamedIndexes {
  readonly fulltext = new Map<string, FulltextIndex>();
  readonly vector = new Map<string, VectorIndex>();
  /** Names of the indexes over relationships (the others are over nodes). */
  readonly relationshipIndexes = new Set<string>();
  /**
   * Indexes released over budget, with why (`SHOW INDEXES` state FAILED, its `failureMessage`);
   * they stay released while the catalog has them (until the index is dropped or the process restarts).
   */
  readonly failed = new Map<string, string>();

  constructor(
    private readonly tuning: VectorTuning,
    private readonly logger: SearchLogger,
    private readonly textEngine: 'v1' | 'v2' = 'v2',
    private readonly budget?: NamedIndexBudget,
  ) {}

  /** The entity type a named index covers, released ones included (null when there is no such index). */
  entityOf(name: string): 'NODE' | 'RELATIONSHIP' | null {
    if (!this.fulltext.has(name) && !this.vector.has(name) && !this.failed.has(name)) return null;
    return this.relationshipIndexes.has(name) ? 'RELATIONSHIP' : 'NODE';
  }

  /** Throws the budget error when the index `name` was released over budget. */
  assertKept(name: string): void {
    const failure = this.failed.get(name);
    if (failure !== undefined) throw namedIndexOverBudget(failure);
  }

  /** The FULLTEXT index `name` over `entity` (released: the budget error; none: ProcedureCallFailed). */
  fulltextIndex(name: string, entity: 'NODE' | 'RELATIONSHIP'): FulltextIndex {
    return this.keptIndex(this.fulltext.get(name), name, entity, 'fulltext');
  }

  /** The VECTOR index `name` over `entity` (released: the budget error; none: ProcedureCallFailed). */
  vectorIndex(name: string, entity: 'NODE' | 'RELATIONSHIP'): VectorIndex {
    return this.keptIndex(this.vector.get(name), name, entity, 'vector');
  }

  private keptIndex<T>(index: T | undefined, name: string, entity: 'NODE' | 'RELATIONSHIP', kind: 'fulltext' | 'vector'): T {
    if (this.entityOf(name) === entity) this.assertKept(name);
    if (index === undefined || this.entityOf(name) !== entity) {
      throw new ClientError(StatusCodes.ProcedureCallFailed, `There is no such ${kind} schema index: ${name}`);
    }
    return index;
  }

  /** Forgets the index `name` (dropped or redefined in the catalog), released or not. */
  drop(name: string): void {
    this.vector.get(name)?.collection.close();
    this.vector.delete(name);
    this.fulltext.delete(name);
    this.failed.delete(name);
    this.relationshipIndexes.delete(name);
    if (this.budget !== undefined) this.budget.budget.forget(namedIndexKey(this.budget.database, name));
  }

  /** Charges the index's estimate to the budget; false (and the index released) past it. */
  private charge(name: string, index: FulltextIndex | VectorIndex): boolean {
    const budget = this.budget;
    if (budget === undefined) return true;
    const key = namedIndexKey(budget.database, name);
    if (budget.budget.update(key, index.estimatedBytes())) return true;
    this.release(name);
    return false;
  }

  private release(name: string): void {
    const budget = this.budget!;
    const relationships = this.relationshipIndexes.has(name);
    this.drop(name);
    if (relationships) this.relationshipIndexes.add(name);
    const message = namedIndexOverBudgetMessage(name, budget.budget.maxBytes);
    this.failed.set(name, message);
    this.logger.warn(`search index ${name} of ${budget.database} released: ${message}`);
  }

  /** Applies an entry to each index, charging it; indexes that go over budget are released. */
  private applyEach(indexes: Iterable<[string, FulltextIndex | VectorIndex]>, entry: NodeRecord): void {
    for (const [name, index] of [...indexes]) {
      index.applyNode(entry);
      this.charge(name, index);
    }
  }

  private *indexesOf(relationships: boolean): Iterable<[string, FulltextIndex | VectorIndex]> {
    for (const [name, index] of this.fulltext) if (this.relationshipIndexes.has(name) === relationships) yield [name, index];
    for (const [name, index] of this.vector) if (this.relationshipIndexes.has(name) === relationships) yield [name, index];
  }

  /** Applies a committed node state to every named node index. */
  applyNode(node: NodeRecord): void {
    if (this.fulltext.size + this.vector.size === 0) return;
    this.applyEach(this.indexesOf(false), node);
  }

  removeNode(nodeId: bigint): void {
    for (const [name, index] of this.indexesOf(false)) {
      index.removeNode(nodeId);
      this.charge(name, index);
    }
  }

  /** Applies a committed relationship state to every named relationship index. */
  applyRelationship(relationship: RelationshipRecord): void {
    if (this.relationshipIndexes.size === 0) return;
    this.applyEach(this.indexesOf(true), relationshipAsEntry(relationship));
  }

  removeRelationship(relationshipId: bigint): void {
    for (const [name, index] of this.indexesOf(true)) {
      index.removeNode(relationshipId);
      this.charge(name, index);
    }
  }

  /**
   * Creates indexes the catalog has and we lack (populating them from `reader`), drops the ones
   * the catalog no longer has. Returns the names created.
   */
  sync(reader: GraphReader): string[] {
    const definitions = reader.indexes().filter((d) => d.type === 'FULLTEXT' || d.type === 'VECTOR');
    const wanted = new Set(definitions.map((d) => d.name));
    for (const name of [...this.fulltext.keys(), ...this.vector.keys(), ...this.failed.keys(), ...this.relationshipIndexes]) {
      if (!wanted.has(name)) this.drop(name);
    }
    const created: string[] = [];
    for (const definition of definitions) {
      if (this.fulltext.has(definition.name) || this.vector.has(definition.name) || this.failed.has(definition.name)) continue;
      const relationships = definition.entityType === 'RELATIONSHIP';
      if (relationships) this.relationshipIndexes.add(definition.name);
      else this.relationshipIndexes.delete(definition.name);
      const fill = (index: FulltextIndex | VectorIndex, tokens: readonly string[]): void => {
        const apply = (entry: NodeRecord): void => {
          index.applyNode(entry);
          if (!this.charge(definition.name, index)) throw new PopulationOverBudget();
        };
        if (relationships) populateRelationships(reader, tokens, apply);
        else populate(reader, tokens, apply);
        if (!this.charge(definition.name, index)) throw new PopulationOverBudget();
      };
      try {
        if (definition.type === 'FULLTEXT') {
          const index = new FulltextIndex(
            { name: definition.name, labels: definition.labelsOrTypes, properties: definition.properties },
            this.textEngine,
          );
          this.fulltext.set(definition.name, index);
          fill(index, definition.labelsOrTypes);
        } else {
          const vectorDefinition = vectorIndexDefinition(definition);
          const collection = new VectorCollection({
            dimensions: vectorDefinition.dimensions,
            similarity: vectorDefinition.similarity,
            tuning: this.tuning,
            logger: this.logger,
          });
          const index = new VectorIndex(vectorDefinition, collection);
          this.vector.set(definition.name, index);
          fill(index, [vectorDefinition.label]);
        }
        created.push(definition.name);
      } catch (error) {
        if (error instanceof PopulationOverBudget) continue;
        this.logger.warn(`search index ${definition.name} not built: ${String(error)}`);
      }
    }
    return created;
  }

  /** Closes every index and gives its bytes back to the budget. */
  close(): void {
    for (const name of [...this.fulltext.keys(), ...this.vector.keys(), ...this.failed.keys()]) this.drop(name);
  }
}

function populate(reader: GraphReader, labels: readonly string[], apply: (node: NodeRecord) => void): void {
  const seen = new Set<bigint>();
  for (const label of labels) {
    for (const id of reader.nodeIdsByLabel(label)) {
      if (seen.has(id)) continue;
      seen.add(id);
      const node = reader.getNode(id);
      if (node !== null) apply(node);
    }
  }
}

function populateRelationships(reader: GraphReader, types: readonly string[], apply: (entry: NodeRecord) => void): void {
  for (const handle of reader.allRelationships(types)) {
    const relationship = reader.getRelationship(handle.id);
    if (relationship !== null) apply(relationshipAsEntry(relationship));
  }
}
