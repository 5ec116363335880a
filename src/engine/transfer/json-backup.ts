/**
 * The JSON backup file (docs/backup-format.md, "JSON backup file"): one compact JSON document
 * holding, per database, its indexes, constraints, nodes and relationships as of one committed
 * version. It is what `POST /admin/backup` writes for an `output` ending in `.json`, what WAL
 * snapshots are (wal-snapshots.ts), and what `POST /admin/restore` accepts beside the backup
 * directory. Property values use the typed encoding of `value-json.ts`, so every value survives.
 *
 * ```json
 * {"format":"graphdb-json-backup","formatVersion":1,"createdAt":"…","graphdbVersion":"0.1.0","databases":[
 * {"name":"graphdb","version":"7","indexes":[…],"constraints":[…],"nodes":[
 * {"id":"0","labels":["Person"],"properties":{"name":"Ann"}}
 * ],"relationships":[
 * {"id":"0","type":"KNOWS","start":"0","end":"1","properties":{}}
 * ]}]}
 * ```
 *
 * Each node and relationship is written on its own line (the file stays valid JSON), nodes before
 * relationships. Restoring one builds a new database file with the bulk loader: node and
 * relationship ids (and so element ids) are new ones; the directory format keeps them.
 */
import { createWriteStream, existsSync } from 'node:fs';
import type { GraphDB } from '../graphdb.js';
import { readFile } from 'node:fs/promises';
import type { ConstraintDefinition, IndexDefinition } from '../storage/graph-store.js';
import type { DatabaseStore, ReadTransaction } from '../storage/index.js';
import { BulkLoader } from '../storage/bulk-load.js';
import type { CypherMap } from '../values/types.js';
import { decodeProperties, decodeValue, encodeValue, type Json } from './value-json.js';
import { TextOutput } from './output.js';
import { storeOf } from '../engine-internals.js';

/** `format` of a JSON backup file. */
export const JSON_BACKUP_FORMAT = 'graphdb-json-backup';
/** Version of the JSON backup layout. */
export const JSON_BACKUP_FORMAT_VERSION = 1;

/** One database inside a JSON backup file, as read back. */
export interface JsonBackupDatabase {
  readonly name: string;
  /** Commit version the content was read at (decimal string). */
  readonly version: string;
  readonly indexes: readonly (Omit<IndexDefinition, 'options' | 'state' | 'owningConstraint'> & { readonly options: Json })[];
  readonly constraints: readonly ConstraintDefinition[];
  readonly nodes: readonly { readonly id: string; readonly labels: readonly string[]; readonly properties: Json }[];
  readonly relationships: readonly {
    readonly id: string;
    readonly type: string;
    readonly start: string;
    readonly end: string;
    readonly properties: Json;
  }[];
}

/** A whole JSON backup file, as read back. */
export interface JsonBackup {
  readonly format: typeof JSON_BACKUP_FORMAT;
  readonly formatVersion: number;
  readonly createdAt: string;
  readonly graphdbVersion: string | null;
  readonly databases: readonly JsonBackupDatabase[];
}

/** What was written for one database. */
export interface JsonBackupFigures {
  readonly name: string;
  readonly version: string;
  readonly nodes: number;
  readonly relationships: number;
}

/** A database to write: its name and a read transaction on the version to save (closed by the caller). */
export interface JsonBackupSource {
  readonly name: string;
  readonly reader: ReadTransaction;
}

function encodeMap(map: CypherMap): { [key: string]: Json } {
  const out: { [key: string]: Json } = {};
  for (const [key, value] of map) out[key] = encodeValue(value);
  return out;
}

function indexJson(index: IndexDefinition): Json {
  return {
    name: index.name,
    type: index.type,
    entityType: index.entityType,
    labelsOrTypes: [...index.labelsOrTypes],
    properties: [...index.properties],
    options: encodeMap(index.options),
  };
}

function constraintJson(constraint: ConstraintDefinition): Json {
  return {
    name: constraint.name,
    type: constraint.type,
    entityType: constraint.entityType,
    labelsOrTypes: [...constraint.labelsOrTypes],
    properties: [...constraint.properties],
    propertyType: constraint.propertyType,
  };
}

async function writeDatabase(out: TextOutput, source: JsonBackupSource): Promise<JsonBackupFigures> {
  const { reader } = source;
  // Indexes that back a constraint come back with the constraint.
  const indexes = reader.indexes().filter((i) => i.owningConstraint === null && i.type !== 'LOOKUP');
  const head = {
    name: source.name,
    version: reader.version.toString(),
    indexes: indexes.map(indexJson),
    constraints: reader.constraints().map(constraintJson),
  };
  await out.write(`${JSON.stringify(head).slice(0, -1)},"nodes":[`);
  let nodes = 0;
  for (const id of reader.allNodeIds()) {
    const node = reader.getNode(id);
    if (node === null) continue;
    const line = { id: id.toString(), labels: [...node.labels], properties: encodeMap(node.properties) };
    await out.write(`${nodes++ === 0 ? '\n' : '\n,'}${JSON.stringify(line)}`);
  }
  await out.write('\n],"relationships":[');
  let relationships = 0;
  for (const handle of reader.allRelationships()) {
    const rel = reader.getRelationship(handle.id);
    if (rel === null) continue;
    const line = {
      id: rel.id.toString(),
      type: rel.type,
      start: rel.startId.toString(),
      end: rel.endId.toString(),
      properties: encodeMap(rel.properties),
    };
    await out.write(`${relationships++ === 0 ? '\n' : '\n,'}${JSON.stringify(line)}`);
  }
  await out.write('\n]}');
  return { name: source.name, version: head.version, nodes, relationships };
}

