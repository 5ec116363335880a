/**
 * The version chain of one node or relationship as a reader at version R sees it: every version
 * produced at or before R that history still holds (closed versions in `node_history` /
 * `rel_history`, the head in `nodes` / `rels`), oldest first. A version closed after R is still
 * open for that reader. Versions pruned by the MVCC lifecycle are gone from the chain.
 */
import type { Connection } from '../storage/sqlite/connection.js';
import type { StoreContext } from '../storage/store-context.js';
import type { CypherMap } from '../values/types.js';
import { decodeRecord } from '../storage/codec/value-codec.js';

/** One version of an entity. */
export interface EntityVersion {
  /** The commit version that produced it. */
  readonly version: bigint;
  /** The commit version that replaced or deleted it, or null while it is current (as of the reader). */
  readonly endVersion: bigint | null;
  /** True when the entity was deleted at `endVersion` (no later version follows). */
  readonly deleted: boolean;
  /** Node labels (empty for a relationship). */
  readonly labels: readonly string[];
  /** Relationship type, start and end node ids (null for a node). */
  readonly type: string | null;
  readonly startId: bigint | null;
  readonly endId: bigint | null;
  readonly properties: CypherMap;
}

const NODE_VERSIONS = `SELECT from_version, to_version, labels, props FROM node_history WHERE id = @id AND from_version <= @v
  UNION ALL SELECT version, NULL, labels, props FROM nodes WHERE id = @id AND version <= @v ORDER BY 1`;
const REL_VERSIONS = `SELECT from_version, to_version, type, src, dst, props FROM rel_history WHERE id = @id AND from_version <= @v
  UNION ALL SELECT version, NULL, type, src, dst, props FROM rels WHERE id = @id AND version <= @v ORDER BY 1`;

type NodeRow = [bigint, bigint | null, string, Buffer | null];
type RelRow = [bigint, bigint | null, bigint, bigint, bigint, Buffer | null];

/** The versions of node or relationship `id` visible to a reader at version `upTo`, oldest first. */
export function readEntityVersions(
  connection: Connection,
  context: StoreContext,
  kind: 'node' | 'relationship',
  id: bigint,
  upTo: bigint,
): EntityVersion[] {
  const keyName = (key: number): string => context.tokens.keys.nameOf(key);
  const rows =
    kind === 'node'
      ? (connection.raw(NODE_VERSIONS).all({ id, v: upTo }) as NodeRow[]).map((r) => ({
          from: r[0],
          to: r[1],
          labels: context.labelSets.names(r[2]),
          type: null,
          startId: null,
          endId: null,
          props: r[3],
        }))
      : (connection.raw(REL_VERSIONS).all({ id, v: upTo }) as RelRow[]).map((r) => ({
          from: r[0],
          to: r[1],
          labels: [] as readonly string[],
          type: context.tokens.types.nameOf(Number(r[2])),
          startId: r[3],
          endId: r[4],
          props: r[5],
        }));
  return rows.map((row, index) => {
    const endVersion = row.to === null || row.to > upTo ? null : row.to;
    return {
      version: row.from,
      endVersion,
      deleted: endVersion !== null && index === rows.length - 1,
      labels: row.labels,
      type: row.type,
      startId: row.startId,
      endId: row.endId,
      properties: decodeRecord(row.props, keyName),
    };
  });
}

/** The versions that created an entity and produced its current state (null: no such entity). */
export interface EntityStamps {
  readonly created: bigint;
  readonly updated: bigint;
}

const STAMP_SQL = {
  node: {
    head: 'SELECT version FROM nodes WHERE id = ?',
    oldest: 'SELECT min(from_version) FROM node_history WHERE id = ?',
  },
  relationship: {
    head: 'SELECT version FROM rels WHERE id = ?',
    oldest: 'SELECT min(from_version) FROM rel_history WHERE id = ?',
  },
} as const;
const CREATED_SQL = 'SELECT version FROM entity_created WHERE kind = ? AND id = ?';

/**
 * The creating and the current version of a live node or relationship: the current one is its
 * head's, the creating one its oldest retained version's, or the one the pruner kept when it
 * removed that version (entity_created). Null when the entity does not exist now.
 */
export function readEntityStamps(connection: Connection, kind: 'node' | 'relationship', id: bigint): EntityStamps | null {
  const sql = STAMP_SQL[kind];
  const updated = connection.pluck(sql.head).get(id) as bigint | undefined;
  if (updated === undefined) return null;
  let created = updated;
  const oldest = connection.pluck(sql.oldest).get(id) as bigint | null;
  if (oldest !== null && oldest < created) created = oldest;
  const kept = connection.pluck(CREATED_SQL).get(kind === 'node' ? 0 : 1, id) as bigint | undefined;
  if (kept !== undefined && kept < created) created = kept;
  return { created, updated };
}
