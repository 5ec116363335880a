/**
 * Change data capture (Neo4j's `db.cdc.*`): while a database's `txLogEnrichment` option is
 * `DIFF` or `FULL`, every committed write transaction appends its changes to the table
 * `cdc_changes` of the database file, inside the commit's own SQLite transaction (so a change is
 * captured exactly when it commits, and survives restarts). Each row is one changed entity:
 * (commit version, sequence in the transaction, commit time, encoded `{event, metadata}` map in
 * Neo4j's change event format). Before-states come from the history rows the commit archived.
 *
 * Capture gaps: `meta.cdc_last` is the last version committed while capture was on, and
 * `meta.cdc_floor` the oldest position from which every later change is captured (it moves up
 * when a commit happened without capture, and when the MVCC prune drops old changes).
 */
import type { SchemaCatalog } from '../catalog/schema-catalog.js';
import type { EnrichmentMode } from '../catalog/option-catalog.js';
import { HistoryReader } from '../mvcc/history-reader.js';
import { CypherDateTime, type CypherMap, type CypherValue } from '../values/types.js';
import { decodeStandalone, encodeStandalone } from './codec/value-codec.js';
import type { ChangeEvent, CommitOrigin, GraphReader, NodeRecord, RelationshipRecord } from './graph-store.js';
import type { Connection } from './sqlite/connection.js';
import type { StoreContext } from './store-context.js';

const CHANGES_SQL = `CREATE TABLE IF NOT EXISTS cdc_changes (
  version INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  committed_at INTEGER NOT NULL,
  event BLOB NOT NULL,
  PRIMARY KEY (version, seq)
) WITHOUT ROWID`;

/** One stored change. */
export interface CapturedChange {
  readonly version: bigint;
  readonly seq: number;
  /** `{event, metadata}` as Neo4j's db.cdc.query yields them. */
  readonly event: CypherMap;
  readonly metadata: CypherMap;
}

/** Creates the change table when missing. */
export function ensureChangeTable(connection: Connection): void {
  connection.db.exec(CHANGES_SQL);
}

function meta(connection: Connection, key: string): bigint | null {
  const row = connection.raw('SELECT value FROM meta WHERE key = ?').get(key) as [bigint | number] | undefined;
  return row === undefined ? null : BigInt(row[0]);
}

