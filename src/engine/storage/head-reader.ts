/**
 * Reads the head (current) state of a database through one connection. A `SnapshotReader`
 * runs it inside a SQLite read transaction, so it sees one committed version; the write
 * transaction extends it on the writer connection, so it sees its own writes.
 */
import type { Connection } from './sqlite/connection.js';
import type { CypherValue } from '../values/types.js';
import type {
  AdjacencySnapshot,
  Direction,
  GraphReader,
  IndexPredicate,
  NodePropertyColumns,
  NodeRecord,
  RelationshipHandle,
  RelationshipRecord,
} from './graph-store.js';
import type { IndexEntry, SchemaCatalog } from '../catalog/schema-catalog.js';
import { decodeRecord, findInRecord } from './codec/value-codec.js';
import { scanNodeColumns } from './codec/node-columns.js';
import { adjacencySnapshot } from './codec/adjacency-snapshot.js';
import { keyMatches, keyScanFor, indexKey } from './codec/index-key.js';
import { PAGE_SIZES, seekIndex, seekSingleNode } from './index-seek.js';
import { MIN_PACKED_ROWS, NodeRowPage, PACKED_NODE_COLUMNS } from './node-row-pages.js';
import { CatalogReads } from './catalog-reads.js';
import { indexAnswers } from './index-answers.js';
import { degreeOf, expandNode, neighbourRows } from './adjacency.js';
import type { StoreContext } from './store-context.js';
import { ArgumentError } from '../errors/index.js';
import { StateKey, labelCountKey, readState, readTokenCounts, typeCountKey } from './sqlite/state-table.js';

const NODE_SQL = 'SELECT labels, props FROM nodes WHERE id = ?';
const REL_SQL = 'SELECT type, src, dst, props FROM rels WHERE id = ?';
const REL_HANDLE_SQL = 'SELECT type, src, dst FROM rels WHERE id = ?';
const ALL_NODES_SQL = 'SELECT id FROM nodes WHERE id > ? ORDER BY id LIMIT ';
const LABEL_NODES_SQL = 'SELECT node FROM node_labels WHERE label = ? AND node > ? ORDER BY node LIMIT ';
const ALL_NODE_ROWS_SQL = `SELECT ${PACKED_NODE_COLUMNS} FROM nodes n WHERE n.id BETWEEN ? AND ?`;
const LABEL_NODE_ROWS_SQL = `SELECT ${PACKED_NODE_COLUMNS} FROM node_labels l JOIN nodes n ON n.id = l.node WHERE l.label = ? AND l.node BETWEEN ? AND ?`;
/**
 * Id page sizes of node scans in read transactions: small first pages, so `LIMIT n` reads few
 * more ids (and rows) than it returns; the last one repeats.
 */
const SCAN_PAGE_SIZES = [32, 96, 256, 1024, 4096] as const;
const ALL_RELS_SQL = 'SELECT id, type, src, dst FROM rels WHERE id > ? ORDER BY id LIMIT ';
const TYPE_RELS_SQL = 'SELECT id, type, src, dst FROM rels WHERE type = ? AND id > ? ORDER BY id LIMIT ';

/** Paged id scan: runs `sql` + page size (params..., cursor) until a short page. */
function* pagedIds(connection: Connection, sql: string, params: readonly unknown[]): Generator<bigint> {
  let cursor = -1n;
  for (let page = 0; ; page++) {
    const size = PAGE_SIZES[Math.min(page, PAGE_SIZES.length - 1)]!;
    const ids = connection.pluck(sql + size).all(...params, cursor) as bigint[];
    for (const id of ids) yield id;
    if (ids.length < size) return;
    cursor = ids[ids.length - 1]!;
  }
}

/** GraphReader over the head tables of one connection. */
export class HeadReader extends CatalogReads implements GraphReader {
  /**
   * When true (write transactions), scans return materialized arrays, so a caller may write
   * while it iterates and never sees rows created by its own later writes.
   */
  protected readonly materializeScans: boolean = false;

  constructor(
    connection: Connection,
    context: StoreContext,
    catalog: SchemaCatalog,
    public version: bigint,
  ) {
    super(connection, context, catalog);
  }

  /**
   * The last node row read ([labels, props]): `RETURN n.a, n.b` reads one row, not two. Only read
   * transactions use it (their snapshot never changes); write transactions read through.
   */
  private lastNodeId = -1n;
  private lastNodeRow: [string, Buffer | null] | undefined = undefined;

  /** The head row of a node, or undefined. */
  protected readNodeRow(id: bigint): [string, Buffer | null] | undefined {
    if (id === this.lastNodeId) return this.lastNodeRow;
    const prefetched = this.fromScanPage(id);
    const row = prefetched !== null ? prefetched : (this.connection.raw(NODE_SQL).get(id) as [string, Buffer | null] | undefined);
    if (this.cacheLastRow) {
      this.lastNodeId = id;
      this.lastNodeRow = row;
    }
    return row;
  }

