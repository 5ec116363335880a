/**
 * Schema commands inside a write transaction: create/drop index and constraint, with
 * population of new indexes and validation of existing data against new constraints.
 */
import { StatusCodes } from '../errors/index.js';
import type { CypherValue } from '../values/types.js';
import type { ConstraintDefinition, IndexDefinition } from './graph-store.js';
import type { IndexEntry } from '../catalog/schema-catalog.js';
import { insertConstraintRow, insertIndexRow, resolveConstraint, resolveIndex } from '../catalog/catalog-loader.js';
import { normalizePropertyType } from '../catalog/property-type.js';
import { decodeRecordById } from './codec/value-codec.js';
import { compositeKey } from './codec/index-key.js';
import { indexedValues } from './index-maintenance.js';
import { constraintCreationFailed, formatValue, schemaError, schemaPattern } from './constraint-messages.js';
import { violation } from './commit-checks.js';
import type { WriteTransaction } from './write-transaction.js';

type IndexSpec = Omit<IndexDefinition, 'state' | 'owningConstraint'>;

/** Neo4j-like generated names: `index_1a2b3c4d`, `constraint_1a2b3c4d`. */
function generatedName(prefix: string, description: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < description.length; i++) {
    hash ^= description.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `${prefix}_${hash.toString(16).padStart(8, '0')}`;
}

function sameSchema(
  a: Pick<IndexDefinition, 'entityType' | 'labelsOrTypes' | 'properties'>,
  b: Pick<IndexDefinition, 'entityType' | 'labelsOrTypes' | 'properties'>,
): boolean {
  return (
    a.entityType === b.entityType &&
    a.labelsOrTypes.join('\u0000') === b.labelsOrTypes.join('\u0000') &&
    a.properties.join('\u0000') === b.properties.join('\u0000')
  );
}

function describeIndex(d: IndexDefinition): string {
  return `Index( name='${d.name}', type='${d.type}', schema=${schemaPattern(d)} )`;
}

function describeConstraint(d: ConstraintDefinition): string {
  return `Constraint( name='${d.name}', type='${d.type}', schema=${schemaPattern(d)} )`;
}

/** Rows (id, props) of every entity an index or constraint covers. */
function coveredEntities(tx: WriteTransaction, entityType: 'NODE' | 'RELATIONSHIP', tokenId: number): [bigint, Buffer | null][] {
  const sql =
    entityType === 'NODE'
      ? 'SELECT n.id, n.props FROM node_labels l JOIN nodes n ON n.id = l.node WHERE l.label = ? ORDER BY n.id'
      : 'SELECT id, props FROM rels WHERE type = ? ORDER BY id';
  return tx.db.raw(sql).all(tokenId) as [bigint, Buffer | null][];
}

/** Entities read per statement while populating an index. */
const POPULATE_PAGE = 256;
const NODE_PAGE = `SELECT n.id, n.props FROM node_labels l JOIN nodes n ON n.id = l.node WHERE l.label = ? AND l.node > ? ORDER BY l.node LIMIT ${POPULATE_PAGE}`;
const REL_PAGE = `SELECT id, props FROM rels WHERE type = ? AND id > ? ORDER BY id LIMIT ${POPULATE_PAGE}`;

/** Rows (id, props) of every entity an index covers, read a page at a time in id order. */
function* coveredEntityPages(
  tx: WriteTransaction,
  entityType: 'NODE' | 'RELATIONSHIP',
  tokenId: number,
): Generator<[bigint, Buffer | null]> {
  const page = tx.db.raw(entityType === 'NODE' ? NODE_PAGE : REL_PAGE);
  let after = -(2n ** 63n);
  for (;;) {
    const rows = page.all(tokenId, after) as [bigint, Buffer | null][];
    yield* rows;
    if (rows.length < POPULATE_PAGE) return;
    after = rows[rows.length - 1]![0];
  }
}

type Duplicate = { first: bigint; second: bigint; values: CypherValue[] };

/**
 * Fills a new index from existing data, yielding after each entity so a caller can hand the event
 * loop back between slices; for unique indexes returns the first duplicate pair.
 */
function* populate(tx: WriteTransaction, index: IndexEntry): Generator<void, Duplicate | null> {
  if (!index.maintained) return null;
  const insert = tx.db.stmt('INSERT OR IGNORE INTO index_entries (index_id, key, entity) VALUES (?, ?, ?)');
  const conflict = tx.db.pluck('SELECT entity FROM index_entries WHERE index_id = ? AND key = ? AND entity <> ? LIMIT 1');
  for (const tokenId of index.tokenIds) {
    for (const [id, props] of coveredEntityPages(tx, index.definition.entityType, tokenId)) {
      yield;
      const values = indexedValues(index, decodeRecordById(props));
      if (values === null) continue;
      const key = compositeKey(values)!;
      if (index.unique) {
        const other = conflict.get(index.id, key, id) as bigint | undefined;
        if (other !== undefined) return { first: other, second: id, values };
      }
      insert.run(index.id, key, id);
    }
  }
  return null;
}

