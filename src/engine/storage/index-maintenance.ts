/**
 * Keeping `index_entries` in step with writes, and enforcing uniqueness through unique indexes.
 */
import type { IndexEntry } from '../catalog/schema-catalog.js';
import type { CypherValue } from '../values/types.js';
import { CypherPoint } from '../values/types.js';
import { compositeKey } from './codec/index-key.js';
import type { Connection } from './sqlite/connection.js';
import { uniquenessViolation } from './constraint-messages.js';

const INSERT_ENTRY = 'INSERT OR IGNORE INTO index_entries (index_id, key, entity) VALUES (?, ?, ?)';
const DELETE_ENTRY = 'DELETE FROM index_entries WHERE index_id = ? AND key = ? AND entity = ?';
const CONFLICT = 'SELECT entity FROM index_entries WHERE index_id = ? AND key = ? AND entity <> ? LIMIT 1';

/** The values an index takes from a property record, or null when the entity is not indexed. */
export function indexedValues(index: IndexEntry, props: ReadonlyMap<number, CypherValue>): CypherValue[] | null {
  const values: CypherValue[] = [];
  for (const keyId of index.keyIds) {
    const value = props.get(keyId);
    if (value === undefined || value === null) return null;
    values.push(value);
  }
  if (index.definition.type === 'TEXT' && typeof values[0] !== 'string') return null;
  if (index.definition.type === 'POINT' && !(values[0] instanceof CypherPoint)) return null;
  return values;
}

/** The entry key of an entity for an index, or null when it has no entry. */
export function entryKey(index: IndexEntry, props: ReadonlyMap<number, CypherValue>): Buffer | null {
  const values = indexedValues(index, props);
  return values === null ? null : compositeKey(values);
}

/**
 * Fails with ConstraintValidationFailed when `index` is unique and another entity already has
 * the key `props` would give. Call it for every affected index before writing anything, so a
 * violation leaves the transaction untouched.
 */
export function assertUnique(connection: Connection, index: IndexEntry, entity: bigint, props: ReadonlyMap<number, CypherValue>): void {
  if (!index.unique) return;
  const values = indexedValues(index, props);
  if (values === null) return;
  const existing = connection.pluck(CONFLICT).get(index.id, compositeKey(values)!, entity) as bigint | undefined;
  if (existing !== undefined) {
    throw uniquenessViolation(
      index.definition.entityType,
      existing,
      index.definition.labelsOrTypes[0]!,
      index.definition.properties,
      values,
    );
  }
}

/** Adds the entry of an entity (uniqueness is checked beforehand with `assertUnique`). */
export function addEntry(connection: Connection, index: IndexEntry, entity: bigint, props: ReadonlyMap<number, CypherValue>): void {
  const key = entryKey(index, props);
  if (key !== null) connection.stmt(INSERT_ENTRY).run(index.id, key, entity);
}

/** Removes the entry of an entity (given the properties it was indexed with). */
export function removeEntry(connection: Connection, index: IndexEntry, entity: bigint, props: ReadonlyMap<number, CypherValue>): void {
  const key = entryKey(index, props);
  if (key !== null) connection.stmt(DELETE_ENTRY).run(index.id, key, entity);
}

/** Moves an entity's entry from its old to its new properties (no-op when the key is unchanged; uniqueness checked beforehand). */
export function updateEntry(
  connection: Connection,
  index: IndexEntry,
  entity: bigint,
  oldProps: ReadonlyMap<number, CypherValue>,
  newProps: ReadonlyMap<number, CypherValue>,
): void {
  const oldKey = entryKey(index, oldProps);
  const newKey = entryKey(index, newProps);
  if (oldKey !== null && newKey !== null && oldKey.equals(newKey)) return;
  if (oldKey !== null) connection.stmt(DELETE_ENTRY).run(index.id, oldKey, entity);
  if (newKey !== null) connection.stmt(INSERT_ENTRY).run(index.id, newKey, entity);
}
