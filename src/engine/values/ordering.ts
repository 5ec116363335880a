/**
 * Ordering of Cypher values (openCypher CIP2016-06-14).
 *
 * `compare` is the total order used by ORDER BY, min/max and sorting, across all types:
 *   MAP < NODE < RELATIONSHIP < LIST < PATH < POINT < DATETIME < LOCAL DATETIME < DATE
 *   < TIME < LOCAL TIME < DURATION < STRING < BOOLEAN < NUMBER < (BYTES) < NULL,
 * with NaN above every other number and null last.
 *
 * `compareForPredicate` is comparability for `<`, `<=`, `>`, `>=`: null when the operands are
 * incomparable (different types, maps, nodes, durations, points, any null involved). When a
 * NaN is involved it returns NaN so that every relational test on the result is false.
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
import { isNode, isPath, isRelationship, isList, isMap } from './kinds.js';
import { approximateSeconds } from './temporal/duration.js';
import { compareVectors } from './vector.js';

/** Rank of each type group in the ORDER BY total order. */
function typeRank(v: CypherValue): number {
  if (v === null) return 100;
  switch (typeof v) {
    case 'string':
      return 12;
    case 'boolean':
      return 13;
    case 'bigint':
    case 'number':
      return 14;
  }
  if (isMap(v)) return 0;
  if (isNode(v)) return 1;
  if (isRelationship(v)) return 2;
  if (isList(v)) return 3;
  if (v instanceof CypherVector) return 3.5;
  if (isPath(v)) return 4;
  if (v instanceof CypherPoint) return 5;
  if (v instanceof CypherDateTime) return 6;
  if (v instanceof LocalDateTime) return 7;
  if (v instanceof CypherDate) return 8;
  if (v instanceof CypherTime) return 9;
  if (v instanceof LocalTime) return 10;
  if (v instanceof CypherDuration) return 11;
  return 15;
}

function sign(n: number): number {
  return n < 0 ? -1 : n > 0 ? 1 : 0;
}

function compareNumbers(a: bigint | number, b: bigint | number): number {
  const aNaN = typeof a === 'number' && Number.isNaN(a);
  const bNaN = typeof b === 'number' && Number.isNaN(b);
  if (aNaN || bNaN) return aNaN === bNaN ? 0 : aNaN ? 1 : -1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareSequences(xs: readonly CypherValue[], ys: readonly CypherValue[]): number {
  const n = Math.min(xs.length, ys.length);
  for (let i = 0; i < n; i++) {
    const c = compare(xs[i]!, ys[i]!);
    if (c !== 0) return c;
  }
  return sign(xs.length - ys.length);
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Total order for ORDER BY: negative, zero or positive. */
export function compare(a: CypherValue, b: CypherValue): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra - rb;
  if (a === null || b === null) return 0;
  if (typeof a === 'string') return compareStrings(a, b as string);
  if (typeof a === 'boolean') return Number(a) - Number(b);
  if (typeof a === 'bigint' || typeof a === 'number') return compareNumbers(a, b as bigint | number);
  if (isMap(a)) {
    const m = b as ReadonlyMap<string, CypherValue>;
    if (a.size !== m.size) return sign(a.size - m.size);
    const ka = [...a.keys()].sort();
    const kb = [...m.keys()].sort();
    for (let i = 0; i < ka.length; i++) {
      const c = compareStrings(ka[i]!, kb[i]!);
      if (c !== 0) return c;
    }
    return compareSequences(
      ka.map((k) => a.get(k)!),
      kb.map((k) => m.get(k)!),
    );
  }
  if (isNode(a) || isRelationship(a)) {
    const id = (b as { id: bigint }).id;
    return a.id < id ? -1 : a.id > id ? 1 : 0;
  }
  if (isList(a)) return compareSequences(a, b as readonly CypherValue[]);
  if (isPath(a) && isPath(b)) {
    const c = compareSequences(a.nodes, b.nodes);
    return c !== 0 ? c : compareSequences(a.relationships, b.relationships);
  }
  if (a instanceof CypherPoint) {
    const p = b as CypherPoint;
    return sign(a.srid - p.srid) || compareNumbers(a.x, p.x) || compareNumbers(a.y, p.y) || compareNumbers(a.z ?? 0, p.z ?? 0);
  }
  if (a instanceof CypherVector) return compareVectors(a, b as CypherVector);
  if (a instanceof Uint8Array) {
    return compareSequences([...a].map(BigInt), [...(b as Uint8Array)].map(BigInt));
  }
  return compareTemporal(a, b) ?? 0;
}

/** Order of two temporal values of the same type (or two durations); null for other pairs. */
function bigSign(n: bigint): number {
  return n < 0n ? -1 : n > 0n ? 1 : 0;
}

function compareTemporal(a: CypherValue, b: CypherValue): number | null {
  if (a instanceof CypherDate && b instanceof CypherDate) return sign(a.epochDay - b.epochDay);
  if (a instanceof LocalTime && b instanceof LocalTime) return sign(a.nanoOfDay - b.nanoOfDay);
  if (a instanceof CypherTime && b instanceof CypherTime) {
    return sign(a.nanoOfDay - a.offsetSeconds * 1e9 - (b.nanoOfDay - b.offsetSeconds * 1e9)) || sign(a.offsetSeconds - b.offsetSeconds);
  }
  if (a instanceof LocalDateTime && b instanceof LocalDateTime) {
    return bigSign(a.epochSecond - b.epochSecond) || sign(a.nano - b.nano);
  }
  if (a instanceof CypherDateTime && b instanceof CypherDateTime) {
    return (
      bigSign(a.epochSecond - b.epochSecond) ||
      sign(a.nano - b.nano) ||
      sign(a.offsetSeconds - b.offsetSeconds) ||
      compareStrings(a.zoneId ?? '', b.zoneId ?? '')
    );
  }
  if (a instanceof CypherDuration && b instanceof CypherDuration) {
    return (
      sign(approximateSeconds(a) - approximateSeconds(b)) ||
      sign(a.months - b.months) ||
      sign(a.days - b.days) ||
      bigSign(a.seconds - b.seconds) ||
      sign(a.nanoseconds - b.nanoseconds)
    );
  }
  return null;
}

/**
 * Comparison for `<`, `<=`, `>`, `>=`: a negative, zero or positive number, null when
 * incomparable, NaN when a NaN makes every comparison false.
 */
export function compareForPredicate(a: CypherValue, b: CypherValue): number | null {
  if (a === null || b === null) return null;
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) {
    if ((typeof a === 'number' && Number.isNaN(a)) || (typeof b === 'number' && Number.isNaN(b))) return Number.NaN;
    return compareNumbers(a, b);
  }
  if (typeof a === 'string') return typeof b === 'string' ? compareStrings(a, b) : null;
  if (typeof a === 'boolean') return typeof b === 'boolean' ? Number(a) - Number(b) : null;
  if (isList(a)) {
    if (!isList(b)) return null;
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) {
      const c = compareForPredicate(a[i]!, b[i]!);
      if (c === null || Number.isNaN(c) || c !== 0) return c;
    }
    return sign(a.length - b.length);
  }
  if (a instanceof CypherDuration || b instanceof CypherDuration) return null;
  if (typeof a === 'object' && typeof b === 'object') return compareTemporal(a, b);
  return null;
}
