/**
 * A write transaction: a HeadReader on the writer connection (so it reads its own writes) that
 * also mutates, maintains indexes, enforces constraints, keeps history and counts effects.
 * Layers: `WriteBase` (state, helpers) -> `NodeWriter` (node mutations) -> this class
 * (relationships, schema, savepoints, commit and rollback).
 *
 * Versioning: the transaction will commit as version V = last committed + 1 (one writer at a
 * time makes V known up front). The first change to a head whose `version` is below V copies
 * the old head to the history table with [version, V); later changes in the same transaction
 * update the head in place. Rolling back (SQLite ROLLBACK) therefore leaves no history row.
 */
import { EntityNotFound, invariant } from '../errors/index.js';
import type { CypherMap, CypherValue } from '../values/types.js';
import type { ChangeEvent, CommitOrigin, ConstraintDefinition, GraphWriter, IndexDefinition, Savepoint } from './graph-store.js';
import type { SchemaCatalog } from '../catalog/schema-catalog.js';
import type { Connection } from './sqlite/connection.js';
import type { StoreContext } from './store-context.js';
import { decodeRecordById, encodeRecord } from './codec/value-codec.js';
import { assertStorableProperty } from './property-rules.js';
import { addEntry, removeEntry, updateEntry } from './index-maintenance.js';
import { runCommitChecks } from './commit-checks.js';
import { buildChangeEvents, buildChangeEventsSliced } from './change-events.js';
import type { TimeSlice } from './time-slice.js';
import { createConstraint, createIndex, dropConstraint, dropIndex, runSteps } from './schema-writer.js';
import { NodeWriter } from './node-writer.js';
import type { CatalogTablesState } from '../catalog/catalog-tables.js';
import type { CommitRecord, SchemaOp } from './commit-record.js';

const REL_ROW = 'SELECT version, type, src, dst, props FROM rels WHERE id = ?';
const INSERT_REL = 'INSERT INTO rels (id, type, src, dst, version, props) VALUES (?, ?, ?, ?, ?, ?)';
const UPDATE_REL_PROPS = 'UPDATE rels SET version = ?, props = ? WHERE id = ?';
const DELETE_REL = 'DELETE FROM rels WHERE id = ?';
const ARCHIVE_REL = 'INSERT INTO rel_history (id, from_version, to_version, type, src, dst, props) VALUES (?, ?, ?, ?, ?, ?, ?)';
const NODE_EXISTS = 'SELECT 1 FROM nodes WHERE id = ?';

type RelRow = [bigint, bigint, bigint, bigint, Buffer | null];

/** What the owning database provides to a write transaction. */
export interface WriteHost {
  readonly context: StoreContext;
  /** Called inside the SQLite transaction, just before COMMIT, with the final state. */
  persistCommit(tx: WriteTransaction): void;
  /** Called after `persistCommit` when the transaction's change record must be built (replication). */
  readonly wantsRecord: boolean;
  /** Called after COMMIT succeeded. */
  published(tx: WriteTransaction, events: readonly ChangeEvent[]): void;
  /** Called once the transaction is over (commit or rollback): releases the write lock. */
  finished(tx: WriteTransaction, committed: boolean): void;
  /** True when change events have subscribers. */
  readonly wantsEvents: boolean;
}

export class WriteTransaction extends NodeWriter implements GraphWriter {
  private savepointDepth = 0;
  private readonly tokenMark: [number, number, number];
  /** The schema commands that changed the catalog, in order (part of the change record). */
  private readonly schemaOps: SchemaOp[] = [];
  /** Set by `prepareCommit`: the change events and record of the commit, built once. */
  private prepared: { events: ChangeEvent[]; record: CommitRecord | null } | null = null;
  /**
   * The replication log sequence of this commit, written with it in the same SQLite
   * transaction (src/engine/cluster); null when the database is not replicated.
   */
  replicatedSequence: bigint | null = null;
  /** The digest of this commit's log entry (with `replicatedSequence`; 0: not known). */
  replicatedDigest = 0n;
  /**
   * The commit time (epoch ms) to record: fixed when the change record is built (so the record
   * carries it), or set beforehand to the leader's time when a replicated record is applied.
   */
  committedAt: number | null = null;
  /** The `system` catalog tables after this transaction (set by a catalog change; part of the change record). */
  catalogTables: CatalogTablesState | null = null;
  /** Who runs this transaction (set by the session; captured by CDC), or null for internal writes. */
  origin: CommitOrigin | null = null;

  constructor(
    connection: Connection,
    context: StoreContext,
    catalog: SchemaCatalog,
    commitVersion: bigint,
    nextIds: { node: bigint; rel: bigint },
    private readonly host: WriteHost,
  ) {
    super(connection, context, catalog, commitVersion, nextIds, host.wantsEvents);
    this.tokenMark = context.tokens.mark();
  }

  // ---- relationships ----

