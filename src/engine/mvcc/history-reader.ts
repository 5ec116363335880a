/**
 * A GraphReader of an older committed version R: it sees heads whose version is <= R plus
 * history rows whose [from_version, to_version) contains R. Indexes only describe heads, so
 * seeks here filter a label/type scan with the same key semantics as the index.
 * The schema (indexes, constraints) reported is the current one.
 */
import type { Connection } from '../storage/sqlite/connection.js';
import type { StoreContext } from '../storage/store-context.js';
import { LabelSetCache } from '../storage/store-context.js';
import type { SchemaCatalog } from '../catalog/schema-catalog.js';
import type { Direction, GraphReader, IndexPredicate, NodeRecord, RelationshipHandle, RelationshipRecord } from '../storage/graph-store.js';
import type { CypherValue } from '../values/types.js';
import { decodeRecord, findInRecord } from '../storage/codec/value-codec.js';
import { indexKey, keyMatches, keyScanFor } from '../storage/codec/index-key.js';
import { CatalogReads } from '../storage/catalog-reads.js';

const NODE_AT = `SELECT labels, props FROM nodes WHERE id = @id AND version <= @v
  UNION ALL SELECT labels, props FROM node_history WHERE id = @id AND from_version <= @v AND to_version > @v`;
const NODES_AT = `SELECT id, labels FROM nodes WHERE version <= @v
  UNION ALL SELECT id, labels FROM node_history WHERE from_version <= @v AND to_version > @v ORDER BY 1`;
const REL_AT = `SELECT type, src, dst, props FROM rels WHERE id = @id AND version <= @v
  UNION ALL SELECT type, src, dst, props FROM rel_history WHERE id = @id AND from_version <= @v AND to_version > @v`;
const RELS_AT = `SELECT id, type, src, dst FROM rels WHERE version <= @v
  UNION ALL SELECT id, type, src, dst FROM rel_history WHERE from_version <= @v AND to_version > @v ORDER BY 1`;
const OUT_AT = `SELECT id, type, src, dst FROM rels WHERE src = @n AND version <= @v
  UNION ALL SELECT id, type, src, dst FROM rel_history WHERE src = @n AND from_version <= @v AND to_version > @v`;
const IN_AT = `SELECT id, type, src, dst FROM rels WHERE dst = @n AND version <= @v
  UNION ALL SELECT id, type, src, dst FROM rel_history WHERE dst = @n AND from_version <= @v AND to_version > @v`;

type RelRow = [bigint, bigint, bigint, bigint];

/** GraphReader at a past version. */
export class HistoryReader extends CatalogReads implements GraphReader {
  constructor(
    connection: Connection,
    context: StoreContext,
    catalog: SchemaCatalog,
    readonly version: bigint,
  ) {
    super(connection, context, catalog);
  }

  protected readNodeRow(id: bigint): [string, Buffer | null] | undefined {
    return this.connection.raw(NODE_AT).get({ id, v: this.version }) as [string, Buffer | null] | undefined;
  }

  private relRow(id: bigint): [bigint, bigint, bigint, Buffer | null] | undefined {
    return this.connection.raw(REL_AT).get({ id, v: this.version }) as [bigint, bigint, bigint, Buffer | null] | undefined;
  }

  private keyName = (id: number): string => this.context.tokens.keys.nameOf(id);

  private handle(row: RelRow): RelationshipHandle {
    return { id: row[0], type: this.context.tokens.types.nameOf(Number(row[1])), startId: row[2], endId: row[3] };
  }

  getNode(id: bigint): NodeRecord | null {
    const row = this.readNodeRow(id);
    if (row === undefined) return null;
    return { id, labels: this.context.labelSets.names(row[0]), properties: decodeRecord(row[1], this.keyName) };
  }

  getRelationship(id: bigint): RelationshipRecord | null {
    const row = this.relRow(id);
    if (row === undefined) return null;
    return {
      id,
      type: this.context.tokens.types.nameOf(Number(row[0])),
      startId: row[1],
      endId: row[2],
      properties: decodeRecord(row[3], this.keyName),
    };
  }

