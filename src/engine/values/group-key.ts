/**
 * A string key per equivalence class, for hash-based DISTINCT and grouping:
 * `groupKey(a) === groupKey(b)` exactly when `equivalent(a, b)` (so `1` and `1.0` share a key,
 * as do all NaNs and all nulls).
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
  type CypherValue,
} from './types.js';
import { vectorGroupKey } from './vector.js';
import { isList, isMap, isNode, isPath, isRelationship } from './kinds.js';

function numberKey(v: bigint | number): string {
  if (typeof v === 'bigint') return `i${v}`;
  if (Number.isNaN(v)) return 'fNaN';
  if (Number.isInteger(v)) return `i${BigInt(v)}`;
  return `f${v}`;
}

/**
 * Key of a value's equivalence class. Top-level strings skip escaping (`s` + text): no other
 * key starts with `s`; strings nested in lists and maps are JSON-escaped.
 */
export function groupKey(v: CypherValue): string {
  return typeof v === 'string' ? `s${v}` : nestedKey(v);
}

function nestedKey(v: CypherValue): string {
  if (v === null) return 'z';
  switch (typeof v) {
    case 'boolean':
      return v ? 'T' : 'F';
    case 'bigint':
    case 'number':
      return numberKey(v);
    case 'string':
      return `s${JSON.stringify(v)}`;
  }
  if (isList(v)) return `[${v.map(nestedKey).join(',')}]`;
  if (isMap(v)) {
    const keys = [...v.keys()].sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${nestedKey(v.get(k)!)}`).join(',')}}`;
  }
  if (isNode(v)) return `N${v.id}`;
  if (isRelationship(v)) return `R${v.id}`;
  if (isPath(v)) {
    // A path equals the list of its alternating nodes and relationships, so it shares that key.
    const parts = [`N${v.nodes[0]!.id}`];
    v.relationships.forEach((r, i) => parts.push(`R${r.id}`, `N${v.nodes[i + 1]!.id}`));
    return `[${parts.join(',')}]`;
  }
  if (v instanceof Uint8Array) return `b${Buffer.from(v).toString('hex')}`;
  if (v instanceof CypherDate) return `D${v.epochDay}`;
  if (v instanceof LocalTime) return `lt${v.nanoOfDay}`;
  if (v instanceof CypherTime) return `t${v.nanoOfDay - v.offsetSeconds * 1e9}`;
  if (v instanceof LocalDateTime) return `ldt${v.epochSecond}.${v.nano}`;
  if (v instanceof CypherDateTime) return `dt${v.epochSecond}.${v.nano}`;
  if (v instanceof CypherDuration) return `du${v.months}.${v.days}.${v.seconds}.${v.nanoseconds}`;
  if (v instanceof CypherVector) return vectorGroupKey(v);
  if (v instanceof CypherPoint) return `p${v.srid}:${numberKey(v.x)}:${numberKey(v.y)}:${numberKey(v.z ?? 0)}`;
  return '?';
}
