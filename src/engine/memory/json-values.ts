/**
 * Conversions between the JSON a model writes (tool arguments) and Cypher values, and from query
 * results back to JSON a model can read: integers become INTEGER, nested objects become MAPs;
 * nodes, relationships and paths are written as plain objects, temporal values and points as
 * their Cypher text.
 */
import { typeName } from '../values/kinds.js';
import { formatPoint, formatTemporal } from '../values/to-string.js';
import { CypherPoint, CypherVector, Node, Path, Relationship, type CypherValue } from '../values/types.js';

/** A JSON value as `JSON.parse` returns it. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** JSON (from a model) to a Cypher value: whole numbers become INTEGER, objects MAPs. */
export function jsonToCypher(value: unknown): CypherValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') return Number.isSafeInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(jsonToCypher);
  if (typeof value === 'object') {
    return new Map(Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, jsonToCypher(item)]));
  }
  return typeof value === 'symbol' ? value.toString() : typeof value;
}

function propertiesJson(properties: ReadonlyMap<string, CypherValue>): { [key: string]: JsonValue } {
  return Object.fromEntries([...properties].map(([key, value]) => [key, cypherToJson(value)]));
}

function nodeJson(node: Node): JsonValue {
  return { id: Number(node.id), elementId: node.elementId, labels: [...node.labels], properties: propertiesJson(node.properties) };
}

function relationshipJson(rel: Relationship): JsonValue {
  return {
    id: Number(rel.id),
    elementId: rel.elementId,
    type: rel.type,
    start: Number(rel.startId),
    end: Number(rel.endId),
    properties: propertiesJson(rel.properties),
  };
}

/** A materialized Cypher value as JSON a model can read. */
export function cypherToJson(value: CypherValue): JsonValue {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (Array.isArray(value)) return value.map(cypherToJson);
  if (value instanceof Map) return propertiesJson(value as ReadonlyMap<string, CypherValue>);
  if (value instanceof Node) return nodeJson(value);
  if (value instanceof Relationship) return relationshipJson(value);
  if (value instanceof Path) return { nodes: value.nodes.map(nodeJson), relationships: value.relationships.map(relationshipJson) };
  if (value instanceof CypherPoint) return formatPoint(value);
  if (value instanceof CypherVector) return value.toNumbers();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  return formatTemporal(value) ?? typeName(value);
}
