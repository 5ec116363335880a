/**
 * `x IS :: TYPE`: tests a value against a Cypher type written in the query.
 */
import { CypherVector, matchesVectorType, valueTypeName } from '../../../values/index.js';
import type { CypherValue } from '../../../values/types.js';
import { Kind } from '../../ast/index.js';
import type { CypherTypeNode } from '../../ast/index.js';
import { assertStorableProperty } from '../../../storage/property-rules.js';

/** True for a value a property can hold (`IS :: PROPERTY VALUE`). */
function isStorable(value: CypherValue): boolean {
  try {
    assertStorableProperty(value);
    return true;
  } catch {
    return false;
  }
}

/** True when `value` belongs to `type`. */
export function matchesType(value: CypherValue, type: CypherTypeNode): boolean {
  switch (type.kind) {
    case Kind.UnionType:
      return type.types.some((t) => matchesType(value, t));
    case Kind.ListType:
      if (value === null) return !type.notNull;
      return Array.isArray(value) && (value as readonly CypherValue[]).every((v) => matchesType(v, type.elementType));
    case Kind.SimpleType: {
      if (value === null) return !type.notNull && type.name !== 'NOTHING';
      if (type.name === 'ANY') return true;
      if (type.name === 'NOTHING') return false;
      if (type.name === 'NULL') return false;
      if (type.name === 'PROPERTY VALUE') return isStorable(value);
      if (type.name.startsWith('VECTOR')) return value instanceof CypherVector && matchesVectorType(type.name, value);
      const actual = valueTypeName(value).replace(/ NOT NULL$/, '');
      if (type.name === 'MAP' && actual === 'MAP') return true;
      return actual === type.name || (type.name.startsWith('LIST') && actual.startsWith('LIST'));
    }
  }
}
