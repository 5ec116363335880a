/**
 * Node mutations of a write transaction: create, set/replace properties, add/remove labels,
 * delete. Versioning: the first change to a head whose `version` is below the commit version V
 * copies the old head to `node_history` with [version, V); later changes in the same
 * transaction update the head in place, so a rollback leaves no history row.
 */
import { EntityNotFound } from '../errors/index.js';
import type { CypherMap, CypherValue } from '../values/types.js';
import { LabelSetCache } from './store-context.js';
import { decodeRecordById, encodeRecord } from './codec/value-codec.js';
import { assertStorableProperty } from './property-rules.js';
import { addEntry, removeEntry, updateEntry } from './index-maintenance.js';
import { WriteBase } from './write-base.js';

const NODE_ROW = 'SELECT version, labels, props FROM nodes WHERE id = ?';
const INSERT_NODE = 'INSERT INTO nodes (id, version, labels, props) VALUES (?, ?, ?, ?)';
const INSERT_NODE_LABEL = 'INSERT INTO node_labels (label, node) VALUES (?, ?)';
const DELETE_NODE_LABEL = 'DELETE FROM node_labels WHERE label = ? AND node = ?';
const UPDATE_NODE_PROPS = 'UPDATE nodes SET version = ?, props = ? WHERE id = ?';
const UPDATE_NODE_LABELS = 'UPDATE nodes SET version = ?, labels = ? WHERE id = ?';
const DELETE_NODE = 'DELETE FROM nodes WHERE id = ?';
const ARCHIVE_NODE = 'INSERT INTO node_history (id, from_version, to_version, labels, props) VALUES (?, ?, ?, ?, ?)';
const TOUCHING_RELS = 'SELECT id FROM rels WHERE src = ? UNION SELECT id FROM rels WHERE dst = ?';

type NodeRow = [bigint, string, Buffer | null];

/** WriteBase plus node mutations; relationships come with `WriteTransaction`. */
export abstract class NodeWriter extends WriteBase {
  /** Deletes a relationship (DETACH DELETE of a node deletes its relationships first). */
  abstract deleteRelationship(id: bigint): void;

  createNode(labels: readonly string[], properties: CypherMap, options?: { readonly merge?: boolean }): bigint {
    this.assertOpen();
    const merge = options?.merge === true;
    if (merge) this.lockMergeKeys(labels, properties);
    const id = this.nextNodeId++;
    const labelIds = this.labelIdsOf(labels);
    const record = this.keyIdsOf(properties);
    for (const labelId of labelIds) this.checkUnique(this.catalog.nodeIndexesByLabel.get(labelId), id, record);
    this.state.dirty = true;
    this.connection.stmt(INSERT_NODE).run(id, this.commitVersion, LabelSetCache.text(labelIds), encodeRecord(record));
    for (const labelId of labelIds) {
      this.connection.stmt(INSERT_NODE_LABEL).run(labelId, id);
      this.state.labelDelta(labelId, 1);
      for (const index of this.catalog.nodeIndexesByLabel.get(labelId) ?? []) addEntry(this.connection, index, id, record);
    }
    const state = this.state;
    state.nodeDelta++;
    state.dirty = true;
    state.counters.nodesCreated++;
    state.counters.labelsAdded += labelIds.length;
    state.counters.propertiesSet += record.size;
    state.nodeChanged(id, 'created');
    this.touchNode(id);
    this.guard?.record({ op: 'createNode', id, labels, props: properties, merge });
    return id;
  }

  /** The head row of a node about to change, locked (`n<id>`) for this transaction. */
  private nodeRow(id: bigint): NodeRow {
    const row = this.connection.raw(NODE_ROW).get(id) as NodeRow | undefined;
    if (row === undefined) throw new EntityNotFound(`Node with id ${id} has been deleted in this transaction`);
    this.lockExisting(`n${id}`, row[0]);
    return row;
  }

  /** Copies the head to history unless this transaction already did. */
  private archiveNode(id: bigint, row: NodeRow): void {
    if (row[0] < this.commitVersion) this.connection.stmt(ARCHIVE_NODE).run(id, row[0], this.commitVersion, row[1], row[2]);
  }

  private writeNodeProps(id: bigint, row: NodeRow, oldProps: Map<number, CypherValue>, newProps: Map<number, CypherValue>): void {
    for (const labelId of LabelSetCache.ids(row[1])) this.checkUnique(this.catalog.nodeIndexesByLabel.get(labelId), id, newProps);
    this.state.dirty = true;
    this.archiveNode(id, row);
    this.connection.stmt(UPDATE_NODE_PROPS).run(this.commitVersion, encodeRecord(newProps), id);
    for (const labelId of LabelSetCache.ids(row[1])) {
      for (const index of this.catalog.nodeIndexesByLabel.get(labelId) ?? []) {
        updateEntry(this.connection, index, id, oldProps, newProps);
      }
    }
    this.state.dirty = true;
    this.state.nodeChanged(id, 'updated');
  }

