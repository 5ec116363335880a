/**
 * Property access, subscripts, slices and label tests over rows that hold entity references.
 */
import { CypherTypeError, EntityNotFound } from '../../../errors/index.js';
import { typeName } from '../../../values/index.js';
import { Node, NodeRef, Relationship, RelationshipRef } from '../../../values/types.js';
import { temporalProperty } from '../../../values/temporal/properties.js';
import type { CypherMap, CypherValue } from '../../../values/types.js';
import type { ExecutionContext } from '../execution-context.js';

function deleted(what: string, id: bigint): EntityNotFound {
  return new EntityNotFound(`The ${what} with id ${id} has been deleted in this transaction`, { detail: 'DeletedEntityAccess' });
}

/** `value.key` (also `value[key]` with a string key). */
export function property(value: CypherValue, key: string, ctx: ExecutionContext): CypherValue {
  if (value === null) return null;
  if (value instanceof NodeRef) {
    const found = ctx.accessor.nodeProperty(value.id, key);
    if (found === undefined && !ctx.reader.nodeExists(value.id)) throw deleted('node', value.id);
    return found ?? null;
  }
  if (value instanceof RelationshipRef) {
    const found = ctx.accessor.relationshipProperty(value.id, key);
    if (found === undefined && ctx.reader.getRelationship(value.id) === null) throw deleted('relationship', value.id);
    return found ?? null;
  }
  if (value instanceof Map) return (value as CypherMap).get(key) ?? null;
  if (value instanceof Node || value instanceof Relationship) return value.properties.get(key) ?? null;
  if (typeof value === 'object' && !Array.isArray(value)) {
    const component = temporalProperty(value, key);
    if (component !== undefined) return component;
  }
  throw new CypherTypeError(`Type mismatch: expected a map but was ${typeName(value)}`, { detail: 'PropertyAccessOnNonMap' });
}

/** The property map of a node, relationship or map. */
export function propertiesOf(value: CypherValue, ctx: ExecutionContext): CypherMap | null {
  if (value instanceof NodeRef) return ctx.accessor.nodeProperties(value.id);
  if (value instanceof RelationshipRef) return ctx.accessor.relationshipProperties(value.id);
  if (value instanceof Node || value instanceof Relationship) return value.properties;
  if (value instanceof Map) return value as CypherMap;
  return null;
}

function toIndex(index: CypherValue): number {
  if (typeof index !== 'bigint') {
    throw new CypherTypeError(`Type mismatch: expected Integer but was ${typeName(index)}`, { detail: 'InvalidArgumentType' });
  }
  return Number(index);
}

/** `value[index]`: list element (negative from the end) or map/entity key. */
export function subscript(value: CypherValue, index: CypherValue, ctx: ExecutionContext): CypherValue {
  if (value === null || index === null) return null;
  if (Array.isArray(value)) {
    const list = value as readonly CypherValue[];
    const i = toIndex(index);
    const at = i < 0 ? list.length + i : i;
    return at >= 0 && at < list.length ? (list[at] ?? null) : null;
  }
  const keyed =
    value instanceof Map ||
    value instanceof NodeRef ||
    value instanceof RelationshipRef ||
    value instanceof Node ||
    value instanceof Relationship;
  if (!keyed) {
    throw new CypherTypeError(`Type mismatch: expected a list or a map but was ${typeName(value)}`, { detail: 'InvalidArgumentType' });
  }
  if (typeof index !== 'string') {
    throw new CypherTypeError(`Type mismatch: expected String but was ${typeName(index)}`, { detail: 'MapElementAccessByNonString' });
  }
  return property(value, index, ctx);
}

/** `list[from..to]` with Cypher's clamping and negative bounds. */
export function slice(value: CypherValue, from: CypherValue | undefined, to: CypherValue | undefined): CypherValue {
  if (value === null || from === null || to === null) return null;
  if (!Array.isArray(value)) {
    throw new CypherTypeError(`Type mismatch: expected List but was ${typeName(value)}`, { detail: 'InvalidArgumentType' });
  }
  const list = value as readonly CypherValue[];
  const n = list.length;
  const norm = (v: CypherValue | undefined, fallback: number): number => {
    if (v === undefined) return fallback;
    const i = toIndex(v);
    return Math.max(0, Math.min(n, i < 0 ? n + i : i));
  };
  const start = norm(from, 0);
  const end = norm(to, n);
  return start >= end ? [] : list.slice(start, end);
}

/** Labels of a node value (reference or materialized); null for null. */
export function labelsOf(value: CypherValue, ctx: ExecutionContext): readonly string[] | null {
  if (value instanceof NodeRef) return ctx.accessor.nodeLabels(value.id) ?? [];
  if (value instanceof Node) return value.labels;
  return null;
}