  private lastRelId = -1n;
  private lastRelRow: [bigint, bigint, bigint, Buffer | null] | undefined = undefined;

  /** The head row of a relationship ([type, src, dst, props]), or undefined. */
  protected readRelRow(id: bigint): [bigint, bigint, bigint, Buffer | null] | undefined {
    if (id === this.lastRelId) return this.lastRelRow;
    const row = this.connection.raw(REL_SQL).get(id) as [bigint, bigint, bigint, Buffer | null] | undefined;
    if (this.cacheLastRow) {
      this.lastRelId = id;
      this.lastRelRow = row;
    }
    return row;
  }

  /** Whether the last-row cache may be used (false for write transactions). */
  protected get cacheLastRow(): boolean {
    return true;
  }

  /**
   * The page a node scan of this read transaction returned last. When a row of that page is
   * read (labels, properties), the rows of the whole page are loaded with one packed query
   * (node-row-pages.ts), so `MATCH (n:L) RETURN n.x` costs one statement per page rather than
   * one per node; a scan whose rows are never read costs nothing extra. A nested scan replaces
   * the page.
   */
  private scanPage: NodeRowPage | null = null;

  /**
   * The relationships the last expansion of this read transaction returned, and the rows of the
   * nodes they reach once one of those is read (then loaded in one packed statement; a query
   * that never reads them, like a count, costs nothing extra).
   */
  private lastExpansion: {
    readonly handles: readonly RelationshipHandle[];
    readonly nodeId: bigint;
    readonly direction: Direction;
    readonly types: readonly string[] | undefined;
  } | null = null;
  private neighbourPage: NodeRowPage | null = null;

  /** The row of `id` from the current scan or expansion page; null when on neither. */
  private fromScanPage(id: bigint): [string, Buffer | null] | undefined | null {
    const page = this.scanPage;
    const scanned = page === null ? null : page.row(this.connection, id);
    if (scanned !== null) return scanned;
    const expansion = this.lastExpansion;
    if (expansion !== null) {
      this.lastExpansion = null;
      const rows = neighbourRows(
        this.context.tokens.types,
        expansion.handles,
        expansion.nodeId,
        expansion.direction,
        expansion.types,
        PACKED_NODE_COLUMNS,
        MIN_PACKED_ROWS,
      );
      this.neighbourPage = rows === null ? null : new NodeRowPage(rows.ids, rows.sql, rows.params);
    }
    return this.neighbourPage === null ? null : this.neighbourPage.row(this.connection, id);
  }

  /**
   * Paged id scan that registers each page for batched row loading. The first page holds
   * `expected` ids when given (at most the largest page; its size is a bound parameter, so any
   * LIMIT shares one prepared statement), so `LIMIT n` above the scan reads n ids in one page;
   * later pages take the SCAN_PAGE_SIZES above it.
   */
  private *pagedScan(idSql: string, rowSql: string, params: readonly unknown[], expected: number | undefined): Generator<bigint> {
    let cursor = -1n;
    const last = SCAN_PAGE_SIZES.length - 1;
    let size: number = SCAN_PAGE_SIZES[0];
    let next = 1;
    let hinted = false;
    if (expected !== undefined && expected >= 1) {
      size = Math.min(Math.ceil(expected), SCAN_PAGE_SIZES[last]!);
      next = SCAN_PAGE_SIZES.findIndex((standard) => standard > size);
      if (next < 0) next = last;
      hinted = true;
    }
    for (;;) {
      const ids = (
        hinted
          ? this.connection.pluck(idSql + '?').all(...params, cursor, size)
          : this.connection.pluck(idSql + size).all(...params, cursor)
      ) as bigint[];
      if (ids.length > 0) this.scanPage = new NodeRowPage(ids, rowSql, params);
      yield* ids;
      if (ids.length < size) return;
      cursor = ids[ids.length - 1]!;
      size = SCAN_PAGE_SIZES[Math.min(next++, last)]!;
      hinted = false;
    }
  }

  protected scan<T>(iterable: Iterable<T>): Iterable<T> {
    return this.materializeScans ? Array.from(iterable) : iterable;
  }

  getNode(id: bigint): NodeRecord | null {
    const row = this.readNodeRow(id);
    if (row === undefined) return null;
    return {
      id,
      labels: this.context.labelSets.names(row[0]),
      properties: decodeRecord(row[1], (k) => this.context.tokens.keys.nameOf(k)),
    };
  }

