/**
 * A write transaction: a HeadReader on the writer connection (so it reads its own writes) that
 * also mutates, maintains indexes, enforces constraints, keeps history and counts effects.
 *
 * Versioning: the transaction will commit as version V = last committed + 1 (one writer at a
 * time makes V known up front). The first change to a head whose `version` is below V copies
 * the old head to the history table with [version, V); later changes in the same transaction
 * update the head in place. Rolling back (SQLite ROLLBACK) therefore leaves no history row.
 */
import { EntityNotFound, GraphError } from '../errors/index.js';
import type { CypherMap, CypherValue } from '../values/types.js';
import type { ChangeEvent, ConstraintDefinition, GraphWriter, IndexDefinition, Savepoint, WriteCounters } from './graph-store.js';
import type { IndexEntry, SchemaCatalog } from '../catalog/schema-catalog.js';
import { HeadReader } from './head-reader.js';
import type { Connection } from './sqlite/connection.js';
import { LabelSetCache, type StoreContext } from './store-context.js';
import { decodeRecordById, encodeRecord } from './codec/value-codec.js';
import { assertStorableProperty } from './property-rules.js';
import { addEntry, assertUnique, removeEntry, updateEntry } from './index-maintenance.js';
import { TxState } from './tx-state.js';
import { runCommitChecks } from './commit-checks.js';
import { buildChangeEvents } from './change-events.js';
import { createConstraint, createIndex, dropConstraint, dropIndex } from './schema-writer.js';

const NODE_ROW = 'SELECT version, labels, props FROM nodes WHERE id = ?';
const REL_ROW = 'SELECT version, type, src, dst, props FROM rels WHERE id = ?';
const INSERT_NODE = 'INSERT INTO nodes (id, version, labels, props) VALUES (?, ?, ?, ?)';
const INSERT_NODE_LABEL = 'INSERT INTO node_labels (label, node) VALUES (?, ?)';
const DELETE_NODE_LABEL = 'DELETE FROM node_labels WHERE label = ? AND node = ?';
const UPDATE_NODE_PROPS = 'UPDATE nodes SET version = ?, props = ? WHERE id = ?';
const UPDATE_NODE_LABELS = 'UPDATE nodes SET version = ?, labels = ? WHERE id = ?';
const DELETE_NODE = 'DELETE FROM nodes WHERE id = ?';
const ARCHIVE_NODE = 'INSERT INTO node_history (id, from_version, to_version, labels, props) VALUES (?, ?, ?, ?, ?)';
const INSERT_REL = 'INSERT INTO rels (id, type, src, dst, version, props) VALUES (?, ?, ?, ?, ?, ?)';
const UPDATE_REL_PROPS = 'UPDATE rels SET version = ?, props = ? WHERE id = ?';
const DELETE_REL = 'DELETE FROM rels WHERE id = ?';
const ARCHIVE_REL = 'INSERT INTO rel_history (id, from_version, to_version, type, src, dst, props) VALUES (?, ?, ?, ?, ?, ?, ?)';
const NODE_EXISTS = 'SELECT 1 FROM nodes WHERE id = ?';
const TOUCHING_RELS = 'SELECT id FROM rels WHERE src = ? UNION SELECT id FROM rels WHERE dst = ?';

type NodeRow = [bigint, string, Buffer | null];
type RelRow = [bigint, bigint, bigint, bigint, Buffer | null];

/** What the owning database provides to a write transaction. */
export interface WriteHost {
  readonly context: StoreContext;
  /** Called inside the SQLite transaction, just before COMMIT, with the final state. */
  persistCommit(tx: WriteTransaction): void;
  /** Called after COMMIT succeeded. */
  published(tx: WriteTransaction, events: readonly ChangeEvent[]): void;
  /** Called once the transaction is over (commit or rollback): releases the write lock. */
  finished(tx: WriteTransaction, committed: boolean): void;
  /** True when change events have subscribers. */
  readonly wantsEvents: boolean;
}

