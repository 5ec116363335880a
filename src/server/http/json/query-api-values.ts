/**
 * Cypher values in Neo4j Query API v2 responses (and typed parameters in its requests).
 *
 * - Plain JSON (`application/json`): scalars as JSON, INTEGER digits kept, nodes as
 *   `{elementId, labels, properties}`, relationships as `{elementId, startNodeElementId,
 *   endNodeElementId, type, properties}`, paths as the alternating list of both, temporals as
 *   their Cypher text, points as `SRID=n;POINT (x y)`, byte arrays as base64.
 * - Typed JSON (`application/vnd.neo4j.query`): every value is `{"$type": T, "_value": v}` with
 *   T one of Null, Boolean, Integer, Float, String, Base64, List, Map, Date, Time, LocalTime,
 *   DateTime, OffsetDateTime, LocalDateTime, Duration, Point, Node, Relationship, Path; INTEGER
 *   and FLOAT values travel as strings, entity fields are `_element_id`, `_labels`, `_type`, ...
 */
import {
  ArgumentError,
  CypherDate,
  CypherDateTime,
  CypherDuration,
  CypherPoint,
  CypherVector,
  CypherTime,
  LocalDateTime,
  LocalTime,
  Node,
  Path,
  Relationship,
  type CypherValue,
  cypherToString,
  formatFloat,
} from '../../../engine/index.js';
import type { JsonValue } from './parse-json.js';
import { jsonToCypher } from './values-in.js';

function pointText(point: CypherPoint): string {
  const coordinates = point.z === null ? [point.x, point.y] : [point.x, point.y, point.z];
  return `SRID=${point.srid};POINT${point.z === null ? '' : ' Z'} (${coordinates.map(formatFloat).join(' ')})`;
}

function temporalType(value: object): string | null {
  if (value instanceof CypherDate) return 'Date';
  if (value instanceof LocalTime) return 'LocalTime';
  if (value instanceof CypherTime) return 'Time';
  if (value instanceof LocalDateTime) return 'LocalDateTime';
  if (value instanceof CypherDateTime) return value.zoneId === null ? 'OffsetDateTime' : 'DateTime';
  if (value instanceof CypherDuration) return 'Duration';
  return null;
}

function pathElements(path: Path): (Node | Relationship)[] {
  const elements: (Node | Relationship)[] = [];
  path.nodes.forEach((node, index) => {
    elements.push(node);
    const relationship = path.relationships[index];
    if (relationship !== undefined) elements.push(relationship);
  });
  return elements;
}

function floatText(x: number): string {
  return formatFloat(x);
}

function mapText(map: ReadonlyMap<string, CypherValue>, each: (value: CypherValue) => string): string {
  return `{${[...map].map(([key, value]) => `${JSON.stringify(key)}:${each(value)}`).join(',')}}`;
}

/** A value in the Query API's plain JSON. */
export function plainJson(value: CypherValue): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'number':
      return Number.isFinite(value) ? floatText(value) : JSON.stringify(floatText(value));
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return String(value);
    default:
      break;
  }
  if (Array.isArray(value)) return `[${value.map(plainJson).join(',')}]`;
  if (value instanceof Map) return mapText(value, plainJson);
  if (value instanceof Uint8Array) return JSON.stringify(Buffer.from(value).toString('base64'));
  if (value instanceof Node) {
    return `{"elementId":${JSON.stringify(value.elementId)},"labels":${JSON.stringify(value.labels)},"properties":${mapText(value.properties, plainJson)}}`;
  }
  if (value instanceof Relationship) {
    return `{"elementId":${JSON.stringify(value.elementId)},"startNodeElementId":${JSON.stringify(value.startElementId)},"endNodeElementId":${JSON.stringify(value.endElementId)},"type":${JSON.stringify(value.type)},"properties":${mapText(value.properties, plainJson)}}`;
  }
  if (value instanceof Path) return `[${pathElements(value).map(plainJson).join(',')}]`;
  if (value instanceof CypherPoint) return JSON.stringify(pointText(value));
  if (value instanceof CypherVector) return plainJson(value.toList());
  if (temporalType(value) !== null) return JSON.stringify(cypherToString(value));
  throw new TypeError(`cannot serialize ${(value as object).constructor.name}: only materialized values leave the engine`);
}

function typed(type: string, inner: string): string {
  return `{"$type":"${type}","_value":${inner}}`;
}

