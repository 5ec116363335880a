/**
 * apoc.any, apoc.label, apoc.node, apoc.rel: functions over single entities (real or virtual),
 * and the relationship-pattern syntax they share (`KNOWS>|<LIKES|FOLLOWS`).
 */
import type { Direction, GraphReader } from '../../../storage/graph-store.js';
import { isNode, isRelationship } from '../../../values/kinds.js';
import { Node, NodeRef, Relationship, type CypherValue } from '../../../values/types.js';
import type { FunctionContext } from '../../functions/registry.js';
import { executionOf, fn } from './define.js';
import { labelsOf, listArg, propsOf } from './values.js';
import { valueText } from '../../../values/to-string.js';

/** One entry of a relationship pattern: a type (or all types) and a direction. */
export interface RelPattern {
  readonly type: string | null;
  readonly direction: Direction;
}

/** Parses `TYPE>`, `<TYPE`, `TYPE`, `>`, `<` separated by `|` (empty: every type, both directions). */
export function parseRelPatterns(text: CypherValue): RelPattern[] {
  const s = typeof text === 'string' ? text.trim() : '';
  if (s === '') return [{ type: null, direction: 'both' }];
  return s.split('|').map((part) => {
    const p = part.trim();
    if (p.startsWith('<')) return { type: p.slice(1) || null, direction: 'in' as const };
    if (p.endsWith('>')) return { type: p.slice(0, -1) || null, direction: 'out' as const };
    return { type: p || null, direction: 'both' as const };
  });
}

/** The reader of the running statement (functions that read the graph). */
export function readerOf(ctx: FunctionContext): GraphReader {
  return executionOf(ctx).reader;
}

/** Degree of a node for a relationship pattern. */
export function degreeFor(reader: GraphReader, id: bigint, patterns: readonly RelPattern[], only?: Direction): number {
  let total = 0;
  for (const p of patterns) {
    const direction = only ?? p.direction;
    if (only && p.direction !== 'both' && p.direction !== only) continue;
    total += reader.degree(id, direction, p.type === null ? undefined : [p.type]);
  }
  return total;
}

function entityId(v: CypherValue): bigint | null {
  return isNode(v) || isRelationship(v) ? v.id : null;
}

function relTypesOf(reader: GraphReader, id: bigint, patterns: readonly RelPattern[]): string[] {
  const types = new Set<string>();
  for (const p of patterns) for (const r of reader.expand(id, p.direction, p.type === null ? undefined : [p.type])) types.add(r.type);
  return [...types];
}

function existsMap(reader: GraphReader, id: bigint, text: CypherValue): Map<string, CypherValue> {
  const out = new Map<string, CypherValue>();
  const parts = typeof text === 'string' && text.trim() !== '' ? text.split('|') : [];
  for (const part of parts) out.set(part.trim(), degreeFor(reader, id, parseRelPatterns(part)) > 0);
  return out;
}

/** Relationship helpers for apoc.nodes functions. */
export { relTypesOf, existsMap };

