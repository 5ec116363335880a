/**
 * The reads shared by the head reader (current state) and the history reader (a past version):
 * node lookups over whichever row source the subclass reads, plus property keys, indexes,
 * constraints and element ids, which come from the same catalog at every version.
 */
import type { Connection } from './sqlite/connection.js';
import type { StoreContext } from './store-context.js';
import type { ConstraintDefinition, IndexDefinition } from './graph-store.js';
import { LOOKUP_INDEXES, type SchemaCatalog } from '../catalog/schema-catalog.js';
import { nodeElementId, parseElementId, relationshipElementId } from './element-id.js';
import { findInRecord } from './codec/value-codec.js';
import type { CypherValue } from '../values/types.js';

/** Base class of the readers: node lookups over a row source, catalog, dictionary and element-id reads. */
export abstract class CatalogReads {
  constructor(
    protected connection: Connection,
    protected readonly context: StoreContext,
    protected catalog: SchemaCatalog,
  ) {}

  /** The node row visible to this reader ([label set, property record]), or undefined. */
  protected abstract readNodeRow(id: bigint): [string, Buffer | null] | undefined;

  nodeExists(id: bigint): boolean {
    return this.readNodeRow(id) !== undefined;
  }

  nodeLabels(id: bigint): readonly string[] | null {
    const row = this.readNodeRow(id);
    return row === undefined ? null : this.context.labelSets.names(row[0]);
  }

  /** The property value; null when the node lacks it; undefined when the node does not exist. */
  nodeProperty(id: bigint, key: string): CypherValue | undefined {
    const row = this.readNodeRow(id);
    if (row === undefined) return undefined;
    const keyId = this.context.tokens.keys.idOf(key);
    return keyId === undefined ? null : (findInRecord(row[1], keyId) ?? null);
  }

  propertyKeys(): readonly string[] {
    return this.connection.pluck('SELECT name FROM key_tokens ORDER BY id').all() as string[];
  }

  indexes(): readonly IndexDefinition[] {
    return [...LOOKUP_INDEXES, ...this.catalog.indexes.map((i) => i.definition)];
  }

  constraints(): readonly ConstraintDefinition[] {
    return this.catalog.constraints.map((c) => c.definition);
  }

  findIndex(entityType: 'NODE' | 'RELATIONSHIP', labelOrType: string, property: string): IndexDefinition | null {
    const dictionary = entityType === 'NODE' ? this.context.tokens.labels : this.context.tokens.types;
    const tokenId = dictionary.idOf(labelOrType);
    const keyId = this.context.tokens.keys.idOf(property);
    if (tokenId === undefined || keyId === undefined) return null;
    return this.catalog.seekableIndex(entityType, tokenId, keyId)?.definition ?? null;
  }

  nodeElementId(id: bigint): string {
    return nodeElementId(this.context.uuid, id);
  }

  relationshipElementId(id: bigint): string {
    return relationshipElementId(this.context.uuid, id);
  }

  idFromElementId(elementId: string): bigint | null {
    return parseElementId(elementId, this.context.uuid);
  }
}