/** Writes a JSON backup file of `sources` to `file` (created or truncated). */
export async function writeJsonBackup(
  file: string,
  sources: readonly JsonBackupSource[],
  options: { readonly graphdbVersion?: string | null; readonly createdAt?: Date } = {},
): Promise<JsonBackupFigures[]> {
  const out = new TextOutput(createWriteStream(file));
  const head = {
    format: JSON_BACKUP_FORMAT,
    formatVersion: JSON_BACKUP_FORMAT_VERSION,
    createdAt: (options.createdAt ?? new Date()).toISOString(),
    graphdbVersion: options.graphdbVersion ?? null,
  };
  const figures: JsonBackupFigures[] = [];
  try {
    await out.write(`${JSON.stringify(head).slice(0, -1)},"databases":[`);
    for (const [i, source] of sources.entries()) {
      await out.write(i === 0 ? '\n' : '\n,');
      figures.push(await writeDatabase(out, source));
    }
    await out.write('\n]}\n');
  } finally {
    await out.end();
  }
  return figures;
}

/** A JSON backup file that cannot be read (bad JSON, wrong format, newer version). */
export class JsonBackupError extends Error {
  override name = 'JsonBackupError';
}

/** True when `text` starts like a JSON backup file (its first bytes). */
export function looksLikeJsonBackup(firstBytes: string): boolean {
  return firstBytes.trimStart().startsWith('{');
}

/** Reads and checks a JSON backup file. */
export async function readJsonBackup(file: string): Promise<JsonBackup> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new JsonBackupError(`'${file}' is not a JSON backup file: ${(error as Error).message}`);
  }
  const backup = parsed as Partial<JsonBackup> | null;
  if (backup === null || typeof backup !== 'object' || backup.format !== JSON_BACKUP_FORMAT || !Array.isArray(backup.databases)) {
    throw new JsonBackupError(`'${file}' is not a graphdb JSON backup file (format '${JSON_BACKUP_FORMAT}').`);
  }
  if (typeof backup.formatVersion !== 'number' || backup.formatVersion > JSON_BACKUP_FORMAT_VERSION) {
    throw new JsonBackupError(
      `JSON backup format ${String(backup.formatVersion)} is not supported (this graphdb reads up to ${JSON_BACKUP_FORMAT_VERSION}).`,
    );
  }
  for (const database of backup.databases as (Partial<JsonBackupDatabase> | null)[]) {
    if (typeof database?.name !== 'string' || !Array.isArray(database.nodes) || !Array.isArray(database.relationships)) {
      throw new JsonBackupError(`'${file}' holds a database entry without name, nodes or relationships.`);
    }
  }
  return backup as JsonBackup;
}

function decodeOptions(json: Json): CypherMap {
  const value = decodeValue(json ?? {});
  return value instanceof Map ? (value as CypherMap) : new Map();
}

/**
 * Loads one database of a JSON backup into the empty store `target`: schema first (one commit),
 * then every node and relationship in one bulk load (one commit). Throws on a bad entry.
 */
export async function loadJsonBackupDatabase(target: DatabaseStore, database: JsonBackupDatabase): Promise<void> {
  if (database.indexes.length > 0 || database.constraints.length > 0) {
    const tx = await target.beginWrite();
    try {
      for (const constraint of database.constraints)
        tx.createConstraint({ ...constraint, propertyType: constraint.propertyType ?? null }, true);
      for (const index of database.indexes) {
        tx.createIndex({ ...index, options: decodeOptions(index.options) }, true);
      }
      tx.commit();
    } catch (error) {
      tx.rollback();
      throw error;
    }
  }
  const loader = await BulkLoader.open(target);
  try {
    const ids = new Map<string, bigint>();
    for (const node of database.nodes) {
      ids.set(String(node.id), loader.addNode(node.labels, decodeProperties(node.properties)));
    }
    for (const rel of database.relationships) {
      const start = ids.get(String(rel.start));
      const end = ids.get(String(rel.end));
      if (start === undefined || end === undefined) {
        throw new JsonBackupError(`Relationship ${rel.id} of database '${database.name}' refers to a node the file does not hold.`);
      }
      loader.addRelationship(rel.type, start, end, decodeProperties(rel.properties));
    }
    await loader.finish();
  } catch (error) {
    loader.abort();
    throw error;
  }
}

/** Options of createJsonBackup. */
export interface JsonBackupOptions {
  /** The file to write (must not exist). */
  readonly target: string;
  /** Only these databases (default: every user database; `system` is never part of a JSON backup). */
  readonly databases?: readonly string[];
  readonly graphdbVersion?: string;
}

/**
 * Writes a JSON backup file of an open engine's databases, each read from one snapshot of its
 * latest committed version (databases one after the other, as the directory backup does).
 */
export async function createJsonBackup(db: GraphDB, options: JsonBackupOptions): Promise<JsonBackupFigures[]> {
  if (existsSync(options.target)) throw new JsonBackupError(`'${options.target}' already exists.`);
  const names = (options.databases ?? db.databases().map((d) => d.name)).map((n) => n.toLowerCase()).filter((n) => n !== 'system');
  const sources: JsonBackupSource[] = [];
  try {
    for (const name of names) sources.push({ name, reader: storeOf(db, name).beginRead('long') });
    return await writeJsonBackup(options.target, sources, { graphdbVersion: options.graphdbVersion ?? null });
  } finally {
    for (const source of sources) source.reader.close();
  }
}
