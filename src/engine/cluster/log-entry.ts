/**
 * The replication log entry: one committed write transaction's change record
 * (storage/commit-record.ts) with the database's identity and the digest of the entry it follows,
 * serialised deterministically with the storage value codec (the same bytes for the same commit
 * on every member). The digests chain the entries: a member applies an entry only when it follows
 * the entry the member applied last (docs/replication.md, "One history").
 */
import { createHash } from 'node:crypto';
import type { CypherMap, CypherValue } from '../values/types.js';
import { isList, isMap } from '../values/kinds.js';
import { decodeStandalone, encodeStandalone } from '../storage/codec/value-codec.js';
import type { CommitRecord, SchemaOp } from '../storage/commit-record.js';
import type { ChangeEvent, ConstraintDefinition, ConstraintType, IndexDefinition, IndexType } from '../storage/graph-store.js';

/** Format of the entries this build writes (1: without the previous entry's digest). */
export const LOG_ENTRY_FORMAT = 2n;

/** One log entry: a commit of database `database` (identity `uuid`). */
export interface LogEntry {
  readonly database: string;
  readonly uuid: string;
  readonly record: CommitRecord;
  /** `entryDigest` of the entry this one follows in the log (0: not known, format 1 or the first entry). */
  readonly previous?: bigint;
}

/** A 63-bit digest of an entry's bytes (SHA-256), what the next entry names as `previous`. */
export function entryDigest(bytes: Uint8Array): bigint {
  return createHash('sha256').update(bytes).digest().readBigUInt64BE(0) & 0x7fff_ffff_ffff_ffffn;
}

type Row = readonly CypherValue[];

function sortedProperties(properties: CypherMap): CypherMap {
  return new Map([...properties].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function eventRow(event: ChangeEvent): Row {
  switch (event.kind) {
    case 'nodeCreated':
    case 'nodeUpdated':
      return [event.kind === 'nodeCreated' ? 'nc' : 'nu', event.node.id, [...event.node.labels], sortedProperties(event.node.properties)];
    case 'nodeDeleted':
      return ['nd', event.id, [...event.labels]];
    case 'relationshipCreated':
    case 'relationshipUpdated': {
      const r = event.relationship;
      return [event.kind === 'relationshipCreated' ? 'rc' : 'ru', r.id, r.type, r.startId, r.endId, sortedProperties(r.properties)];
    }
    case 'relationshipDeleted':
      return ['rd', event.id, event.type];
  }
}

function schemaRow(op: SchemaOp): Row {
  switch (op.op) {
    case 'createIndex': {
      const d = op.definition;
      return [op.op, d.name, d.type, d.entityType, [...d.labelsOrTypes], [...d.properties], sortedProperties(d.options)];
    }
    case 'createConstraint': {
      const d = op.definition;
      return [op.op, d.name, d.type, d.entityType, [...d.labelsOrTypes], [...d.properties], d.propertyType];
    }
    case 'dropIndex':
    case 'dropConstraint':
      return [op.op, op.name];
  }
}

/** Serialises an entry. */
export function encodeLogEntry(entry: LogEntry): Buffer {
  const r = entry.record;
  const value: CypherValue = [
    LOG_ENTRY_FORMAT,
    entry.database,
    entry.uuid,
    r.version,
    r.nextNodeId,
    r.nextRelId,
    r.events.map(eventRow),
    r.schema.map(schemaRow),
    r.committedAt === undefined ? null : BigInt(r.committedAt),
    entry.previous ?? 0n,
    r.catalog === undefined ? null : [...r.catalog],
  ];
  return encodeStandalone(value);
}

function fail(message: string): never {
  throw new Error(`Malformed replication log entry: ${message}`);
}

function list(value: CypherValue | undefined): readonly CypherValue[] {
  return isList(value) ? value : fail('expected a list');
}

function text(value: CypherValue | undefined): string {
  return typeof value === 'string' ? value : fail('expected a string');
}

function int(value: CypherValue | undefined): bigint {
  return typeof value === 'bigint' ? value : fail('expected an integer');
}

function map(value: CypherValue | undefined): CypherMap {
  return isMap(value) ? value : fail('expected a map');
}

function texts(value: CypherValue | undefined): string[] {
  return list(value).map(text);
}

function eventOf(row: readonly CypherValue[], database: string): ChangeEvent {
  const tag = text(row[0]);
  switch (tag) {
    case 'nc':
    case 'nu':
      return {
        kind: tag === 'nc' ? 'nodeCreated' : 'nodeUpdated',
        database,
        node: { id: int(row[1]), labels: texts(row[2]), properties: map(row[3]) },
      };
    case 'nd':
      return { kind: 'nodeDeleted', database, id: int(row[1]), labels: texts(row[2]) };
    case 'rc':
    case 'ru':
      return {
        kind: tag === 'rc' ? 'relationshipCreated' : 'relationshipUpdated',
        database,
        relationship: { id: int(row[1]), type: text(row[2]), startId: int(row[3]), endId: int(row[4]), properties: map(row[5]) },
      };
    case 'rd':
      return { kind: 'relationshipDeleted', database, id: int(row[1]), type: text(row[2]) };
    default:
      return fail(`unknown change '${tag}'`);
  }
}

function schemaOf(row: readonly CypherValue[]): SchemaOp {
  const op = text(row[0]);
  const entityType = (value: CypherValue | undefined): 'NODE' | 'RELATIONSHIP' =>
    value === 'NODE' || value === 'RELATIONSHIP' ? value : fail('bad entity type');
  switch (op) {
    case 'createIndex': {
      const definition: Omit<IndexDefinition, 'state' | 'owningConstraint'> = {
        name: text(row[1]),
        type: text(row[2]) as IndexType,
        entityType: entityType(row[3]),
        labelsOrTypes: texts(row[4]),
        properties: texts(row[5]),
        options: map(row[6]),
      };
      return { op, definition };
    }
    case 'createConstraint': {
      const definition: ConstraintDefinition = {
        name: text(row[1]),
        type: text(row[2]) as ConstraintType,
        entityType: entityType(row[3]),
        labelsOrTypes: texts(row[4]),
        properties: texts(row[5]),
        propertyType: row[6] === null ? null : text(row[6]),
      };
      return { op, definition };
    }
    case 'dropIndex':
    case 'dropConstraint':
      return { op, name: text(row[1]) };
    default:
      return fail(`unknown schema command '${op}'`);
  }
}

/** Parses an entry written by `encodeLogEntry`; throws on anything else. */
export function decodeLogEntry(bytes: Uint8Array): LogEntry {
  const value = list(decodeStandalone(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)));
  const format = int(value[0]);
  if (format !== 1n && format !== LOG_ENTRY_FORMAT) fail(`unsupported format ${format}`);
  const database = text(value[1]);
  const committedAt = value[8] ?? null;
  const catalog = value[10] ?? null;
  return {
    database,
    uuid: text(value[2]),
    record: {
      version: int(value[3]),
      nextNodeId: int(value[4]),
      nextRelId: int(value[5]),
      events: list(value[6]).map((row) => eventOf(list(row), database)),
      schema: list(value[7]).map((row) => schemaOf(list(row))),
      ...(committedAt === null ? {} : { committedAt: Number(int(committedAt)) }),
      ...(catalog === null ? {} : { catalog: list(catalog) }),
    },
    ...(format === 1n ? {} : { previous: int(value[9]) }),
  };
}
