/**
 * Applies a change record (storage/commit-record.ts) made by another member to a write
 * transaction, so that the transaction commits the same version with the same ids, labels,
 * properties, relationships and schema. Deletions go first, then every updated entity loses its
 * properties, then creations and final states are written: no transient duplicate can trip a
 * uniqueness check that the original transaction passed. A record of the `system` database may
 * carry its catalog tables, which replace the store's.
 */
import type { CypherMap } from '../values/types.js';
import { writeCatalogTables } from '../catalog/catalog-tables.js';
import type { CommitRecord, SchemaOp } from './commit-record.js';
import type { WriteTransaction } from './write-transaction.js';

const NO_PROPERTIES: CypherMap = new Map();

function applySchema(tx: WriteTransaction, op: SchemaOp): void {
  switch (op.op) {
    case 'createIndex':
      tx.createIndex(op.definition, true);
      return;
    case 'dropIndex':
      tx.dropIndex(op.name, true);
      return;
    case 'createConstraint':
      tx.createConstraint(op.definition, true);
      return;
    case 'dropConstraint':
      tx.dropConstraint(op.name, true);
      return;
  }
}

function withNextId(tx: WriteTransaction, which: 'nextNodeId' | 'nextRelId', id: bigint, create: () => bigint): void {
  tx[which] = id;
  const created = create();
  if (created !== id) throw new Error(`Replicated ${which === 'nextNodeId' ? 'node' : 'relationship'} ${id} was created as ${created}`);
}

/** Writes `record` into `tx` (a fresh write transaction on the version before the record's). */
export function applyCommitRecord(tx: WriteTransaction, record: CommitRecord): void {
  for (const op of record.schema) if (op.op === 'dropIndex' || op.op === 'dropConstraint') applySchema(tx, op);
  const events = record.events;
  for (const event of events) if (event.kind === 'relationshipDeleted') tx.deleteRelationship(event.id);
  for (const event of events) if (event.kind === 'nodeDeleted' && tx.nodeExists(event.id)) tx.deleteNode(event.id, true);
  for (const event of events) {
    if (event.kind === 'nodeUpdated') tx.replaceNodeProperties(event.node.id, NO_PROPERTIES);
    else if (event.kind === 'relationshipUpdated') tx.replaceRelationshipProperties(event.relationship.id, NO_PROPERTIES);
  }
  for (const op of record.schema) if (op.op === 'createIndex' || op.op === 'createConstraint') applySchema(tx, op);
  for (const event of events) {
    if (event.kind === 'nodeCreated') {
      const node = event.node;
      withNextId(tx, 'nextNodeId', node.id, () => tx.createNode(node.labels, node.properties));
    } else if (event.kind === 'nodeUpdated') {
      const node = event.node;
      const current = tx.nodeLabels(node.id) ?? [];
      const removed = current.filter((label) => !node.labels.includes(label));
      const added = node.labels.filter((label) => !current.includes(label));
      if (removed.length > 0) tx.removeLabels(node.id, removed);
      if (added.length > 0) tx.addLabels(node.id, added);
      tx.replaceNodeProperties(node.id, node.properties);
    }
  }
  for (const event of events) {
    if (event.kind === 'relationshipCreated') {
      const rel = event.relationship;
      withNextId(tx, 'nextRelId', rel.id, () => tx.createRelationship(rel.type, rel.startId, rel.endId, rel.properties));
    } else if (event.kind === 'relationshipUpdated') {
      tx.replaceRelationshipProperties(event.relationship.id, event.relationship.properties);
    }
  }
  if (record.catalog !== undefined) {
    writeCatalogTables(tx.db, record.catalog);
    tx.catalogTables = record.catalog;
  }
  tx.nextNodeId = record.nextNodeId;
  tx.nextRelId = record.nextRelId;
  tx.state.dirty = true;
}