  getRelationship(id: bigint): RelationshipRecord | null {
    const row = this.readRelRow(id);
    if (row === undefined) return null;
    return {
      id,
      type: this.context.tokens.types.nameOf(Number(row[0])),
      startId: row[1],
      endId: row[2],
      properties: decodeRecord(row[3], (k) => this.context.tokens.keys.nameOf(k)),
    };
  }

  /** The property value; null when absent; undefined when the relationship does not exist. */
  relationshipProperty(id: bigint, key: string): CypherValue | undefined {
    const row = this.readRelRow(id);
    if (row === undefined) return undefined;
    const props = row[3];
    const keyId = this.context.tokens.keys.idOf(key);
    if (keyId === undefined) return null;
    return findInRecord(props, keyId) ?? null;
  }

  allNodeIds(expected?: number): Iterable<bigint> {
    if (!this.cacheLastRow) return this.scan(pagedIds(this.connection, ALL_NODES_SQL, []));
    return this.pagedScan(ALL_NODES_SQL, ALL_NODE_ROWS_SQL, [], expected);
  }

  nodeIdsByLabel(label: string, expected?: number): Iterable<bigint> {
    const labelId = this.context.tokens.labels.idOf(label);
    if (labelId === undefined) return [];
    if (!this.cacheLastRow) return this.scan(pagedIds(this.connection, LABEL_NODES_SQL, [labelId]));
    return this.pagedScan(LABEL_NODES_SQL, LABEL_NODE_ROWS_SQL, [labelId], expected);
  }

  /** Column batches of selected properties; a read transaction caches them per version (codec/node-columns.ts). */
  scanNodeProperties(label: string | null, keys: readonly string[]): Iterable<NodePropertyColumns> {
    return scanNodeColumns(() => this.connection, this.context, label, keys, this.cacheLastRow ? this.version : null);
  }

  seekNodes(label: string, property: string, predicate: IndexPredicate): Iterable<bigint> {
    const index = this.requireIndex('NODE', label, property);
    if (!indexAnswers(index, predicate)) {
      return this.scan(this.filterNodes(this.nodeIdsByLabel(label), property, predicate));
    }
    const scan = keyScanFor(predicate);
    if (this.cacheLastRow && scan.kind === 'keys' && scan.keys.length === 1) {
      const single = seekSingleNode(this.connection, index.id, scan.keys[0]!);
      if (single !== null) {
        if (single.length === 0) return single as [];
        const [id, labels, props] = single[0]!;
        this.lastNodeId = id;
        this.lastNodeRow = [labels, props];
        return [id];
      }
    }
    return this.scan(seekIndex(this.connection, index.id, scan));
  }

  private *filterNodes(ids: Iterable<bigint>, property: string, predicate: IndexPredicate): Generator<bigint> {
    const scan = keyScanFor(predicate);
    for (const id of ids) {
      const value = this.nodeProperty(id, property);
      if (value === undefined || value === null) continue;
      const key = indexKey(value);
      if (key !== null && keyMatches(scan, key)) yield id;
    }
  }

  private requireIndex(entityType: 'NODE' | 'RELATIONSHIP', token: string, property: string): IndexEntry {
    const dictionary = entityType === 'NODE' ? this.context.tokens.labels : this.context.tokens.types;
    const tokenId = dictionary.idOf(token);
    const keyId = this.context.tokens.keys.idOf(property);
    const index = tokenId === undefined || keyId === undefined ? null : this.catalog.seekableIndex(entityType, tokenId, keyId);
    if (index === null) {
      const pattern = entityType === 'NODE' ? `(:${token} {${property}})` : `()-[:${token} {${property}}]-()`;
      throw new ArgumentError(`No index covers ${pattern}; call findIndex() before seeking.`);
    }
    return index;
  }

  expand(nodeId: bigint, direction: Direction, types?: readonly string[]): Iterable<RelationshipHandle> {
    const handles = expandNode(this.connection, this.context.tokens.types, nodeId, direction, types);
    if (this.cacheLastRow) {
      this.lastExpansion = { handles, nodeId, direction, types };
      this.neighbourPage = null;
    }
    return handles;
  }

  allRelationships(types?: readonly string[]): Iterable<RelationshipHandle> {
    if (types === undefined || types.length === 0) return this.scan(this.relationshipPages(ALL_RELS_SQL, []));
    const typeIds = [...new Set(types)].map((t) => this.context.tokens.types.idOf(t)).filter((t) => t !== undefined);
    const self = this;
    function* byTypes(): Generator<RelationshipHandle> {
      for (const typeId of typeIds) yield* self.relationshipPages(TYPE_RELS_SQL, [typeId]);
    }
    return this.scan(byTypes());
  }