function setMeta(connection: Connection, key: string, value: bigint): void {
  connection.stmt('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(key, value);
}

/** The oldest version after which every change is captured (0 when nothing was ever missed). */
export function captureFloor(connection: Connection): bigint {
  return meta(connection, 'cdc_floor') ?? 0n;
}

function dateTime(ms: number): CypherDateTime {
  const epochSecond = Math.floor(ms / 1000);
  return new CypherDateTime(BigInt(epochSecond), (ms - epochSecond * 1000) * 1_000_000, 0, null);
}

function propertiesMap(properties: CypherMap, only: ReadonlySet<string> | null): CypherMap {
  if (only === null) return new Map(properties);
  return new Map([...properties].filter(([key]) => only.has(key)));
}

function sameValue(a: CypherValue | undefined, b: CypherValue | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return Buffer.compare(encodeStandalone(a), encodeStandalone(b)) === 0;
}

/** Keys whose value differs between two property maps (DIFF mode keeps only these). */
function changedKeys(before: CypherMap, after: CypherMap): Set<string> {
  const keys = new Set<string>();
  for (const key of new Set([...before.keys(), ...after.keys()])) if (!sameValue(before.get(key), after.get(key))) keys.add(key);
  return keys;
}

/** Neo4j's `keys`: for each label/type with a key constraint, the key properties' values. */
function entityKeys(reader: GraphReader, entityType: 'NODE' | 'RELATIONSHIP', tokens: readonly string[], properties: CypherMap): CypherMap {
  const keys = new Map<string, CypherValue>();
  for (const constraint of reader.constraints()) {
    if (constraint.entityType !== entityType || !constraint.type.endsWith('_KEY')) continue;
    const token = constraint.labelsOrTypes[0]!;
    if (!tokens.includes(token)) continue;
    const key = new Map(constraint.properties.map((p) => [p, properties.get(p) ?? null] as const));
    keys.set(token, [...((keys.get(token) as CypherValue[] | undefined) ?? []), key]);
  }
  return keys;
}

/** What building the events of one commit reads. */
interface CommitView {
  readonly after: GraphReader;
  readonly before: GraphReader;
  readonly mode: EnrichmentMode;
}

function nodeState(node: NodeRecord | null, only: ReadonlySet<string> | null): CypherValue {
  if (node === null) return null;
  return new Map<string, CypherValue>([
    ['labels', [...node.labels]],
    ['properties', propertiesMap(node.properties, only)],
  ]);
}

function nodeEvent(view: CommitView, id: bigint, operation: 'c' | 'u' | 'd'): CypherMap | null {
  const before = operation === 'c' ? null : view.before.getNode(id);
  const after = operation === 'd' ? null : view.after.getNode(id);
  const current = after ?? before;
  if (current === null) return null;
  const only = view.mode === 'DIFF' && before !== null && after !== null ? changedKeys(before.properties, after.properties) : null;
  const labels = [...new Set([...(before?.labels ?? []), ...(after?.labels ?? [])])];
  return new Map<string, CypherValue>([
    ['elementId', view.after.nodeElementId(id)],
    ['eventType', 'n'],
    ['operation', operation],
    ['labels', [...current.labels]],
    ['keys', entityKeys(view.after, 'NODE', labels, current.properties)],
    [
      'state',
      new Map<string, CypherValue>([
        ['before', nodeState(before, only)],
        ['after', nodeState(after, only)],
      ]),
    ],
  ]);
}

function endpoint(view: CommitView, id: bigint): CypherMap {
  const node = view.after.getNode(id) ?? view.before.getNode(id);
  const labels = node === null ? [] : [...node.labels];
  return new Map<string, CypherValue>([
    ['elementId', view.after.nodeElementId(id)],
    ['labels', labels],
    ['keys', node === null ? new Map() : entityKeys(view.after, 'NODE', labels, node.properties)],
  ]);
}

function relationshipState(relationship: RelationshipRecord | null, only: ReadonlySet<string> | null): CypherValue {
  return relationship === null ? null : new Map<string, CypherValue>([['properties', propertiesMap(relationship.properties, only)]]);
}

function relationshipEvent(view: CommitView, id: bigint, operation: 'c' | 'u' | 'd'): CypherMap | null {
  const before = operation === 'c' ? null : view.before.getRelationship(id);
  const after = operation === 'd' ? null : view.after.getRelationship(id);
  const current = after ?? before;
  if (current === null) return null;
  const only = view.mode === 'DIFF' && before !== null && after !== null ? changedKeys(before.properties, after.properties) : null;
  return new Map<string, CypherValue>([
    ['elementId', view.after.relationshipElementId(id)],
    ['eventType', 'r'],
    ['operation', operation],
    ['type', current.type],
    ['start', endpoint(view, current.startId)],
    ['end', endpoint(view, current.endId)],
    ['keys', entityKeys(view.after, 'RELATIONSHIP', [current.type], current.properties)],
    [
      'state',
      new Map<string, CypherValue>([
        ['before', relationshipState(before, only)],
        ['after', relationshipState(after, only)],
      ]),
    ],
  ]);
}

const OPERATIONS: Readonly<Record<ChangeEvent['kind'], 'c' | 'u' | 'd'>> = {
  nodeCreated: 'c',
  nodeUpdated: 'u',
  nodeDeleted: 'd',
  relationshipCreated: 'c',
  relationshipUpdated: 'u',
  relationshipDeleted: 'd',
};

/** What `recordChanges` needs of the committing transaction. */
export interface CapturedCommit {
  readonly connection: Connection;
  readonly context: StoreContext;
  readonly schema: SchemaCatalog;
  /** The transaction itself: reads its final (after) state. */
  readonly reader: GraphReader;
  readonly version: bigint;
  readonly committedAt: number;
  /** Who committed (null for internal writes: then the commit time stands for the start). */
  readonly origin: CommitOrigin | null;
  readonly databaseId: string;
  readonly events: readonly ChangeEvent[];
}

/**
 * Appends the changes of a committing transaction (called inside its SQLite transaction, after
 * its writes): one row per changed entity, nodes first, in first-change order.
 */
export function recordChanges(commit: CapturedCommit, mode: EnrichmentMode): void {
  const { connection, version, origin } = commit;
  const last = meta(connection, 'cdc_last');
  if (last !== version - 1n) setMeta(connection, 'cdc_floor', version - 1n);
  setMeta(connection, 'cdc_last', version);
  const view: CommitView = {
    after: commit.reader,
    before: new HistoryReader(connection, commit.context, commit.schema, version - 1n),
    mode,
  };
  const metadata = new Map<string, CypherValue>([
    ['captureMode', mode],
    ['databaseId', commit.databaseId],
    ['txStartTime', dateTime(origin?.startedAt ?? commit.committedAt)],
    ['txCommitTime', dateTime(commit.committedAt)],
    ['executingUser', origin?.executingUser ?? ''],
    ['authenticatedUser', origin?.authenticatedUser ?? ''],
    ['connectionType', origin?.connectionType ?? 'embedded'],
    ['connectionClient', origin?.connectionClient ?? ''],
    ['connectionServer', origin?.connectionServer ?? ''],
    ['serverId', origin?.serverId ?? ''],
    ['txMetadata', new Map(origin?.metadata ?? [])],
  ]);
  const insert = connection.stmt('INSERT INTO cdc_changes (version, seq, committed_at, event) VALUES (?, ?, ?, ?)');
  let seq = 0;
  for (const change of commit.events) {
    const operation = OPERATIONS[change.kind];
    const isNode = change.kind.startsWith('node');
    const id = 'id' in change ? change.id : 'node' in change ? change.node.id : change.relationship.id;
    const event = isNode ? nodeEvent(view, id, operation) : relationshipEvent(view, id, operation);
    if (event === null) continue;
    const row = new Map<string, CypherValue>([
      ['event', event],
      ['metadata', metadata],
    ]);
    insert.run(version, seq++, commit.committedAt, encodeStandalone(row));
  }
}

/** Stored changes strictly after (version, seq) and at most at `upTo`, in commit order, `limit` at a time. */
export function readChanges(connection: Connection, version: bigint, seq: number, upTo: bigint, limit: number): CapturedChange[] {
  const rows = connection
    .raw(
      'SELECT version, seq, event FROM cdc_changes WHERE (version > @v OR (version = @v AND seq > @s)) AND version <= @upTo ORDER BY version, seq LIMIT @limit',
    )
    .all({ v: version, s: seq, upTo, limit }) as [bigint, bigint | number, Buffer][];
  return rows.map(([v, s, blob]) => {
    const decoded = decodeStandalone(blob) as CypherMap;
    return { version: BigInt(v), seq: Number(s), event: decoded.get('event') as CypherMap, metadata: decoded.get('metadata') as CypherMap };
  });
}

/** Drops changes committed before `cutoffMs` (the MVCC prune's retention window) and raises the floor. */
export function pruneChanges(connection: Connection, cutoffMs: number): number {
  const newest = connection.raw('SELECT max(version) FROM cdc_changes WHERE committed_at < ?').get(cutoffMs) as [bigint | null];
  if (newest[0] === null) return 0;
  const removed = connection.stmt('DELETE FROM cdc_changes WHERE version <= ?').run(newest[0]).changes;
  if (BigInt(newest[0]) > captureFloor(connection)) setMeta(connection, 'cdc_floor', BigInt(newest[0]));
  return removed;
}