/** GraphWriter with commit/rollback; created inside a SQLite write transaction (BEGIN IMMEDIATE). */
export class WriteTransaction extends HeadReader implements GraphWriter {
  protected override readonly materializeScans = true;
  /** In-memory bookkeeping (counters, deltas, changes). */
  readonly state: TxState;
  /** Next ids to hand out (never reused). */
  nextNodeId: bigint;
  nextRelId: bigint;
  /** Whether DDL ran (the published catalog must be replaced on commit). */
  schemaChanged = false;
  private open = true;
  private savepointDepth = 0;
  private readonly tokenMark: [number, number, number];

  constructor(
    connection: Connection,
    context: StoreContext,
    catalog: SchemaCatalog,
    /** The version this transaction commits as. */
    readonly commitVersion: bigint,
    nextIds: { node: bigint; rel: bigint },
    private readonly host: WriteHost,
  ) {
    super(connection, context, catalog, commitVersion - 1n);
    this.nextNodeId = nextIds.node;
    this.nextRelId = nextIds.rel;
    this.state = new TxState(host.wantsEvents);
    this.tokenMark = context.tokens.mark();
  }

  /** The schema catalog as this transaction sees it. */
  get schema(): SchemaCatalog {
    return this.catalog;
  }

  /** Replaces the working catalog (DDL). */
  setSchema(catalog: SchemaCatalog): void {
    this.catalog = catalog;
    this.schemaChanged = true;
    this.state.dirty = true;
  }

  /** The writer connection (for schema and check helpers). */
  get db(): Connection {
    return this.connection;
  }

  get ctx(): StoreContext {
    return this.context;
  }

  get isOpen(): boolean {
    return this.open;
  }

  get counters(): WriteCounters {
    return this.state.counters;
  }

  protected override nodeCountDelta(labelId: number | undefined): number {
    return labelId === undefined ? this.state.nodeDelta : (this.state.labelDeltas.get(labelId) ?? 0);
  }

  protected override relCountDelta(typeId: number | undefined): number {
    return typeId === undefined ? this.state.relDelta : (this.state.typeDeltas.get(typeId) ?? 0);
  }

  protected override get cacheLastRow(): boolean {
    return false;
  }

  protected override pendingDeltas(prefix: 'label' | 'type'): ReadonlyMap<number, number> {
    return prefix === 'label' ? this.state.labelDeltas : this.state.typeDeltas;
  }

  private assertOpen(): void {
    if (!this.open) throw new GraphError('Neo.ClientError.Transaction.TransactionNotFound', 'The transaction is closed.');
  }

  /** Validates every value first, then maps keys to token ids (creating tokens). */
  private keyIdsOf(properties: CypherMap): Map<number, CypherValue> {
    for (const value of properties.values()) if (value !== null) assertStorableProperty(value);
    const keys = this.context.tokens.keys;
    const record = new Map<number, CypherValue>();
    for (const [key, value] of properties) {
      if (value !== null) record.set(keys.getOrCreate(key, this.connection), value);
    }
    return record;
  }

  /** Unique-index checks for an entity about to be indexed with `props` in `indexes`. */
  private checkUnique(indexes: readonly IndexEntry[] | undefined, id: bigint, props: ReadonlyMap<number, CypherValue>): void {
    if (indexes === undefined) return;
    for (const index of indexes) assertUnique(this.connection, index, id, props);
  }

  /** Distinct label ids in ascending id order (the order Neo4j reports labels in). */
  private labelIdsOf(labels: readonly string[]): number[] {
    const dictionary = this.context.tokens.labels;
    if (labels.length === 1) return [dictionary.getOrCreate(labels[0]!, this.connection)];
    return [...new Set(labels.map((l) => dictionary.getOrCreate(l, this.connection)))].sort((a, b) => a - b);
  }

  private touchNode(id: bigint): void {
    if (this.catalog.hasCommitChecks) this.state.touchedNodes.add(id);
  }

  private touchRel(id: bigint): void {
    if (this.catalog.hasCommitChecks) this.state.touchedRels.add(id);
  }

  // ---- nodes ----

  createNode(labels: readonly string[], properties: CypherMap): bigint {
    this.assertOpen();
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
    return id;
  }