  private *relationshipPages(sql: string, params: readonly unknown[]): Generator<RelationshipHandle> {
    const typeNames = this.context.tokens.types;
    let cursor = -1n;
    for (let page = 0; ; page++) {
      const size = PAGE_SIZES[Math.min(page, PAGE_SIZES.length - 1)]!;
      const rows = this.connection.raw(sql + size).all(...params, cursor) as [bigint, bigint, bigint, bigint][];
      for (const [id, type, src, dst] of rows) yield { id, type: typeNames.nameOf(Number(type)), startId: src, endId: dst };
      if (rows.length < size) return;
      cursor = rows[rows.length - 1]![0];
    }
  }

  seekRelationships(type: string, property: string, predicate: IndexPredicate): Iterable<RelationshipHandle> {
    const index = this.requireIndex('RELATIONSHIP', type, property);
    const self = this;
    function* handles(ids: Iterable<bigint>): Generator<RelationshipHandle> {
      for (const id of ids) {
        const handle = self.relationshipHandle(id);
        if (handle !== null) yield handle;
      }
    }
    if (!indexAnswers(index, predicate)) {
      const scan = keyScanFor(predicate);
      const filtered = (function* () {
        for (const rel of self.allRelationships([type])) {
          const value = self.relationshipProperty(rel.id, property);
          if (value === undefined || value === null) continue;
          const key = indexKey(value);
          if (key !== null && keyMatches(scan, key)) yield rel;
        }
      })();
      return this.scan(filtered);
    }
    return this.scan(handles(seekIndex(this.connection, index.id, keyScanFor(predicate))));
  }

  /** Identity and endpoints of a relationship, or null. */
  relationshipHandle(id: bigint): RelationshipHandle | null {
    const row = this.connection.raw(REL_HANDLE_SQL).get(id) as [bigint, bigint, bigint] | undefined;
    if (row === undefined) return null;
    return { id, type: this.context.tokens.types.nameOf(Number(row[0])), startId: row[1], endId: row[2] };
  }

  /** The in-memory adjacency of a read transaction's version, once traversals paid for it (codec/adjacency-snapshot.ts). */
  adjacencySnapshot(work: number): AdjacencySnapshot | null {
    if (!this.cacheLastRow) return null;
    return adjacencySnapshot(this.connection, this.context, this.version, work, () => this.countRelationships());
  }

  degree(nodeId: bigint, direction: Direction, types?: readonly string[]): number {
    return degreeOf(this.connection, this.context.tokens.types, nodeId, direction, types);
  }

  /** A committed state-table value (counts) as this reader sees it; snapshots memoize them per version. */
  protected committedState(key: string): bigint {
    return readState(this.connection, key);
  }

  countNodes(label?: string): number {
    if (label === undefined) return Number(this.committedState(StateKey.nodeCount)) + this.nodeCountDelta(undefined);
    const labelId = this.context.tokens.labels.idOf(label);
    if (labelId === undefined) return 0;
    return Number(this.committedState(labelCountKey(labelId))) + this.nodeCountDelta(labelId);
  }

  countRelationships(type?: string): number {
    if (type === undefined) return Number(this.committedState(StateKey.relCount)) + this.relCountDelta(undefined);
    const typeId = this.context.tokens.types.idOf(type);
    if (typeId === undefined) return 0;
    return Number(this.committedState(typeCountKey(typeId))) + this.relCountDelta(typeId);
  }

  /** Uncommitted change of a node count (write transactions override). */
  protected nodeCountDelta(_labelId: number | undefined): number {
    return 0;
  }

  /** Uncommitted change of a relationship count (write transactions override). */
  protected relCountDelta(_typeId: number | undefined): number {
    return 0;
  }

  /** Token ids with a positive count (committed count plus this transaction's delta). */
  private tokensInUse(prefix: 'label' | 'type', deltas: ReadonlyMap<number, number>): number[] {
    const counts = new Map<number, number>();
    for (const [id, count] of readTokenCounts(this.connection, prefix)) counts.set(id, Number(count));
    for (const [id, delta] of deltas) counts.set(id, (counts.get(id) ?? 0) + delta);
    return [...counts]
      .filter(([, count]) => count > 0)
      .map(([id]) => id)
      .sort((a, b) => a - b);
  }

  /** This transaction's uncommitted count deltas (write transactions override). */
  protected pendingDeltas(_prefix: 'label' | 'type'): ReadonlyMap<number, number> {
    return new Map();
  }

  labels(): readonly string[] {
    const names = this.context.tokens.labels;
    return this.tokensInUse('label', this.pendingDeltas('label')).map((id) => names.nameOf(id));
  }

  relationshipTypes(): readonly string[] {
    const names = this.context.tokens.types;
    return this.tokensInUse('type', this.pendingDeltas('type')).map((id) => names.nameOf(id));
  }
}