/** The apoc.any, apoc.label, apoc.node and apoc.rel functions. */
export const entityEntries = [
  fn(
    'apoc.any.properties(object :: ANY, keys = null :: LIST<STRING>) :: MAP',
    'Returns all properties of the given object.',
    ([object, keys], ctx) => {
      if (object === null) return null;
      const props = propsOf(object!, ctx.accessor);
      if (keys === null) return props;
      const wanted = listArg(keys);
      return new Map([...props].filter(([k]) => wanted.includes(k)));
    },
  ),
  fn(
    'apoc.any.property(object :: ANY, key :: STRING) :: ANY',
    'Returns the property for the given key from an object.',
    ([object, key], ctx) => {
      if (object === null || key === null) return null;
      return propsOf(object!, ctx.accessor).get(valueText(key)) ?? null;
    },
  ),
  fn(
    'apoc.any.isDeleted(object :: ANY) :: BOOLEAN',
    'Returns true if the given `NODE` or `RELATIONSHIP` no longer exists.',
    ([object], ctx) => {
      if (object instanceof Node || object instanceof Relationship) return false;
      if (object instanceof NodeRef) return !readerOf(ctx).nodeExists(object.id);
      if (isRelationship(object!)) return readerOf(ctx).getRelationship(object.id) === null;
      return null;
    },
  ),
  fn(
    'apoc.label.exists(node :: ANY, label :: STRING) :: BOOLEAN',
    'Returns true or false depending on whether or not the given label exists.',
    ([node, label], ctx) => {
      if (isNode(node!)) return labelsOf(node, ctx.accessor).includes(valueText(label));
      if (isRelationship(node!)) return node.type === label;
      return false;
    },
  ),
  fn(
    "apoc.node.degree(node :: NODE, relTypes = '' :: STRING) :: INTEGER",
    'Returns the total degrees of the given `NODE`.',
    ([node, types], ctx) => (isNode(node!) ? BigInt(degreeFor(readerOf(ctx), node.id, parseRelPatterns(types!))) : null),
  ),
  fn(
    "apoc.node.degree.in(node :: NODE, relTypes = '' :: STRING) :: INTEGER",
    'Returns the total number of incoming `RELATIONSHIP` values connected to the given `NODE`.',
    ([node, types], ctx) => (isNode(node!) ? BigInt(degreeFor(readerOf(ctx), node.id, parseRelPatterns(types!), 'in')) : null),
  ),
  fn(
    "apoc.node.degree.out(node :: NODE, relTypes = '' :: STRING) :: INTEGER",
    'Returns the total number of outgoing `RELATIONSHIP` values from the given `NODE`.',
    ([node, types], ctx) => (isNode(node!) ? BigInt(degreeFor(readerOf(ctx), node.id, parseRelPatterns(types!), 'out')) : null),
  ),
  fn('apoc.node.id(node :: NODE) :: INTEGER', 'Returns the id for the given virtual `NODE`.', ([node]) => entityId(node!)),
  fn('apoc.node.labels(node :: NODE) :: LIST<ANY>', 'Returns the labels for the given virtual `NODE`.', ([node], ctx) =>
    isNode(node!) ? [...labelsOf(node, ctx.accessor)] : null,
  ),
  fn(
    "apoc.node.relationship.exists(node :: NODE, relTypes = '' :: STRING) :: BOOLEAN",
    'Returns a `BOOLEAN` based on whether the given `NODE` has a connecting `RELATIONSHIP` (or whether the given `NODE` has a connecting `RELATIONSHIP` of the given type and direction).',
    ([node, types], ctx) => (isNode(node!) ? degreeFor(readerOf(ctx), node.id, parseRelPatterns(types!)) > 0 : null),
  ),
  fn(
    "apoc.node.relationship.types(node :: NODE, relTypes = '' :: STRING) :: LIST<ANY>",
    'Returns a `LIST<STRING>` of distinct `RELATIONSHIP` types for the given `NODE`.',
    ([node, types], ctx) => (isNode(node!) ? relTypesOf(readerOf(ctx), node.id, parseRelPatterns(types!)) : null),
  ),
  fn(
    "apoc.node.relationships.exist(node :: NODE, relTypes = '' :: STRING) :: MAP",
    'Returns a `BOOLEAN` based on whether the given `NODE` has connecting `RELATIONSHIP` values (or whether the given `NODE` has connecting `RELATIONSHIP` values of the given type and direction).',
    ([node, types], ctx) => (isNode(node!) ? existsMap(readerOf(ctx), node.id, types!) : null),
  ),
  fn('apoc.rel.id(rel :: RELATIONSHIP) :: INTEGER', 'Returns the id for the given virtual `RELATIONSHIP`.', ([rel]) => entityId(rel!)),
  fn('apoc.rel.type(rel :: RELATIONSHIP) :: STRING', 'Returns the type for the given virtual `RELATIONSHIP`.', ([rel]) =>
    isRelationship(rel!) ? rel.type : null,
  ),
  fn('apoc.rel.startNode(rel :: RELATIONSHIP) :: NODE', 'Returns the start `NODE` for the given virtual `RELATIONSHIP`.', ([rel]) =>
    isRelationship(rel!) ? new NodeRef(rel.startId) : null,
  ),
  fn('apoc.rel.endNode(rel :: RELATIONSHIP) :: NODE', 'Returns the end `NODE` for the given virtual `RELATIONSHIP`.', ([rel]) =>
    isRelationship(rel!) ? new NodeRef(rel.endId) : null,
  ),
];
