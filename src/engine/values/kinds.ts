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
  CypherVector,
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
export function isMap(v: CypherValue | undefined): v is CypherMap {
  return v instanceof Map;
}

/** True for a Cypher LIST. */
export function isList(v: CypherValue | undefined): v is readonly CypherValue[] {
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

/** The lower-case name of a temporal or spatial value's type, as neo4j-admin CSV headers and the HTTP API's `meta` spell it. */
export type TemporalOrPointName = 'date' | 'localtime' | 'time' | 'localdatetime' | 'datetime' | 'duration' | 'point';

/** `date`, `localtime`, `time`, `localdatetime`, `datetime`, `duration` or `point`; null for any other value. */
export function temporalOrPointName(v: CypherValue): TemporalOrPointName | null {
  if (v instanceof CypherDate) return 'date';
  if (v instanceof LocalTime) return 'localtime';
  if (v instanceof CypherTime) return 'time';
  if (v instanceof LocalDateTime) return 'localdatetime';
  if (v instanceof CypherDateTime) return 'datetime';
  if (v instanceof CypherDuration) return 'duration';
  if (v instanceof CypherPoint) return 'point';
  return null;
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
  if (v instanceof CypherVector) return 'Vector';
  return 'Unknown';
}

const TYPE_NAMES: Record<string, string> = {
  Boolean: 'BOOLEAN',
  String: 'STRING',
  Integer: 'INTEGER',
  Float: 'FLOAT',
  Date: 'DATE',
  LocalTime: 'LOCAL TIME',
  Time: 'ZONED TIME',
  LocalDateTime: 'LOCAL DATETIME',
  DateTime: 'ZONED DATETIME',
  Duration: 'DURATION',
  Point: 'POINT',
  Node: 'NODE',
  Relationship: 'RELATIONSHIP',
  Map: 'MAP',
  ByteArray: 'BYTES',
  Path: 'PATH',
};
/** Order in which Neo4j lists the members of a union type. */
const TYPE_ORDER = Object.values(TYPE_NAMES);

/** The type of `v` without nullability (`INTEGER`, `LIST<STRING NOT NULL>`). */
function baseTypeName(v: CypherValue): string {
  if (v === null) return 'NULL';
  if (v instanceof CypherVector) return `VECTOR<${v.coordinateType} NOT NULL>(${v.dimension})`;
  if (!isList(v)) return TYPE_NAMES[typeName(v)] ?? 'ANY';
  const members = new Set<string>();
  let sawNull = false;
  for (const e of v) {
    if (e === null) sawNull = true;
    else members.add(baseTypeName(e));
  }
  if (members.size === 0) return `LIST<${sawNull ? 'NULL' : 'NOTHING'}>`;
  const rank = (t: string) => (t.startsWith('LIST') ? TYPE_ORDER.length : TYPE_ORDER.indexOf(t));
  const sorted = [...members].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1));
  return `LIST<${sorted.map((t) => (sawNull ? t : `${t} NOT NULL`)).join(' | ')}>`;
}

/**
 * Cypher type name as `valueType()` reports it: `INTEGER NOT NULL`,
 * `LIST<INTEGER NOT NULL | STRING NOT NULL> NOT NULL`, `LIST<INTEGER> NOT NULL` (a null element
 * makes the element type nullable), `NULL`.
 */
export function valueTypeName(v: CypherValue): string {
  return v === null ? 'NULL' : `${baseTypeName(v)} NOT NULL`;
}