  relationshipProperty(id: bigint, key: string): CypherValue | undefined {
    const row = this.relRow(id);
    if (row === undefined) return undefined;
    const keyId = this.context.tokens.keys.idOf(key);
    return keyId === undefined ? null : (findInRecord(row[3], keyId) ?? null);
  }

  private nodeRows(): [bigint, string][] {
    return this.connection.raw(NODES_AT).all({ v: this.version }) as [bigint, string][];
  }

  allNodeIds(): Iterable<bigint> {
    return this.nodeRows().map((r) => r[0]);
  }

  nodeIdsByLabel(label: string): Iterable<bigint> {
    const labelId = this.context.tokens.labels.idOf(label);
    if (labelId === undefined) return [];
    return this.nodeRows()
      .filter((r) => LabelSetCache.ids(r[1]).includes(labelId))
      .map((r) => r[0]);
  }

  seekNodes(label: string, property: string, predicate: IndexPredicate): Iterable<bigint> {
    const scan = keyScanFor(predicate);
    const result: bigint[] = [];
    for (const id of this.nodeIdsByLabel(label)) {
      const value = this.nodeProperty(id, property);
      if (value === undefined || value === null) continue;
      const key = indexKey(value);
      if (key !== null && keyMatches(scan, key)) result.push(id);
    }
    return result;
  }

  expand(nodeId: bigint, direction: Direction, types?: readonly string[]): Iterable<RelationshipHandle> {
    const wanted = types === undefined || types.length === 0 ? null : new Set(types);
    const result: RelationshipHandle[] = [];
    const add = (rows: RelRow[], skipLoops: boolean): void => {
      for (const row of rows) {
        if (skipLoops && row[2] === row[3]) continue;
        const handle = this.handle(row);
        if (wanted === null || wanted.has(handle.type)) result.push(handle);
      }
    };
    if (direction !== 'in') add(this.connection.raw(OUT_AT).all({ n: nodeId, v: this.version }) as RelRow[], false);
    if (direction !== 'out') add(this.connection.raw(IN_AT).all({ n: nodeId, v: this.version }) as RelRow[], direction === 'both');
    return result;
  }

  allRelationships(types?: readonly string[]): Iterable<RelationshipHandle> {
    const wanted = types === undefined || types.length === 0 ? null : new Set(types);
    const rows = this.connection.raw(RELS_AT).all({ v: this.version }) as RelRow[];
    return rows.map((r) => this.handle(r)).filter((h) => wanted === null || wanted.has(h.type));
  }

  seekRelationships(type: string, property: string, predicate: IndexPredicate): Iterable<RelationshipHandle> {
    const scan = keyScanFor(predicate);
    const result: RelationshipHandle[] = [];
    for (const rel of this.allRelationships([type])) {
      const value = this.relationshipProperty(rel.id, property);
      if (value === undefined || value === null) continue;
      const key = indexKey(value);
      if (key !== null && keyMatches(scan, key)) result.push(rel);
    }
    return result;
  }

  degree(nodeId: bigint, direction: Direction, types?: readonly string[]): number {
    return [...this.expand(nodeId, direction, types)].length;
  }

  countNodes(label?: string): number {
    return [...(label === undefined ? this.allNodeIds() : this.nodeIdsByLabel(label))].length;
  }

  countRelationships(type?: string): number {
    return [...this.allRelationships(type === undefined ? undefined : [type])].length;
  }

  labels(): readonly string[] {
    const ids = new Set<number>();
    for (const [, labels] of this.nodeRows()) for (const id of LabelSetCache.ids(labels)) ids.add(id);
    return [...ids].sort((a, b) => a - b).map((id) => this.context.tokens.labels.nameOf(id));
  }

  relationshipTypes(): readonly string[] {
    return [...new Set([...this.allRelationships()].map((r) => r.type))];
  }
}
