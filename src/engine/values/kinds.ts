/**
 * Type tests and type names for Cypher values.
 *
 * `typeName` gives the names Neo4j uses in error messages (`Integer`, `String`, `Node`, ...);
 * `valueTypeName` gives the Cypher type names of `valueType()` (`INTEGER`, `LIST<ANY>`, ...).
 */
import {
  CypherDate,
  CypherDateTime,
  CypherDuration,
  CypherPoint,
  CypherTime,
  LocalDateTime,
  LocalTime,
  Node,
  NodeRef,
  Path,
  PathRef,
  Relationship,
  RelationshipRef,
  type CypherMap,
  type CypherValue,
} from './types.js';

/** True for a Cypher MAP. */
export function isMap(v: CypherValue): v is CypherMap {
  return v instanceof Map;
}

/** True for a Cypher LIST. */
export function isList(v: CypherValue): v is readonly CypherValue[] {
  return Array.isArray(v);
}

/** True for INTEGER or FLOAT. */
export function isNumber(v: CypherValue): v is bigint | number {
  return typeof v === 'bigint' || typeof v === 'number';
}

/** True for a node, referenced or materialized. */
export function isNode(v: CypherValue): v is NodeRef | Node {
  return v instanceof NodeRef || v instanceof Node;
}

/** True for a relationship, referenced or materialized. */
export function isRelationship(v: CypherValue): v is RelationshipRef | Relationship {
  return v instanceof RelationshipRef || v instanceof Relationship;
}

/** True for a path, referenced or materialized. */
export function isPath(v: CypherValue): v is PathRef | Path {
  return v instanceof PathRef || v instanceof Path;
}

/** A date, time, datetime (local or zoned) value. */
export type TemporalInstant = CypherDate | LocalTime | CypherTime | LocalDateTime | CypherDateTime;

/** True for DATE, LOCAL TIME, ZONED TIME, LOCAL DATETIME and ZONED DATETIME. */
export function isTemporalInstant(v: CypherValue): v is TemporalInstant {
  return (
    v instanceof CypherDate ||
    v instanceof LocalTime ||
    v instanceof CypherTime ||
    v instanceof LocalDateTime ||
    v instanceof CypherDateTime
  );
}

/** Name of a value's type as Neo4j error messages spell it. */
export function typeName(v: CypherValue): string {
  if (v === null) return 'NULL';
  switch (typeof v) {
    case 'boolean':
      return 'Boolean';
    case 'bigint':
      return 'Integer';
    case 'number':
      return 'Float';
    case 'string':
      return 'String';
  }
  if (Array.isArray(v)) return 'List';
  if (v instanceof Map) return 'Map';
  if (v instanceof Uint8Array) return 'ByteArray';
  if (isNode(v)) return 'Node';
  if (isRelationship(v)) return 'Relationship';
  if (isPath(v)) return 'Path';
  if (v instanceof CypherDate) return 'Date';
  if (v instanceof LocalTime) return 'LocalTime';
  if (v instanceof CypherTime) return 'Time';
  if (v instanceof LocalDateTime) return 'LocalDateTime';
  if (v instanceof CypherDateTime) return 'DateTime';
  if (v instanceof CypherDuration) return 'Duration';
  if (v instanceof CypherPoint) return 'Point';
  return 'Unknown';
}

/** Cypher type name as `valueType()` reports it (`INTEGER NOT NULL`, `LIST<INTEGER NOT NULL> NOT NULL`). */
export function valueTypeName(v: CypherValue): string {
  if (v === null) return 'NULL';
  if (Array.isArray(v)) {
    const inner = new Set(v.map((e) => valueTypeName(e)));
    const elem = inner.size === 1 ? [...inner][0]! : 'ANY';
    return `LIST<${elem}> NOT NULL`;
  }
  const names: Record<string, string> = {
    Boolean: 'BOOLEAN',
    Integer: 'INTEGER',
    Float: 'FLOAT',
    String: 'STRING',
    Map: 'MAP',
    ByteArray: 'BYTES',
    Node: 'NODE',
    Relationship: 'RELATIONSHIP',
    Path: 'PATH',
    Date: 'DATE',
    LocalTime: 'LOCAL TIME',
    Time: 'ZONED TIME',
    LocalDateTime: 'LOCAL DATETIME',
    DateTime: 'ZONED DATETIME',
    Duration: 'DURATION',
    Point: 'POINT',
  };
  return `${names[typeName(v)] ?? 'ANY'} NOT NULL`;
}