  private nodeRow(id: bigint): NodeRow {
    const row = this.connection.raw(NODE_ROW).get(id) as NodeRow | undefined;
    if (row === undefined) throw new EntityNotFound(`Node with id ${id} has been deleted in this transaction`);
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
    return removed.length;
  }

  deleteNode(id: bigint, detach: boolean): void {
    this.assertOpen();
    const row = this.connection.raw(NODE_ROW).get(id) as NodeRow | undefined;
    if (row === undefined) return;
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
  }

  // ---- relationships ----

  createRelationship(type: string, startId: bigint, endId: bigint, properties: CypherMap): bigint {
    this.assertOpen();
    const exists = this.connection.pluck(NODE_EXISTS);
    if (exists.get(startId) === undefined) throw new EntityNotFound(`Node with id ${startId} does not exist or has been deleted`);
    if (endId !== startId && exists.get(endId) === undefined) {
      throw new EntityNotFound(`Node with id ${endId} does not exist or has been deleted`);
    }
    const id = this.nextRelId++;
    const typeId = this.context.tokens.types.getOrCreate(type, this.connection);
    const record = this.keyIdsOf(properties);
    this.checkUnique(this.catalog.relIndexesByType.get(typeId), id, record);
    this.state.dirty = true;
    this.connection.stmt(INSERT_REL).run(id, typeId, startId, endId, this.commitVersion, encodeRecord(record));
    for (const index of this.catalog.relIndexesByType.get(typeId) ?? []) addEntry(this.connection, index, id, record);
    const state = this.state;
    state.typeDelta(typeId, 1);
    state.relDelta++;
    state.dirty = true;
    state.counters.relationshipsCreated++;
    state.counters.propertiesSet += record.size;
    state.relChanged(id, 'created');
    this.touchRel(id);
    return id;
  }

  private relRow(id: bigint): RelRow {
    const row = this.connection.raw(REL_ROW).get(id) as RelRow | undefined;
    if (row === undefined) throw new EntityNotFound(`Relationship with id ${id} has been deleted in this transaction`);
    return row;
  }

  private archiveRel(id: bigint, row: RelRow): void {
    if (row[0] < this.commitVersion) {
      this.connection.stmt(ARCHIVE_REL).run(id, row[0], this.commitVersion, row[1], row[2], row[3], row[4]);
    }
  }

  private writeRelProps(id: bigint, row: RelRow, oldProps: Map<number, CypherValue>, newProps: Map<number, CypherValue>): void {
    this.checkUnique(this.catalog.relIndexesByType.get(Number(row[1])), id, newProps);
    this.state.dirty = true;
    this.archiveRel(id, row);
    this.connection.stmt(UPDATE_REL_PROPS).run(this.commitVersion, encodeRecord(newProps), id);
    for (const index of this.catalog.relIndexesByType.get(Number(row[1])) ?? []) {
      updateEntry(this.connection, index, id, oldProps, newProps);
    }
    this.state.dirty = true;
    this.state.relChanged(id, 'updated');
    this.touchRel(id);
  }

  setRelationshipProperty(id: bigint, key: string, value: CypherValue): void {
    this.assertOpen();
    const row = this.relRow(id);
    const keys = this.context.tokens.keys;
    const oldProps = decodeRecordById(row[4]);
    const newProps = new Map(oldProps);
    if (value === null) {
      const keyId = keys.idOf(key);
      if (keyId === undefined || !oldProps.has(keyId)) return;
      newProps.delete(keyId);
    } else {
      assertStorableProperty(value);
      newProps.set(keys.getOrCreate(key, this.connection), value);
    }
    this.writeRelProps(id, row, oldProps, newProps);
    this.state.counters.propertiesSet++;
  }

  replaceRelationshipProperties(id: bigint, properties: CypherMap): void {
    this.assertOpen();
    const row = this.relRow(id);
    const oldProps = decodeRecordById(row[4]);
    const newProps = this.keyIdsOf(properties);
    this.writeRelProps(id, row, oldProps, newProps);
    let removed = 0;
    for (const keyId of oldProps.keys()) if (!newProps.has(keyId)) removed++;
    this.state.counters.propertiesSet += newProps.size + removed;
  }

