/**
 * The common part of a write transaction: a HeadReader on the writer connection (so it reads
 * its own writes) with the transaction's bookkeeping, the version it commits as, id allocation
 * and the helpers every mutation uses (property validation, unique checks, token ids).
 * `NodeWriter` adds node mutations, `WriteTransaction` relationships, schema and commit.
 */
import { GraphError } from '../errors/index.js';
import type { CypherMap, CypherValue } from '../values/types.js';
import type { WriteCounters } from './graph-store.js';
import type { IndexEntry, SchemaCatalog } from '../catalog/schema-catalog.js';
import { HeadReader } from './head-reader.js';
import type { Connection } from './sqlite/connection.js';
import type { StoreContext } from './store-context.js';
import { assertStorableProperty } from './property-rules.js';
import { assertUnique } from './index-maintenance.js';
import { TxState } from './tx-state.js';

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
    if (!this.open) throw new GraphError('Neo.ClientError.Transaction.TransactionNotFound', 'The transaction is closed.');
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

  /** Unique-index checks for an entity about to be indexed with `props` in `indexes`. */
  protected checkUnique(indexes: readonly IndexEntry[] | undefined, id: bigint, props: ReadonlyMap<number, CypherValue>): void {
    if (indexes === undefined) return;
    for (const index of indexes) assertUnique(this.connection, index, id, props);
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
