/**
 * Reads and writes schema catalog rows (`schema_indexes`, `schema_constraints`).
 */
import { invariant } from '../errors/index.js';
import type { ConstraintDefinition, IndexDefinition, IndexType } from '../storage/graph-store.js';
import type { Connection } from '../storage/sqlite/connection.js';
import { decodeStandalone, encodeStandalone } from '../storage/codec/value-codec.js';
import type { CypherMap } from '../values/types.js';
import { MAINTAINED_INDEX_TYPES, SchemaCatalog, type ConstraintEntry, type IndexEntry } from './schema-catalog.js';
import type { Tokens } from './tokens.js';

type IndexRow = [bigint, string, string, string, string, string, string | null, Buffer | null];
type ConstraintRow = [string, string, string, string, string, string | null];

/** Resolves an index definition's token ids (creating tokens through `writer` when given). */
export function resolveIndex(id: number, definition: IndexDefinition, tokens: Tokens, writer?: Connection): IndexEntry {
  const dictionary = definition.entityType === 'NODE' ? tokens.labels : tokens.types;
  const resolve = (d: typeof dictionary, name: string): number => {
    const existing = d.idOf(name);
    if (existing !== undefined) return existing;
    invariant(writer !== undefined, `the catalog refers to unknown token ${name}`);
    return d.getOrCreate(name, writer);
  };
  return {
    id,
    definition,
    tokenIds: definition.labelsOrTypes.map((n) => resolve(dictionary, n)),
    keyIds: definition.properties.map((n) => resolve(tokens.keys, n)),
    maintained: MAINTAINED_INDEX_TYPES.has(definition.type),
    unique: definition.owningConstraint !== null,
  };
}

/** Loads the committed catalog through `connection`. */
export function loadCatalog(connection: Connection, tokens: Tokens): SchemaCatalog {
  const indexRows = connection
    .raw('SELECT id, name, type, entity_type, labels_or_types, properties, owning_constraint, options FROM schema_indexes ORDER BY id')
    .all() as IndexRow[];
  const indexes = indexRows.map(([id, name, type, entityType, labels, properties, owner, options]) =>
    resolveIndex(
      Number(id),
      {
        name,
        type: type as IndexType,
        entityType: entityType as IndexDefinition['entityType'],
        labelsOrTypes: JSON.parse(labels) as string[],
        properties: JSON.parse(properties) as string[],
        owningConstraint: owner,
        options: options === null ? new Map() : (decodeStandalone(options) as CypherMap),
        state: 'ONLINE',
      },
      tokens,
    ),
  );
  const constraintRows = connection
    .raw('SELECT name, type, entity_type, labels_or_types, properties, property_type FROM schema_constraints ORDER BY rowid')
    .all() as ConstraintRow[];
  const constraints = constraintRows.map(([name, type, entityType, labels, properties, propertyType]) =>
    resolveConstraint(
      {
        name,
        type: type as ConstraintDefinition['type'],
        entityType: entityType as ConstraintDefinition['entityType'],
        labelsOrTypes: JSON.parse(labels) as string[],
        properties: JSON.parse(properties) as string[],
        propertyType,
      },
      tokens,
      indexes,
    ),
  );
  return new SchemaCatalog(indexes, constraints);
}

/** Resolves a constraint's tokens and backing index. */
export function resolveConstraint(
  definition: ConstraintDefinition,
  tokens: Tokens,
  indexes: readonly IndexEntry[],
  writer?: Connection,
): ConstraintEntry {
  const dictionary = definition.entityType === 'NODE' ? tokens.labels : tokens.types;
  const token = definition.labelsOrTypes[0]!;
  const tokenId = dictionary.idOf(token) ?? (writer ? dictionary.getOrCreate(token, writer) : undefined);
  invariant(tokenId !== undefined, `the catalog refers to unknown token ${token}`);
  const keyIds = definition.properties.map((p) => {
    const id = tokens.keys.idOf(p) ?? (writer ? tokens.keys.getOrCreate(p, writer) : undefined);
    invariant(id !== undefined, `the catalog refers to unknown property key ${p}`);
    return id;
  });
  const index = indexes.find((i) => i.definition.owningConstraint === definition.name) ?? null;
  return { definition, tokenId, keyIds, index };
}

/** Inserts an index row; returns its id. */
export function insertIndexRow(writer: Connection, definition: IndexDefinition): number {
  const info = writer
    .stmt(
      'INSERT INTO schema_indexes (name, type, entity_type, labels_or_types, properties, owning_constraint, options) VALUES (?, ?, ?, ?, ?, ?, ?)',
    )
    .run(
      definition.name,
      definition.type,
      definition.entityType,
      JSON.stringify(definition.labelsOrTypes),
      JSON.stringify(definition.properties),
      definition.owningConstraint,
      definition.options.size === 0 ? null : encodeStandalone(definition.options),
    );
  return Number(info.lastInsertRowid);
}

/** Inserts a constraint row. */
export function insertConstraintRow(writer: Connection, definition: ConstraintDefinition): void {
  writer
    .stmt('INSERT INTO schema_constraints (name, type, entity_type, labels_or_types, properties, property_type) VALUES (?, ?, ?, ?, ?, ?)')
    .run(
      definition.name,
      definition.type,
      definition.entityType,
      JSON.stringify(definition.labelsOrTypes),
      JSON.stringify(definition.properties),
      definition.propertyType,
    );
}