  createRelationship(type: string, startId: bigint, endId: bigint, properties: CypherMap, options?: { readonly merge?: boolean }): bigint {
    this.assertOpen();
    const merge = options?.merge === true;
    const guard = this.guard;
    if (guard !== null) {
      // Both ends are locked (as Neo4j does), so neither can be deleted before this commits.
      guard.lock(`n${startId}`);
      guard.lock(`n${endId}`);
      if (merge) guard.lock(`M${type}\u0000${startId < endId ? startId : endId}\u0000${startId < endId ? endId : startId}`);
    }
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
    guard?.record({ op: 'createRelationship', id, type, start: startId, end: endId, props: properties, merge });
    return id;
  }

  /** The head row of a relationship about to change, locked (`r<id>`) for this transaction. */
  private relRow(id: bigint): RelRow {
    const row = this.connection.raw(REL_ROW).get(id) as RelRow | undefined;
    if (row === undefined) throw new EntityNotFound(`Relationship with id ${id} has been deleted in this transaction`);
    this.lockExisting(`r${id}`, row[0]);
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
    this.guard?.record({ op: 'setRelationshipProperty', id, key, value });
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
    this.guard?.record({ op: 'replaceRelationshipProperties', id, props: properties });
  }

  deleteRelationship(id: bigint): void {
    this.assertOpen();
    const row = this.connection.raw(REL_ROW).get(id) as RelRow | undefined;
    if (row === undefined) return;
    this.lockExisting(`r${id}`, row[0]);
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
    this.guard?.record({ op: 'deleteRelationship', id });
  }

  // ---- schema ----

  createIndex(definition: Omit<IndexDefinition, 'state' | 'owningConstraint'>, ifNotExists: boolean): boolean {
    return runSteps(this.createIndexSteps(definition, ifNotExists));
  }

  *createIndexSteps(definition: Omit<IndexDefinition, 'state' | 'owningConstraint'>, ifNotExists: boolean): Generator<void, boolean> {
    this.assertOpen();
    return this.schemaOp(yield* createIndex(this, definition, ifNotExists), { op: 'createIndex', definition });
  }

  dropIndex(name: string, ifExists: boolean): boolean {
    this.assertOpen();
    return this.schemaOp(dropIndex(this, name, ifExists), { op: 'dropIndex', name });
  }

  createConstraint(definition: ConstraintDefinition, ifNotExists: boolean): boolean {
    this.assertOpen();
    return this.schemaOp(createConstraint(this, definition, ifNotExists), { op: 'createConstraint', definition });
  }

  dropConstraint(name: string, ifExists: boolean): boolean {
    this.assertOpen();
    return this.schemaOp(dropConstraint(this, name, ifExists), { op: 'dropConstraint', name });
  }

  private schemaOp(changed: boolean, op: SchemaOp): boolean {
    if (changed) this.schemaOps.push(op);
    return changed;
  }

  createToken(kind: 'label' | 'type' | 'key', name: string): void {
    this.assertOpen();
    const tokens = this.context.tokens;
    const dictionary = kind === 'label' ? tokens.labels : kind === 'type' ? tokens.types : tokens.keys;
    if (dictionary.idOf(name) !== undefined) return;
    dictionary.getOrCreate(name, this.connection);
    this.state.dirty = true;
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
    const schemaOps = this.schemaOps.length;
    let done = false;
    const finish = (): void => {
      invariant(!done, 'savepoint already released or rolled back');
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
        this.schemaOps.length = schemaOps;
      },
    };
  }

  private restoreTokens(mark: [number, number, number]): void {
    const labelsBefore = this.context.tokens.labels.mark();
    this.context.tokens.rollbackTo(mark);
    if (labelsBefore !== mark[0]) this.context.labelSets.clear();
  }

  /** True when committing would produce a new version. */
  get hasChanges(): boolean {
    return this.state.dirty;
  }

  /**
   * The first half of a commit that writes: validates deferred constraints and writes the
   * commit's bookkeeping inside the still-open SQLite transaction; returns the change record
   * (null unless the host asked for records). Runs once; a failure leaves the caller to roll back.
   */
  prepareCommit(): CommitRecord | null {
    this.assertOpen();
    if (this.prepared === null) {
      runCommitChecks(this);
      this.setPrepared(buildChangeEvents(this, this.state, this.context.databaseName));
    }
    return this.prepared!.record;
  }

  /**
   * `prepareCommit` for a large transaction (a bulk load): reads the change events in time
   * slices, giving the event loop back between them; `commit()` then uses what it prepared.
   */
  async prepareCommitSliced(slice: TimeSlice): Promise<void> {
    this.assertOpen();
    if (this.prepared !== null) return;
    runCommitChecks(this);
    const events = await buildChangeEventsSliced(this, this.state, this.context.databaseName, slice);
    this.assertOpen();
    this.setPrepared(events);
  }

  private setPrepared(events: ChangeEvent[]): void {
    let record: CommitRecord | null = null;
    if (this.host.wantsRecord) {
      this.committedAt ??= Date.now();
      const { commitVersion: version, nextNodeId, nextRelId, committedAt } = this;
      record = {
        version,
        nextNodeId,
        nextRelId,
        events,
        schema: [...this.schemaOps],
        committedAt,
        ...(this.catalogTables === null ? {} : { catalog: this.catalogTables }),
      };
    }
    this.prepared = { events, record };
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
      this.prepareCommit();
      events = this.prepared!.events;
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
