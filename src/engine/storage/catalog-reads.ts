/**
 * The schema and identity half of a GraphReader, shared by the head reader (current state) and
 * the history reader (a past version): property keys, indexes, constraints and element ids come
 * from the same catalog and dictionaries whichever version the data is read at.
 */
import type { Connection } from './sqlite/connection.js';
import type { StoreContext } from './store-context.js';
import type { ConstraintDefinition, IndexDefinition } from './graph-store.js';
import { LOOKUP_INDEXES, type SchemaCatalog } from '../catalog/schema-catalog.js';
import { parseElementId } from './element-id.js';

/** Base class of the readers: catalog, dictionary and element-id reads. */
export abstract class CatalogReads {
  constructor(
    protected connection: Connection,
    protected readonly context: StoreContext,
    protected catalog: SchemaCatalog,
  ) {}

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
    return `4:${this.context.uuid}:${id}`;
  }

  relationshipElementId(id: bigint): string {
    return `5:${this.context.uuid}:${id}`;
  }

  idFromElementId(elementId: string): bigint | null {
    return parseElementId(elementId, this.context.uuid);
  }
}