  setNodeProperty(id: bigint, key: string, value: CypherValue): void {
    this.assertOpen();
    const row = this.nodeRow(id);
    const keys = this.context.tokens.keys;
    if (value === null) {
      const keyId = keys.idOf(key);
      if (keyId === undefined) return;
      const oldProps = decodeRecordById(row[2]);
      if (!oldProps.has(keyId)) return;
      const newProps = new Map(oldProps);
      newProps.delete(keyId);
      this.writeNodeProps(id, row, oldProps, newProps);
      this.touchNode(id);
    } else {
      assertStorableProperty(value);
      const keyId = keys.getOrCreate(key, this.connection);
      const oldProps = decodeRecordById(row[2]);
      const newProps = new Map(oldProps);
      newProps.set(keyId, value);
      this.writeNodeProps(id, row, oldProps, newProps);
      this.touchNode(id);
    }
    this.state.counters.propertiesSet++;
    this.guard?.record({ op: 'setNodeProperty', id, key, value });
  }

  replaceNodeProperties(id: bigint, properties: CypherMap): void {
    this.assertOpen();
    const row = this.nodeRow(id);
    const oldProps = decodeRecordById(row[2]);
    const newProps = this.keyIdsOf(properties);
    this.writeNodeProps(id, row, oldProps, newProps);
    let removed = 0;
    for (const keyId of oldProps.keys()) if (!newProps.has(keyId)) removed++;
    this.state.counters.propertiesSet += newProps.size + removed;
    this.touchNode(id);
    this.guard?.record({ op: 'replaceNodeProperties', id, props: properties });
  }

  addLabels(id: bigint, labels: readonly string[]): number {
    this.assertOpen();
    const row = this.nodeRow(id);
    const current = LabelSetCache.ids(row[1]);
    const added: number[] = [];
    for (const label of labels) {
      const labelId = this.context.tokens.labels.getOrCreate(label, this.connection);
      if (!current.includes(labelId) && !added.includes(labelId)) added.push(labelId);
    }
    if (added.length === 0) return 0;
    const props = decodeRecordById(row[2]);
    for (const labelId of added) this.checkUnique(this.catalog.nodeIndexesByLabel.get(labelId), id, props);
    this.state.dirty = true;
    this.archiveNode(id, row);
    const merged = [...current, ...added].sort((a, b) => a - b);
    this.connection.stmt(UPDATE_NODE_LABELS).run(this.commitVersion, LabelSetCache.text(merged), id);
    for (const labelId of added) {
      this.connection.stmt(INSERT_NODE_LABEL).run(labelId, id);
      this.state.labelDelta(labelId, 1);
      for (const index of this.catalog.nodeIndexesByLabel.get(labelId) ?? []) addEntry(this.connection, index, id, props);
    }
    this.state.dirty = true;
    this.state.counters.labelsAdded += added.length;
    this.state.nodeChanged(id, 'updated');
    this.touchNode(id);
    this.guard?.record({ op: 'addLabels', id, labels });
    return added.length;
  }

  removeLabels(id: bigint, labels: readonly string[]): number {
    this.assertOpen();
    const row = this.nodeRow(id);
    const current = LabelSetCache.ids(row[1]);
    const removed: number[] = [];
    for (const label of labels) {
      const labelId = this.context.tokens.labels.idOf(label);
      if (labelId !== undefined && current.includes(labelId) && !removed.includes(labelId)) removed.push(labelId);
    }
    if (removed.length === 0) return 0;
    this.state.dirty = true;
    this.archiveNode(id, row);
    const remaining = current.filter((l) => !removed.includes(l));
    this.connection.stmt(UPDATE_NODE_LABELS).run(this.commitVersion, LabelSetCache.text(remaining), id);
    const props = decodeRecordById(row[2]);
    for (const labelId of removed) {
      this.connection.stmt(DELETE_NODE_LABEL).run(labelId, id);
      this.state.labelDelta(labelId, -1);
      for (const index of this.catalog.nodeIndexesByLabel.get(labelId) ?? []) removeEntry(this.connection, index, id, props);
    }
    this.state.dirty = true;
    this.state.counters.labelsRemoved += removed.length;
    this.state.nodeChanged(id, 'updated');
    this.guard?.record({ op: 'removeLabels', id, labels });
    return removed.length;
  }

  deleteNode(id: bigint, detach: boolean): void {
    this.assertOpen();
    const row = this.connection.raw(NODE_ROW).get(id) as NodeRow | undefined;
    if (row === undefined) return;
    this.lockExisting(`n${id}`, row[0]);
    this.state.dirty = true;
    if (detach) {
      const rels = this.connection.pluck(TOUCHING_RELS).all(id, id) as bigint[];
      for (const relId of rels) this.deleteRelationship(relId);
    } else {
      this.state.nonDetachDeleted.push(id);
    }
    this.archiveNode(id, row);
    this.connection.stmt(DELETE_NODE).run(id);
    const labelIds = LabelSetCache.ids(row[1]);
    const props = decodeRecordById(row[2]);
    for (const labelId of labelIds) {
      this.connection.stmt(DELETE_NODE_LABEL).run(labelId, id);
      this.state.labelDelta(labelId, -1);
      for (const index of this.catalog.nodeIndexesByLabel.get(labelId) ?? []) removeEntry(this.connection, index, id, props);
    }
    this.state.nodeDelta--;
    this.state.dirty = true;
    this.state.counters.nodesDeleted++;
    this.state.nodeChanged(id, 'deleted', this.context.labelSets.names(row[1]));
    this.state.touchedNodes.delete(id);
    this.guard?.record({ op: 'deleteNode', id, detach });
  }
}
