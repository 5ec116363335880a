/**
 * Compares engine results with TCK expectations, the TCK way: integers never equal floats,
 * NaN equals NaN, -0.0 equals 0.0, nodes and relationships compare by labels/type and
 * properties (never identity), temporal values by their string form, and result tables either
 * in order or as multisets.
 */
import { Node, Path, Relationship } from '../../src/engine/values/types.js';
import type { CypherValue } from '../../src/engine/values/types.js';
import { parseTckValue } from './tck-values.js';
import type { TckNode, TckRel, TckValue } from './tck-values.js';

/** Options that shape one comparison. */
export interface CompareOptions {
  /** Lists compare as multisets (`ignoring element order for lists`). */
  readonly ignoreListOrder: boolean;
  /** Renders temporal and other non-JSON scalars to the string the TCK writes. */
  readonly formatScalar: (value: CypherValue) => string | null;
}

/** True when `actual` matches the expected TCK value. */
export function matches(expected: TckValue, actual: CypherValue, options: CompareOptions): boolean {
  switch (expected.k) {
    case 'null':
      return actual === null;
    case 'bool':
      return actual === expected.v;
    case 'int':
      return typeof actual === 'bigint' && actual === expected.v;
    case 'float':
      return typeof actual === 'number' && (actual === expected.v || (Number.isNaN(actual) && Number.isNaN(expected.v)));
    case 'string':
      if (typeof actual === 'string') return actual === expected.v;
      return actual !== null && typeof actual === 'object' && options.formatScalar(actual) === expected.v;
    case 'list':
      return Array.isArray(actual) && listMatches(expected.items, actual as readonly CypherValue[], options);
    case 'map':
      return actual instanceof Map && propsMatch(expected.entries, actual, options);
    case 'node':
      return actual instanceof Node && nodeMatches(expected, actual, options);
    case 'rel':
      return actual instanceof Relationship && relMatches(expected, actual, options);
    case 'path':
      return actual instanceof Path && pathMatches(expected, actual, options);
  }
}

function listMatches(expected: readonly TckValue[], actual: readonly CypherValue[], options: CompareOptions): boolean {
  if (expected.length !== actual.length) return false;
  if (!options.ignoreListOrder) return expected.every((e, i) => matches(e, actual[i] ?? null, options));
  return multisetMatches(expected, actual, (e, a) => matches(e, a, options));
}

function propsMatch(expected: ReadonlyMap<string, TckValue>, actual: ReadonlyMap<string, CypherValue>, options: CompareOptions): boolean {
  if (expected.size !== actual.size) return false;
  for (const [key, value] of expected) {
    if (!actual.has(key) || !matches(value, actual.get(key) ?? null, options)) return false;
  }
  return true;
}

function nodeMatches(expected: TckNode, actual: Node, options: CompareOptions): boolean {
  const labels = new Set(actual.labels);
  return (
    labels.size === expected.labels.length &&
    expected.labels.every((l) => labels.has(l)) &&
    propsMatch(expected.props, actual.properties, { ...options, ignoreListOrder: false })
  );
}

function relMatches(expected: TckRel, actual: Relationship, options: CompareOptions): boolean {
  return actual.type === expected.type && propsMatch(expected.props, actual.properties, { ...options, ignoreListOrder: false });
}

function pathMatches(expected: Extract<TckValue, { k: 'path' }>, actual: Path, options: CompareOptions): boolean {
  if (actual.relationships.length !== expected.steps.length) return false;
  const first = actual.nodes[0];
  if (!first || !nodeMatches(expected.start, first, options)) return false;
  return expected.steps.every((step, i) => {
    const rel = actual.relationships[i];
    const from = actual.nodes[i];
    const to = actual.nodes[i + 1];
    if (!rel || !from || !to) return false;
    const forward = rel.startId === from.id && rel.endId === to.id;
    const backward = rel.endId === from.id && rel.startId === to.id;
    return relMatches(step.rel, rel, options) && nodeMatches(step.node, to, options) && (step.forward ? forward : backward);
  });
}

/** Finds a one-to-one pairing between `expected` and `actual` (both the same length). */
export function multisetMatches<E, A>(expected: readonly E[], actual: readonly A[], eq: (e: E, a: A) => boolean): boolean {
  if (expected.length !== actual.length) return false;
  const candidates = expected.map((e) => actual.map((a, j) => (eq(e, a) ? j : -1)).filter((j) => j >= 0));
  const owner = new Array<number>(actual.length).fill(-1);
  const tryAssign = (i: number, seen: Set<number>): boolean => {
    for (const j of candidates[i] ?? []) {
      if (seen.has(j)) continue;
      seen.add(j);
      const current = owner[j] ?? -1;
      if (current < 0 || tryAssign(current, seen)) {
        owner[j] = i;
        return true;
      }
    }
    return false;
  };
  return expected.every((_, i) => tryAssign(i, new Set()));
}

/** Result of comparing a table. `reason` explains the first mismatch. */
export interface TableComparison {
  readonly ok: boolean;
  readonly reason?: string;
}

/** Compares an expected TCK table (raw cells) with actual result rows. */
export function compareTable(
  expectedColumns: readonly string[],
  expectedRows: readonly (readonly string[])[],
  actualColumns: readonly string[],
  actualRows: readonly (readonly CypherValue[])[],
  ordered: boolean,
  options: CompareOptions,
): TableComparison {
  if (expectedColumns.length !== actualColumns.length || expectedColumns.some((c) => !actualColumns.includes(c))) {
    return { ok: false, reason: `columns ${JSON.stringify(actualColumns)} != ${JSON.stringify(expectedColumns)}` };
  }
  if (expectedRows.length !== actualRows.length) {
    return { ok: false, reason: `${actualRows.length} rows, expected ${expectedRows.length}` };
  }
  const order = expectedColumns.map((c) => actualColumns.indexOf(c));
  const parsed = expectedRows.map((row) => row.map(parseTckValue));
  const rowEq = (e: readonly TckValue[], a: readonly CypherValue[]): boolean =>
    e.every((cell, i) => matches(cell, a[order[i] ?? 0] ?? null, options));
  const ok = ordered ? parsed.every((row, i) => rowEq(row, actualRows[i] ?? [])) : multisetMatches(parsed, actualRows, rowEq);
  return ok ? { ok } : { ok, reason: 'row values differ' };
}
