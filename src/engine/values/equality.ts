/**
 * Equality (`=`, three-valued) and equivalence (DISTINCT, grouping) of Cypher values,
 * per openCypher CIP2016-06-14.
 *
 * - `equals` returns null when the answer depends on a null (`[1, null] = [1, 2]`), false for
 *   values of different kinds, numbers compare mathematically (`1 = 1.0`), NaN equals nothing.
 * - `equivalent` is total: null ≡ null and NaN ≡ NaN; otherwise as `equals`.
 * Graph entities compare by id; a reference equals its materialized form.
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
  type Path,
  type PathRef,
  type CypherValue,
} from './types.js';
import { vectorsEqual } from './vector.js';
import { isNode, isPath, isRelationship, isList, isMap } from './kinds.js';

/** Three-valued `a = b`. */
export function equals(a: CypherValue, b: CypherValue): boolean | null {
  return compareEquality(a, b, false);
}

/** `a ≡ b` for DISTINCT and grouping (never null). */
export function equivalent(a: CypherValue, b: CypherValue): boolean {
  return compareEquality(a, b, true) === true;
}

function numbersEqual(a: bigint | number, b: bigint | number): boolean {
  // JS compares bigint with number exactly (no rounding), which is what Cypher wants.

  return a == b;
}

function sequenceEquality(xs: readonly CypherValue[], ys: readonly CypherValue[], nullSafe: boolean): boolean | null {
  if (xs.length !== ys.length) return false;
  let sawNull = false;
  for (let i = 0; i < xs.length; i++) {
    const r = compareEquality(xs[i]!, ys[i]!, nullSafe);
    if (r === false) return false;
    if (r === null) sawNull = true;
  }
  return sawNull ? null : true;
}

function compareEquality(a: CypherValue, b: CypherValue, nullSafe: boolean): boolean | null {
  if (a === null || b === null) return nullSafe ? a === b : null;
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) {
    if (nullSafe && typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b)) return true;
    return numbersEqual(a, b);
  }
  if (typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (isList(a)) {
    if (isPath(b)) return sequenceEquality(a, pathElements(b), nullSafe);
    return isList(b) ? sequenceEquality(a, b, nullSafe) : false;
  }
  if (isMap(a)) {
    if (!isMap(b) || a.size !== b.size) return false;
    const keys = [...a.keys()];
    if (!keys.every((k) => b.has(k))) return false;
    return sequenceEquality(
      keys.map((k) => a.get(k)!),
      keys.map((k) => b.get(k)!),
      nullSafe,
    );
  }
  if (isNode(a)) return isNode(b) && a.id === b.id;
  if (isRelationship(a)) return isRelationship(b) && a.id === b.id;
  if (isPath(a)) {
    if (isList(b)) return sequenceEquality(pathElements(a), b, nullSafe);
    if (!isPath(b) || a.nodes.length !== b.nodes.length) return false;
    return a.nodes.every((n, i) => n.id === b.nodes[i]!.id) && a.relationships.every((r, i) => r.id === b.relationships[i]!.id);
  }
  if (a instanceof Uint8Array) {
    return b instanceof Uint8Array && a.length === b.length && a.every((x, i) => x === b[i]);
  }
  return temporalOrPointEquals(a, b);
}

/** A path as the list of its alternating nodes and relationships (Neo4j compares it so with lists). */
function pathElements(p: PathRef | Path): CypherValue[] {
  const out: CypherValue[] = [p.nodes[0]!];
  p.relationships.forEach((r, i) => out.push(r, p.nodes[i + 1]!));
  return out;
}

function temporalOrPointEquals(a: CypherValue, b: CypherValue): boolean {
  if (a instanceof CypherDate) return b instanceof CypherDate && a.epochDay === b.epochDay;
  if (a instanceof LocalTime) return b instanceof LocalTime && a.nanoOfDay === b.nanoOfDay;
  if (a instanceof CypherTime) {
    return b instanceof CypherTime && a.nanoOfDay - a.offsetSeconds * 1e9 === b.nanoOfDay - b.offsetSeconds * 1e9;
  }
  if (a instanceof LocalDateTime) return b instanceof LocalDateTime && a.epochSecond === b.epochSecond && a.nano === b.nano;
  if (a instanceof CypherDateTime) {
    return b instanceof CypherDateTime && a.epochSecond === b.epochSecond && a.nano === b.nano;
  }
  if (a instanceof CypherDuration) {
    return (
      b instanceof CypherDuration &&
      a.months === b.months &&
      a.days === b.days &&
      a.seconds === b.seconds &&
      a.nanoseconds === b.nanoseconds
    );
  }
  if (a instanceof CypherPoint) {
    return b instanceof CypherPoint && a.srid === b.srid && a.x === b.x && a.y === b.y && (a.z ?? 0) === (b.z ?? 0);
  }
  if (a instanceof CypherVector) return b instanceof CypherVector && vectorsEqual(a, b);
  return false;
}
