/**
 * Which values may be stored as a property (Neo4j's rule): BOOLEAN, INTEGER, FLOAT, STRING,
 * BYTES, temporal values, DURATION, POINT, and homogeneous lists of those without nulls.
 * Maps, graph entities, nested lists and null-containing lists are rejected with a TypeError.
 */
import { CypherTypeError } from '../errors/index.js';
import { CypherVector, type CypherValue } from '../values/types.js';
import { temporalOrPointName } from '../values/kinds.js';

/** A coarse storage kind used to check list homogeneity; null when not storable. */
function scalarKind(value: CypherValue): string | null {
  switch (typeof value) {
    case 'boolean':
      return 'boolean';
    case 'bigint':
      return 'integer';
    case 'number':
      return 'float';
    case 'string':
      return 'string';
    default:
      break;
  }
  if (value instanceof Uint8Array) return 'bytes';
  return temporalOrPointName(value);
}

/** VECTOR values are storable, but never inside a list. */
function isVector(value: CypherValue): boolean {
  return value instanceof CypherVector;
}

function describe(value: CypherValue): string {
  if (value instanceof Map) return 'Map{...}';
  if (value === null) return 'NO_VALUE';
  return (value as object).constructor?.name ?? typeof value;
}

/** Throws a CypherTypeError unless `value` (non-null) can be stored as a property value. */
export function assertStorableProperty(value: CypherValue): void {
  if (scalarKind(value) !== null || isVector(value)) return;
  if (Array.isArray(value)) {
    let kind: string | null = null;
    for (const item of value as readonly CypherValue[]) {
      if (item === null) throw new CypherTypeError('Collections containing null values can not be stored in properties.');
      if (Array.isArray(item)) throw new CypherTypeError('Collections containing collections can not be stored in properties.');
      const itemKind = scalarKind(item);
      if (itemKind === null) {
        throw new CypherTypeError(`Property values can only be of primitive types or arrays thereof. Encountered: ${describe(item)}.`);
      }
      if (kind !== null && kind !== itemKind) {
        throw new CypherTypeError('Collections containing mixed types can not be stored in properties.');
      }
      kind = itemKind;
    }
    return;
  }
  throw new CypherTypeError(`Property values can only be of primitive types or arrays thereof. Encountered: ${describe(value)}.`);
}
