/**
 * How a vector-database collection (Qdrant's model: points with an id, a JSON-like payload and
 * one or more named dense vectors) is laid out in a graphdb database:
 *
 * - the collection's configuration is a `:QdrantCollection {name, config}` node (`config` is the
 *   JSON of its vector specs);
 * - each point is a node labelled `Qdrant_<collection>` whose `_qdrant_id` property (unique
 *   constraint `qdrant_<collection>_id`) holds the id as text: decimal for unsigned integers,
 *   canonical lowercase for UUIDs, and `_qdrant_order` a text sorting in id order (RANGE index
 *   `qdrant_<collection>_order`, used by Scroll);
 * - each vector is a list-of-float property (`_qdrant_vector`, or `_qdrant_vector.<name>` for a
 *   named vector) covered by a VECTOR index (`qdrant_<collection>[.<name>]`) for Cosine and Euclid;
 * - each top-level payload key is a property; values a property cannot hold (maps, mixed lists,
 *   null) are stored as JSON text and their keys listed in `_qdrant_json`, so they read back as
 *   they were written.
 */
import { ArgumentError, ClientError } from '../errors/index.js';
import { StatusCodes } from '../errors/status-codes.js';
import type { CypherValue } from '../values/types.js';
import { isList, isMap } from '../values/kinds.js';
import { valueText } from '../values/to-string.js';

/** A point id: an unsigned 64-bit integer or a UUID (canonical lowercase text). */
export type PointId = bigint | string;

/** A JSON-like payload value; `bigint` is an integer, `number` a double. */
export type PayloadValue = null | boolean | number | bigint | string | readonly PayloadValue[] | PayloadObject;

/** A payload object (nested map). */
export interface PayloadObject {
  readonly [key: string]: PayloadValue;
}

/** A point's payload. */
export type Payload = Record<string, PayloadValue>;

/** Distance function of a vector. Qdrant semantics: Cosine and Dot are similarities, Euclid and Manhattan distances. */
export type Distance = 'Cosine' | 'Euclid' | 'Dot' | 'Manhattan';

/** One vector of a collection; `name` is empty for the single unnamed vector. */
export interface VectorSpec {
  readonly name: string;
  readonly size: number;
  readonly distance: Distance;
}

/** Payload field types a payload index can declare (Qdrant's field types). */
export type PayloadIndexType = 'keyword' | 'integer' | 'float' | 'geo' | 'text' | 'bool' | 'datetime' | 'uuid';

/** A declared payload index: a RANGE index on the property for top-level keys. */
export interface PayloadIndexSpec {
  readonly key: string;
  readonly type: PayloadIndexType;
}

/** A collection's configuration. */
export interface CollectionSpec {
  readonly name: string;
  readonly vectors: readonly VectorSpec[];
  /** Declared as a map of named vectors (even when the map has one entry). */
  readonly named: boolean;
  readonly payloadIndexes?: readonly PayloadIndexSpec[];
}

/** A point as stored. */
export interface StoredPoint {
  readonly id: PointId;
  readonly payload: Payload;
  readonly vectors: ReadonlyMap<string, readonly number[]>;
}

/** Label of the configuration nodes. */
export const COLLECTION_LABEL = 'QdrantCollection';
/** Property holding a point's id. */
export const ID_PROPERTY = '_qdrant_id';
/** Property holding a text that sorts in Qdrant's id order (RANGE index `qdrant_<collection>_order`). */
export const ORDER_PROPERTY = '_qdrant_order';
/** Property listing the payload keys stored as JSON text. */
export const JSON_KEYS_PROPERTY = '_qdrant_json';
const RESERVED_PREFIX = '_qdrant_';
const VECTOR_PROPERTY = '_qdrant_vector';
const NAME_PATTERN = /^[A-Za-z0-9_.-]{1,200}$/;
const UUID_PATTERN = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UINT64_MAX = (1n << 64n) - 1n;

/** The collection does not exist (gRPC NOT_FOUND). */
export class CollectionNotFound extends ClientError {
  constructor(name: string) {
    super(StatusCodes.EntityNotFound, `Collection \`${name}\` doesn't exist!`);
    this.name = 'CollectionNotFound';
  }
}

/** The collection already exists (gRPC ALREADY_EXISTS). */
export class CollectionAlreadyExists extends ClientError {
  constructor(name: string) {
    super(StatusCodes.ConstraintValidationFailed, `Collection \`${name}\` already exists!`);
    this.name = 'CollectionAlreadyExists';
  }
}

