/**
 * Type names of APOC's meta procedures: `apoc.meta.cypher.type` / `apoc.meta.data` names
 * (`STRING`, `DATE_TIME`, `LIST OF INTEGER`) and the Java-style names of
 * `apoc.meta.nodeTypeProperties` (`String`, `Long`, `StringArray`).
 */
import { typeName } from '../../../values/kinds.js';
import type { CypherValue } from '../../../values/types.js';

const META_NAMES: Record<string, string> = {
  Boolean: 'BOOLEAN',
  String: 'STRING',
  Integer: 'INTEGER',
  Float: 'FLOAT',
  Map: 'MAP',
  Node: 'NODE',
  Relationship: 'RELATIONSHIP',
  Path: 'PATH',
  Date: 'DATE',
  LocalTime: 'LOCAL_TIME',
  Time: 'TIME',
  LocalDateTime: 'LOCAL_DATE_TIME',
  DateTime: 'DATE_TIME',
  Duration: 'DURATION',
  Point: 'POINT',
  ByteArray: 'BYTE_ARRAY',
  NULL: 'NULL',
};

/** `apoc.meta.cypher.type`: `STRING`, `LIST OF STRING` (`LIST OF ANY` for mixed lists), `NULL`. */
export function metaType(v: CypherValue): string {
  if (Array.isArray(v)) {
    const inner = new Set((v as CypherValue[]).map(metaType));
    return `LIST OF ${inner.size === 1 ? [...inner][0]! : 'ANY'}`;
  }
  return META_NAMES[typeName(v)] ?? 'ANY';
}

/** The type `apoc.meta.data`/`apoc.meta.schema` report for a property value (`LIST` for arrays). */
export function metaPropertyType(v: CypherValue): string {
  return Array.isArray(v) ? 'LIST' : metaType(v);
}

const JAVA_NAMES: Record<string, string> = {
  Boolean: 'Boolean',
  String: 'String',
  Integer: 'Long',
  Float: 'Double',
  Date: 'Date',
  LocalTime: 'LocalTime',
  Time: 'Time',
  LocalDateTime: 'LocalDateTime',
  DateTime: 'DateTime',
  Duration: 'Duration',
  Point: 'Point',
  ByteArray: 'ByteArray',
};

/** The Java-style type name of `nodeTypeProperties`/`relTypeProperties`: `String`, `LongArray`. */
export function javaTypeName(v: CypherValue): string {
  if (Array.isArray(v)) {
    const first = (v as CypherValue[]).find((x) => x !== null);
    return `${first === undefined ? 'String' : (JAVA_NAMES[typeName(first)] ?? 'Object')}Array`;
  }
  return JAVA_NAMES[typeName(v)] ?? 'Object';
}
