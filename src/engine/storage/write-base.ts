/**
 * The common part of a write transaction: a HeadReader on the writer connection (so it reads
 * its own writes) with the transaction's bookkeeping, the version it commits as, id allocation
 * and the helpers every mutation uses (property validation, unique checks, token ids).
 * `NodeWriter` adds node mutations, `WriteTransaction` relationships, schema and commit.
 */
import { graphError } from '../errors/index.js';
import type { CypherMap, CypherValue } from '../values/types.js';
import type { WriteCounters } from './graph-store.js';
import type { IndexEntry, SchemaCatalog } from '../catalog/schema-catalog.js';
import { HeadReader } from './head-reader.js';
import type { Connection } from './sqlite/connection.js';
import type { StoreContext } from './store-context.js';
import { assertStorableProperty } from './property-rules.js';
import { assertUnique, indexedValues } from './index-maintenance.js';
import { TxState } from './tx-state.js';
import { compositeKey } from './codec/index-key.js';
import type { WriteGuard } from './write-set.js';

/** State and helpers shared by the node, relationship and schema writes of one transaction. */
export abstract class WriteBase extends HeadReader {
  protected override readonly materializeScans = true;
  /** In-memory bookkeeping (counters, deltas, changes). */
  readonly state: TxState;
  /** Next ids to hand out (never reused). */
  nextNodeId: bigint;
  nextRelId: bigint;
  /** Whether DDL ran (the published catalog must be replaced on commit). */
  schemaChanged = false;
  protected open = true;
  /** Entity locks, first-write versions and the write set of the owning transaction; null: none. */
  guard: WriteGuard | null = null;
  /** A rollback keeps this transaction's ids reserved (its write set is parked and will create them again). */
  reserveIdsOnRollback = false;

  constructor(
    connection: Connection,
    context: StoreContext,
    catalog: SchemaCatalog,
    /** The version this transaction commits as. */
    readonly commitVersion: bigint,
    nextIds: { node: bigint; rel: bigint },
    trackChanges: boolean,
  ) {
    super(connection, context, catalog, commitVersion - 1n);
    this.nextNodeId = nextIds.node;
    this.nextRelId = nextIds.rel;
    this.state = new TxState(trackChanges);
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

  protected assertOpen(): void {
    if (!this.open) throw graphError('Neo.ClientError.Transaction.TransactionNotFound', 'The transaction is closed.');
  }

  /** Validates every value first, then maps keys to token ids (creating tokens). */
  protected keyIdsOf(properties: CypherMap): Map<number, CypherValue> {
    for (const value of properties.values()) if (value !== null) assertStorableProperty(value);
    const keys = this.context.tokens.keys;
    const record = new Map<number, CypherValue>();
    for (const [key, value] of properties) {
      if (value !== null) record.set(keys.getOrCreate(key, this.connection), value);
    }
    return record;
  }

  /**
   * Unique-index checks for an entity about to be indexed with `props` in `indexes`. Each unique
   * key is locked first, so two transactions cannot both claim it before either commits.
   */
  protected checkUnique(indexes: readonly IndexEntry[] | undefined, id: bigint, props: ReadonlyMap<number, CypherValue>): void {
    if (indexes === undefined) return;
    const guard = this.guard;
    for (const index of indexes) {
      if (guard !== null && index.unique) {
        const values = indexedValues(index, props);
        if (values !== null) guard.lock(`u${index.id}:${compositeKey(values)!.toString('hex')}`);
      }
      assertUnique(this.connection, index, id, props);
    }
  }

  /** Locks an existing node or relationship (`n<id>` / `r<id>`) and checks the version it is first changed at. */
  protected lockExisting(key: string, headVersion: bigint): void {
    const guard = this.guard;
    if (guard === null) return;
    guard.lock(key);
    if (headVersion < this.commitVersion) guard.firstWrite(key, headVersion);
  }

  /**
   * MERGE's create: locks each (label, property = value) pair of the pattern (or the label alone
   * when it has no properties), so a concurrent MERGE of the same pattern waits for this
   * transaction and then matches what it created instead of creating a duplicate.
   */
  protected lockMergeKeys(labels: readonly string[], properties: CypherMap): void {
    const guard = this.guard;
    if (guard === null) return;
    for (const label of labels.length === 0 ? [''] : labels) {
      let keyed = false;
      for (const [key, value] of properties) {
        if (value === null) continue;
        guard.lock(`m${label}\u0000${key}\u0000${compositeKey([value])?.toString('hex') ?? ''}`);
        keyed = true;
      }
      if (!keyed) guard.lock(`m${label}`);
    }
  }

  /** Distinct label ids in ascending id order (the order Neo4j reports labels in). */
  protected labelIdsOf(labels: readonly string[]): number[] {
    const dictionary = this.context.tokens.labels;
    if (labels.length === 1) return [dictionary.getOrCreate(labels[0]!, this.connection)];
    return [...new Set(labels.map((l) => dictionary.getOrCreate(l, this.connection)))].sort((a, b) => a - b);
  }

  protected touchNode(id: bigint): void {
    if (this.catalog.hasCommitChecks) this.state.touchedNodes.add(id);
  }

  protected touchRel(id: bigint): void {
    if (this.catalog.hasCommitChecks) this.state.touchedRels.add(id);
  }
}