/** Throws ArgumentError unless `name` is a valid collection or vector name. */
export function checkName(kind: 'collection' | 'vector', name: string): void {
  if (!NAME_PATTERN.test(name)) {
    throw new ArgumentError(`Invalid ${kind} name '${name}': use 1-200 letters, digits, '_', '-' or '.'`);
  }
}

/** A Cypher identifier in backticks. */
export function quoteIdentifier(identifier: string): string {
  return '`' + identifier.replaceAll('`', '``') + '`';
}

/** Label of a collection's point nodes. */
export function pointLabel(collection: string): string {
  return `Qdrant_${collection}`;
}

/** Property holding a vector. */
export function vectorProperty(vectorName: string): string {
  return vectorName === '' ? VECTOR_PROPERTY : `${VECTOR_PROPERTY}.${vectorName}`;
}

/** Name of the VECTOR index of one vector of a collection. */
export function vectorIndexName(collection: string, vectorName: string): string {
  return vectorName === '' ? `qdrant_${collection}` : `qdrant_${collection}.${vectorName}`;
}

/** Name of the uniqueness constraint on a collection's point ids. */
export function idConstraintName(collection: string): string {
  return `qdrant_${collection}_id`;
}

/** Name of the RANGE index on the id order key. */
export function orderIndexName(collection: string): string {
  return `qdrant_${collection}_order`;
}

/** Text that sorts like Qdrant orders ids: zero-padded integers first, then UUIDs. */
export function pointOrderKey(id: PointId): string {
  return typeof id === 'bigint' ? `0${id.toString().padStart(20, '0')}` : `1${id}`;
}

/** Name of the RANGE index of a payload key. */
export function payloadIndexName(collection: string, key: string): string {
  return `qdrant_${collection}_payload_${key}`;
}