  deleteRelationship(id: bigint): void {
    this.assertOpen();
    const row = this.connection.raw(REL_ROW).get(id) as RelRow | undefined;
    if (row === undefined) return;
    this.state.dirty = true;
    this.archiveRel(id, row);
    this.connection.stmt(DELETE_REL).run(id);
    const typeId = Number(row[1]);
    const props = decodeRecordById(row[4]);
    for (const index of this.catalog.relIndexesByType.get(typeId) ?? []) removeEntry(this.connection, index, id, props);
    this.state.typeDelta(typeId, -1);
    this.state.relDelta--;
    this.state.dirty = true;
    this.state.counters.relationshipsDeleted++;
    this.state.relChanged(id, 'deleted', this.context.tokens.types.nameOf(typeId));
    this.state.touchedRels.delete(id);
  }

  // ---- schema ----

  createIndex(definition: Omit<IndexDefinition, 'state' | 'owningConstraint'>, ifNotExists: boolean): boolean {
    this.assertOpen();
    return createIndex(this, definition, ifNotExists);
  }

  dropIndex(name: string, ifExists: boolean): boolean {
    this.assertOpen();
    return dropIndex(this, name, ifExists);
  }

  createConstraint(definition: ConstraintDefinition, ifNotExists: boolean): boolean {
    this.assertOpen();
    return createConstraint(this, definition, ifNotExists);
  }

  dropConstraint(name: string, ifExists: boolean): boolean {
    this.assertOpen();
    return dropConstraint(this, name, ifExists);
  }

  // ---- transaction control ----

  savepoint(): Savepoint {
    this.assertOpen();
    const name = `sp${++this.savepointDepth}`;
    this.connection.stmt(`SAVEPOINT ${name}`).run();
    const saved = this.state.snapshot();
    const tokenMark = this.context.tokens.mark();
    const catalog = this.catalog;
    const schemaChanged = this.schemaChanged;
    let done = false;
    const finish = (): void => {
      if (done) throw new Error('Savepoint already released or rolled back');
      done = true;
      this.savepointDepth--;
    };
    return {
      release: () => {
        finish();
        if (this.open) this.connection.stmt(`RELEASE ${name}`).run();
      },
      rollbackTo: () => {
        finish();
        if (!this.open) return;
        this.connection.stmt(`ROLLBACK TO ${name}`).run();
        this.connection.stmt(`RELEASE ${name}`).run();
        this.state.restore(saved);
        this.restoreTokens(tokenMark);
        this.catalog = catalog;
        this.schemaChanged = schemaChanged;
      },
    };
  }

  private restoreTokens(mark: [number, number, number]): void {
    const labelsBefore = this.context.tokens.labels.mark();
    this.context.tokens.rollbackTo(mark);
    if (labelsBefore !== mark[0]) this.context.labelSets.clear();
  }

  /** Validates deferred constraints, makes the changes durable and returns the new version. */
  commit(): bigint {
    this.assertOpen();
    if (!this.state.dirty) {
      this.connection.stmt('COMMIT').run();
      this.context.tokens.commit();
      this.close(true);
      return this.commitVersion - 1n;
    }
    let events: ChangeEvent[];
    try {
      runCommitChecks(this);
      events = buildChangeEvents(this, this.state, this.context.databaseName);
      this.host.persistCommit(this);
      this.connection.stmt('COMMIT').run();
    } catch (error) {
      this.rollback();
      throw error;
    }
    this.context.tokens.commit();
    this.close(true);
    this.host.published(this, events);
    return this.commitVersion;
  }

  /** Discards every change of the transaction. */
  rollback(): void {
    if (!this.open) return;
    if (this.connection.db.inTransaction) this.connection.stmt('ROLLBACK').run();
    this.restoreTokens(this.tokenMark);
    this.close(false);
  }

  private close(committed: boolean): void {
    this.open = false;
    this.host.finished(this, committed);
  }
}
