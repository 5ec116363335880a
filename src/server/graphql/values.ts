/**
 * Conversions between Cypher values and the JSON values GraphQL carries.
 *
 * In: JSON numbers without a fraction (and bigints from the request parser) become INTEGER,
 * other numbers FLOAT, objects MAPs. Out: INTEGER becomes a JSON number when it is exact in a
 * double and a string otherwise; temporals their Cypher text; nodes and relationships small
 * objects keyed by element id; points `{srid, x, y, z?}`; byte arrays arrays of numbers.
 */
import {
  CypherPoint,
  CypherVector,
  Node,
  Path,
  Relationship,
  type CypherMap,
  type CypherValue,
  ArgumentError,
  cypherToString,
} from '../../engine/index.js';

/** A value as it appears in GraphQL JSON output. */
export type JsonOut = null | boolean | number | string | JsonOut[] | { [key: string]: JsonOut };

function integerOut(value: bigint): number | string {
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();
}

/** A property map as a JSON object. */
export function mapToJson(map: CypherMap): { [key: string]: JsonOut } {
  const out: { [key: string]: JsonOut } = {};
  for (const [key, item] of map) out[key] = cypherToJson(item);
  return out;
}

function nodeJson(node: Node): JsonOut {
  return { id: node.elementId, labels: [...node.labels], properties: mapToJson(node.properties) };
}

function relationshipJson(relationship: Relationship): JsonOut {
  return {
    id: relationship.elementId,
    type: relationship.type,
    startNodeId: relationship.startElementId,
    endNodeId: relationship.endElementId,
    properties: mapToJson(relationship.properties),
  };
}

/** Any materialized Cypher value as JSON. */
export function cypherToJson(value: CypherValue): JsonOut {
  switch (typeof value) {
    case 'bigint':
      return integerOut(value);
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'string':
    case 'boolean':
      return value;
    default:
      break;
  }
  if (value === null) return null;
  if (Array.isArray(value)) return value.map(cypherToJson);
  if (value instanceof Map) return mapToJson(value);
  if (value instanceof Uint8Array) return Array.from(value);
  if (value instanceof Node) return nodeJson(value);
  if (value instanceof Relationship) return relationshipJson(value);
  if (value instanceof Path) return { nodes: value.nodes.map(nodeJson), relationships: value.relationships.map(relationshipJson) };
  if (value instanceof CypherPoint) {
    return value.z === null ? { srid: value.srid, x: value.x, y: value.y } : { srid: value.srid, x: value.x, y: value.y, z: value.z };
  }
  if (value instanceof CypherVector) return value.toNumbers();
  return cypherToString(value);
}

/** A JSON input value (from variables or literals) as a Cypher value. */
export function jsonToCypher(value: unknown, path = 'value'): CypherValue {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'bigint':
      return value;
    case 'number':
      return Number.isInteger(value) ? BigInt(value) : value;
    case 'string':
    case 'boolean':
      return value;
    default:
      break;
  }
  if (Array.isArray(value)) return value.map((item, index) => jsonToCypher(item, `${path}[${index}]`));
  if (typeof value === 'object') {
    const map = new Map<string, CypherValue>();
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) map.set(key, jsonToCypher(item, `${path}.${key}`));
    return map;
  }
  throw new ArgumentError(`${path}: unsupported JSON value`);
}

/** A JSON object input as a property map (`{}` for null); anything else is an ArgumentError. */
export function jsonToMap(value: unknown, what: string): CypherMap {
  if (value === null || value === undefined) return new Map();
  if (typeof value !== 'object' || Array.isArray(value)) throw new ArgumentError(`${what} must be a JSON object`);
  return jsonToCypher(value, what) as CypherMap;
}