/** Runs a step generator to its end and returns its result. */
export function runSteps<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

function validateIndexSpec(spec: IndexSpec): void {
  if (spec.type === 'LOOKUP') return;
  if (spec.labelsOrTypes.length === 0 || spec.properties.length === 0) {
    throw schemaError(StatusCodes.SyntaxError, `An index of type ${spec.type} needs a label or type and at least one property.`);
  }
  if ((spec.type === 'TEXT' || spec.type === 'POINT') && spec.properties.length !== 1) {
    throw schemaError(StatusCodes.SyntaxError, `Only single property ${spec.type} indexes are supported.`);
  }
}

/**
 * CREATE INDEX, as steps: population yields after each entity (see `populate`). Returns false
 * when IF NOT EXISTS found an existing equivalent or same-named index.
 */
export function* createIndex(tx: WriteTransaction, spec: IndexSpec, ifNotExists: boolean): Generator<void, boolean> {
  validateIndexSpec(spec);
  const catalog = tx.schema;
  if (spec.type === 'LOOKUP') {
    if (ifNotExists) return false;
    throw schemaError(
      StatusCodes.ConstraintAlreadyExists,
      `An equivalent index already exists: the ${spec.entityType} token lookup index.`,
    );
  }
  const name = spec.name !== '' ? spec.name : generatedName('index', `${spec.type}${schemaPattern(spec)}`);
  const definition: IndexDefinition = { ...spec, name, owningConstraint: null, state: 'ONLINE' };
  const named = catalog.indexNamed(name);
  if (named !== undefined) {
    if (ifNotExists) return false;
    if (named.definition.type === spec.type && sameSchema(named.definition, spec)) {
      throw schemaError(StatusCodes.ConstraintAlreadyExists, `An equivalent index already exists, '${describeIndex(named.definition)}'.`);
    }
    throw schemaError(StatusCodes.IndexWithNameAlreadyExists, `There already exists an index called '${name}'.`);
  }
  if (catalog.constraintNamed(name) !== undefined) {
    if (ifNotExists) return false;
    throw schemaError(StatusCodes.ConstraintWithNameAlreadyExists, `There already exists a constraint called '${name}'.`);
  }
  const equivalent = catalog.indexes.find((i) => i.definition.type === spec.type && sameSchema(i.definition, spec));
  if (equivalent !== undefined) {
    if (ifNotExists) return false;
    if (equivalent.definition.owningConstraint !== null) {
      throw schemaError(
        StatusCodes.IndexAlreadyExists,
        `There is a uniqueness constraint on ${schemaPattern(spec)}, so an index is already created that matches this.`,
      );
    }
    throw schemaError(
      StatusCodes.ConstraintAlreadyExists,
      `An equivalent index already exists, '${describeIndex(equivalent.definition)}'.`,
    );
  }
  const id = insertIndexRow(tx.db, definition);
  const entry = resolveIndex(id, definition, tx.ctx.tokens, tx.db);
  yield* populate(tx, entry);
  tx.setSchema(catalog.withIndex(entry));
  tx.state.counters.indexesAdded++;
  return true;
}

/** DROP INDEX. */
export function dropIndex(tx: WriteTransaction, name: string, ifExists: boolean): boolean {
  const entry = tx.schema.indexNamed(name);
  if (entry === undefined) {
    if (ifExists) return false;
    throw schemaError(StatusCodes.IndexDropFailed, `Unable to drop index called \`${name}\`. There is no such index.`);
  }
  if (entry.definition.owningConstraint !== null) {
    throw schemaError(
      StatusCodes.IndexDropFailed,
      `Unable to drop index: Index belongs to constraint: \`${entry.definition.owningConstraint}\``,
    );
  }
  removeIndexRows(tx, entry);
  tx.setSchema(tx.schema.withoutIndex(name));
  tx.state.counters.indexesRemoved++;
  return true;
}

function removeIndexRows(tx: WriteTransaction, entry: IndexEntry): void {
  tx.db.stmt('DELETE FROM schema_indexes WHERE id = ?').run(entry.id);
  tx.db.stmt('DELETE FROM index_entries WHERE index_id = ?').run(entry.id);
}

function needsBackingIndex(type: ConstraintDefinition['type']): boolean {
  return type === 'UNIQUENESS' || type === 'NODE_KEY' || type === 'RELATIONSHIP_UNIQUENESS' || type === 'RELATIONSHIP_KEY';
}