/** Validates and canonicalizes a point id (UUIDs to lowercase with dashes). */
export function canonicalPointId(id: PointId): PointId {
  if (typeof id === 'bigint') {
    if (id < 0n || id > UINT64_MAX) throw new ArgumentError(`Point id ${id} is not an unsigned 64-bit integer`);
    return id;
  }
  if (!UUID_PATTERN.test(id)) throw new ArgumentError(`Unable to parse UUID: ${id}`);
  const hex = id.replaceAll('-', '').toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The text stored in `_qdrant_id`. */
export function pointIdKey(id: PointId): string {
  return typeof id === 'bigint' ? id.toString() : id;
}

/** The id `pointIdKey` stored. */
export function pointIdFromKey(key: string): PointId {
  return /^\d+$/.test(key) ? BigInt(key) : key;
}

/** Qdrant's id order: integers ascending, then UUIDs. */
export function comparePointIds(a: PointId, b: PointId): number {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'bigint') return -1;
  if (typeof b === 'bigint') return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function homogeneousList(values: readonly PayloadValue[]): boolean {
  if (values.length === 0) return true;
  const kind = typeof values[0];
  if (kind !== 'string' && kind !== 'boolean' && kind !== 'bigint' && kind !== 'number') return false;
  return values.every((value) => typeof value === kind);
}

/** JSON text of a payload value; integers keep their digits, doubles always carry a fraction or exponent. */
export function payloadToJson(value: PayloadValue): string {
  if (value === null) return 'null';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return 'null';
    const text = String(value);
    return /[.eE]/.test(text) ? text : `${text}.0`;
  }
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${(value as readonly PayloadValue[]).map(payloadToJson).join(',')}]`;
  const entries = Object.entries(value as PayloadObject).map(([key, inner]) => `${JSON.stringify(key)}:${payloadToJson(inner)}`);
  return `{${entries.join(',')}}`;
}

/** Reads `payloadToJson` text back: numbers without fraction or exponent become integers. */
export function payloadFromJson(text: string): PayloadValue {
  const integerTokens = new Set<number>();
  let index = 0;
  const reviveIntegers = (raw: unknown): PayloadValue => {
    if (raw === null || typeof raw === 'boolean' || typeof raw === 'string') return raw;
    if (typeof raw === 'number') return integerTokens.has(index++) && Number.isSafeInteger(raw) ? BigInt(raw) : raw;
    if (Array.isArray(raw)) return raw.map(reviveIntegers);
    const out: Record<string, PayloadValue> = {};
    for (const [key, inner] of Object.entries(raw as Record<string, unknown>)) out[key] = reviveIntegers(inner);
    return out;
  };
  let position = 0;
  for (const match of text.matchAll(/"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g)) {
    if (match[0].startsWith('"')) continue;
    if (!/[.eE]/.test(match[0])) integerTokens.add(position);
    position++;
  }
  return reviveIntegers(JSON.parse(text));
}

/** Properties of a payload: storable values as they are, the rest as JSON text listed in `_qdrant_json`. */
export function payloadProperties(payload: Payload): Map<string, CypherValue> {
  const properties = new Map<string, CypherValue>();
  const jsonKeys: string[] = [];
  for (const [key, value] of Object.entries(payload)) {
    if (key.startsWith(RESERVED_PREFIX)) throw new ArgumentError(`Payload key '${key}' uses the reserved prefix '${RESERVED_PREFIX}'`);
    if (key === '') throw new ArgumentError('Payload keys must not be empty');
    if (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'bigint') properties.set(key, value);
    else if (typeof value === 'number' && Number.isFinite(value)) properties.set(key, value);
    else if (Array.isArray(value) && homogeneousList(value as readonly PayloadValue[])) properties.set(key, [...(value as CypherValue[])]);
    else {
      properties.set(key, payloadToJson(value));
      jsonKeys.push(key);
    }
  }
  if (jsonKeys.length > 0) properties.set(JSON_KEYS_PROPERTY, jsonKeys.sort());
  return properties;
}

function plainValue(value: CypherValue): PayloadValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean' || typeof value === 'bigint' || typeof value === 'number') {
    return value;
  }
  if (isList(value)) return value.map(plainValue);
  if (isMap(value)) {
    const out: Record<string, PayloadValue> = {};
    for (const [key, inner] of value) out[key] = plainValue(inner);
    return out;
  }
  return valueText(value);
}

/** The point stored in a node's properties, or null when the node is not a point. */
export function pointFromProperties(properties: ReadonlyMap<string, CypherValue>, spec: CollectionSpec): StoredPoint | null {
  const key = properties.get(ID_PROPERTY);
  if (typeof key !== 'string') return null;
  const jsonKeysValue = properties.get(JSON_KEYS_PROPERTY);
  const jsonKeys = new Set(Array.isArray(jsonKeysValue) ? jsonKeysValue.filter((k): k is string => typeof k === 'string') : []);
  const vectorProperties = new Map(spec.vectors.map((v) => [vectorProperty(v.name), v.name]));
  const payload: Payload = {};
  const vectors = new Map<string, readonly number[]>();
  for (const [name, value] of properties) {
    const vectorName = vectorProperties.get(name);
    if (vectorName !== undefined) {
      if (Array.isArray(value)) vectors.set(vectorName, value.map(Number));
      continue;
    }
    if (name.startsWith(RESERVED_PREFIX)) continue;
    if (jsonKeys.has(name) && typeof value === 'string') {
      try {
        payload[name] = payloadFromJson(value);
        continue;
      } catch {
        // written by someone else: keep the text
      }
    }
    payload[name] = plainValue(value);
  }
  return { id: pointIdFromKey(key), payload, vectors };
}

/** Every property of a point node: id, vectors, payload. */
export function pointProperties(point: StoredPoint): Map<string, CypherValue> {
  const properties = payloadProperties(point.payload);
  properties.set(ID_PROPERTY, pointIdKey(point.id));
  properties.set(ORDER_PROPERTY, pointOrderKey(point.id));
  for (const [name, vector] of point.vectors) properties.set(vectorProperty(name), [...vector]);
  return properties;
}

/** The JSON stored in a `:QdrantCollection` node's `config`. */
export function specToJson(spec: CollectionSpec): string {
  return JSON.stringify({ vectors: spec.vectors, named: spec.named, payloadIndexes: spec.payloadIndexes ?? [] });
}

/** Reads `specToJson`. */
export function specFromJson(name: string, text: string): CollectionSpec {
  const parsed = JSON.parse(text) as { vectors: VectorSpec[]; named: boolean; payloadIndexes?: PayloadIndexSpec[] };
  return { name, vectors: parsed.vectors, named: parsed.named, payloadIndexes: parsed.payloadIndexes ?? [] };
}
