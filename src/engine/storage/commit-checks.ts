/**
 * Constraints Neo4j validates when a transaction commits: non-detach deletes of connected
 * nodes, property existence (including the existence half of key constraints) and property types.
 */
import { ConstraintValidationFailed } from '../errors/index.js';
import type { ConstraintEntry } from '../catalog/schema-catalog.js';
import { matchesPropertyType, propertyTypeName } from '../catalog/property-type.js';
import { decodeRecordById } from './codec/value-codec.js';
import { deleteConnectedNode, existenceViolation, typeViolation } from './constraint-messages.js';
import { LabelSetCache } from './store-context.js';
import type { WriteTransaction } from './write-transaction.js';
import type { CypherValue } from '../values/types.js';

const HAS_RELS = 'SELECT 1 FROM rels WHERE src = ? UNION ALL SELECT 1 FROM rels WHERE dst = ? LIMIT 1';
const NODE_ROW = 'SELECT labels, props FROM nodes WHERE id = ?';
const REL_ROW = 'SELECT type, props FROM rels WHERE id = ?';

/** Returns a violation message for one entity against one constraint, or null. */
export function violation(constraint: ConstraintEntry, id: bigint, props: ReadonlyMap<number, CypherValue>): string | null {
  const { definition } = constraint;
  const token = definition.labelsOrTypes[0]!;
  switch (definition.type) {
    case 'NODE_PROPERTY_EXISTENCE':
    case 'RELATIONSHIP_PROPERTY_EXISTENCE':
    case 'NODE_KEY':
    case 'RELATIONSHIP_KEY': {
      const missing = constraint.keyIds.some((k) => !props.has(k));
      return missing ? existenceViolation(definition.entityType, id, token, definition.properties) : null;
    }
    case 'NODE_PROPERTY_TYPE':
    case 'RELATIONSHIP_PROPERTY_TYPE': {
      const value = props.get(constraint.keyIds[0]!);
      if (value === undefined || definition.propertyType === null) return null;
      if (matchesPropertyType(definition.propertyType, value)) return null;
      return typeViolation(definition.entityType, id, token, definition.properties[0]!, definition.propertyType, propertyTypeName(value));
    }
    default:
      return null;
  }
}

/** Throws ConstraintValidationFailed for the first violation among the transaction's changes. */
export function runCommitChecks(tx: WriteTransaction): void {
  const db = tx.db;
  for (const id of tx.state.nonDetachDeleted) {
    if (db.pluck(HAS_RELS).get(id, id) !== undefined) throw deleteConnectedNode(id);
  }
  const schema = tx.schema;
  if (!schema.hasCommitChecks) return;
  for (const id of tx.state.touchedNodes) {
    const row = db.raw(NODE_ROW).get(id) as [string, Buffer | null] | undefined;
    if (row === undefined) continue;
    let props: Map<number, CypherValue> | null = null;
    for (const labelId of LabelSetCache.ids(row[0])) {
      for (const constraint of schema.nodeCommitChecks.get(labelId) ?? []) {
        props ??= decodeRecordById(row[1]);
        const message = violation(constraint, id, props);
        if (message !== null) throw new ConstraintValidationFailed(message);
      }
    }
  }
  for (const id of tx.state.touchedRels) {
    const row = db.raw(REL_ROW).get(id) as [bigint, Buffer | null] | undefined;
    if (row === undefined) continue;
    const constraints = schema.relCommitChecks.get(Number(row[0]));
    if (constraints === undefined) continue;
    const props = decodeRecordById(row[1]);
    for (const constraint of constraints) {
      const message = violation(constraint, id, props);
      if (message !== null) throw new ConstraintValidationFailed(message);
    }
  }
}