function checkConstraintName(tx: WriteTransaction, definition: ConstraintDefinition, ifNotExists: boolean): boolean {
  const catalog = tx.schema;
  const named = catalog.constraintNamed(definition.name);
  if (named !== undefined) {
    if (ifNotExists) return false;
    if (named.definition.type === definition.type && sameSchema(named.definition, definition)) {
      throw schemaError(
        StatusCodes.ConstraintAlreadyExists,
        `An equivalent constraint already exists, '${describeConstraint(named.definition)}'.`,
      );
    }
    throw schemaError(StatusCodes.ConstraintWithNameAlreadyExists, `There already exists a constraint called '${definition.name}'.`);
  }
  if (catalog.indexNamed(definition.name) !== undefined) {
    if (ifNotExists) return false;
    throw schemaError(StatusCodes.IndexWithNameAlreadyExists, `There already exists an index called '${definition.name}'.`);
  }
  const equivalent = catalog.constraints.find(
    (c) =>
      c.definition.type === definition.type &&
      sameSchema(c.definition, definition) &&
      c.definition.propertyType === definition.propertyType,
  );
  if (equivalent !== undefined) {
    if (ifNotExists) return false;
    throw schemaError(
      StatusCodes.ConstraintAlreadyExists,
      `An equivalent constraint already exists, '${describeConstraint(equivalent.definition)}'.`,
    );
  }
  return true;
}

/** CREATE CONSTRAINT: validates existing data, then records it (with a backing index if unique). */
export function createConstraint(tx: WriteTransaction, input: ConstraintDefinition, ifNotExists: boolean): boolean {
  if (input.labelsOrTypes.length !== 1 || input.properties.length === 0) {
    throw schemaError(StatusCodes.SyntaxError, 'A constraint needs exactly one label or type and at least one property.');
  }
  const propertyType = input.propertyType === null ? null : normalizePropertyType(input.propertyType);
  const name = input.name !== '' ? input.name : generatedName('constraint', `${input.type}${schemaPattern(input)}`);
  const definition: ConstraintDefinition = { ...input, name, propertyType };
  if (!checkConstraintName(tx, definition, ifNotExists)) return false;
  let catalog = tx.schema;
  if (needsBackingIndex(definition.type)) {
    const clash = catalog.indexes.find((i) => i.definition.type === 'RANGE' && sameSchema(i.definition, definition));
    if (clash !== undefined) {
      if (ifNotExists) return false;
      throw schemaError(
        StatusCodes.IndexAlreadyExists,
        `There already exists an index ${schemaPattern(definition)}. A constraint cannot be created until the index has been dropped.`,
      );
    }
    const indexDefinition: IndexDefinition = {
      name,
      type: 'RANGE',
      entityType: definition.entityType,
      labelsOrTypes: definition.labelsOrTypes,
      properties: definition.properties,
      owningConstraint: name,
      options: new Map(),
      state: 'ONLINE',
    };
    const id = insertIndexRow(tx.db, indexDefinition);
    const index = resolveIndex(id, indexDefinition, tx.ctx.tokens, tx.db);
    const duplicate = runSteps(populate(tx, index));
    if (duplicate !== null) {
      const entity = definition.entityType === 'NODE' ? 'Node' : 'Relationship';
      const token = definition.entityType === 'NODE' ? 'label' : 'type';
      const props =
        definition.properties.length === 1
          ? `property \`${definition.properties[0]}\` = ${formatValue(duplicate.values[0]!)}`
          : `properties ${definition.properties.map((p, i) => `\`${p}\` = ${formatValue(duplicate.values[i]!)}`).join(', ')}`;
      throw constraintCreationFailed(
        definition,
        `Both ${entity}(${duplicate.first}) and ${entity}(${duplicate.second}) have the ${token} \`${definition.labelsOrTypes[0]}\` and ${props}`,
      );
    }
    catalog = catalog.withIndex(index);
  }
  const entry = resolveConstraint(definition, tx.ctx.tokens, catalog.indexes, tx.db);
  if (definition.type !== 'UNIQUENESS' && definition.type !== 'RELATIONSHIP_UNIQUENESS') {
    for (const [id, props] of coveredEntities(tx, definition.entityType, entry.tokenId)) {
      const message = violation(entry, id, decodeRecordById(props));
      if (message !== null) throw constraintCreationFailed(definition, message);
    }
  }
  insertConstraintRow(tx.db, definition);
  tx.setSchema(catalog.withConstraint(entry));
  tx.state.counters.constraintsAdded++;
  return true;
}

/** DROP CONSTRAINT (and its backing index). */
export function dropConstraint(tx: WriteTransaction, name: string, ifExists: boolean): boolean {
  const entry = tx.schema.constraintNamed(name);
  if (entry === undefined) {
    if (ifExists) return false;
    throw schemaError(StatusCodes.ConstraintDropFailed, `Unable to drop constraint \`${name}\`: No such constraint ${name}.`);
  }
  tx.db.stmt('DELETE FROM schema_constraints WHERE name = ?').run(name);
  let catalog = tx.schema.withoutConstraint(name);
  if (entry.index !== null) {
    removeIndexRows(tx, entry.index);
    catalog = catalog.withoutIndex(entry.index.definition.name);
  }
  tx.setSchema(catalog);
  tx.state.counters.constraintsRemoved++;
  return true;
}