/** A value in the Query API's typed JSON. */
export function typedJson(value: CypherValue): string {
  if (value === null) return typed('Null', 'null');
  switch (typeof value) {
    case 'bigint':
      return typed('Integer', JSON.stringify(value.toString()));
    case 'number':
      return typed('Float', JSON.stringify(floatText(value)));
    case 'string':
      return typed('String', JSON.stringify(value));
    case 'boolean':
      return typed('Boolean', String(value));
    default:
      break;
  }
  if (Array.isArray(value)) return typed('List', `[${value.map(typedJson).join(',')}]`);
  if (value instanceof Map) return typed('Map', mapText(value, typedJson));
  if (value instanceof Uint8Array) return typed('Base64', JSON.stringify(Buffer.from(value).toString('base64')));
  if (value instanceof Node) {
    return typed(
      'Node',
      `{"_element_id":${JSON.stringify(value.elementId)},"_labels":${JSON.stringify(value.labels)},"_properties":${mapText(value.properties, typedJson)}}`,
    );
  }
  if (value instanceof Relationship) {
    return typed(
      'Relationship',
      `{"_element_id":${JSON.stringify(value.elementId)},"_start_node_element_id":${JSON.stringify(value.startElementId)},"_end_node_element_id":${JSON.stringify(value.endElementId)},"_type":${JSON.stringify(value.type)},"_properties":${mapText(value.properties, typedJson)}}`,
    );
  }
  if (value instanceof Path) return typed('Path', `[${pathElements(value).map(typedJson).join(',')}]`);
  if (value instanceof CypherPoint) return typed('Point', JSON.stringify(pointText(value)));
  if (value instanceof CypherVector) return typedJson(value.toList());
  const type = temporalType(value);
  if (type !== null) return typed(type, JSON.stringify(cypherToString(value)));
  throw new TypeError(`cannot serialize ${(value as object).constructor.name}: only materialized values leave the engine`);
}

const TEMPORAL_FUNCTIONS: Readonly<Record<string, string>> = {
  Date: 'date',
  Time: 'time',
  LocalTime: 'localtime',
  DateTime: 'datetime',
  OffsetDateTime: 'datetime',
  LocalDateTime: 'localdatetime',
  Duration: 'duration',
};

/** What a typed temporal or point parameter becomes: the text and the Cypher function that parses it. */
export interface DeferredParameter {
  readonly function: string;
  readonly text: string;
}

/**
 * A typed JSON request value as a Cypher value. Temporal and point values are returned as their
 * text with `deferred` told which function parses them (the engine's parsers, not a copy here).
 */
export function typedToCypher(value: JsonValue, deferred: (parameter: DeferredParameter) => CypherValue): CypherValue {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ArgumentError('Typed JSON values must be objects of the form {"$type": ..., "_value": ...}');
  }
  const type = value.$type;
  const inner = value._value;
  switch (type) {
    case 'Null':
      return null;
    case 'Boolean':
      if (typeof inner !== 'boolean') break;
      return inner;
    case 'Integer':
      if (typeof inner !== 'string' || !/^-?\d+$/.test(inner)) break;
      return BigInt(inner);
    case 'Float':
      if (typeof inner !== 'string' || Number.isNaN(Number(inner))) break;
      return Number(inner);
    case 'String':
      if (typeof inner !== 'string') break;
      return inner;
    case 'Base64':
      if (typeof inner !== 'string') break;
      return new Uint8Array(Buffer.from(inner, 'base64'));
    case 'List':
      if (!Array.isArray(inner)) break;
      return inner.map((item) => typedToCypher(item, deferred));
    case 'Map':
      if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) break;
      return new Map(Object.entries(inner).map(([k, v]) => [k, typedToCypher(v, deferred)]));
    case 'Point':
      if (typeof inner !== 'string') break;
      return deferred({ function: 'point', text: inner });
    default:
      if (typeof type === 'string' && type in TEMPORAL_FUNCTIONS && typeof inner === 'string')
        return deferred({ function: TEMPORAL_FUNCTIONS[type]!, text: inner });
      throw new ArgumentError(`Unknown typed JSON type ${JSON.stringify(type)}`);
  }
  throw new ArgumentError(`Invalid _value for typed JSON type ${String(type)}`);
}

/** Plain JSON request parameters as Cypher values (integers stay INTEGER). */
export function plainToCypher(value: JsonValue): CypherValue {
  return jsonToCypher(value);
}
