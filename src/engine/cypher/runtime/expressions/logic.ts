/**
 * Three-valued logic, comparison and string/list predicates of Cypher expressions.
 */
import { CypherTypeError } from '../../../errors/index.js';
import { compareForPredicate, equals, typeName } from '../../../values/index.js';
import type { CypherValue } from '../../../values/types.js';
import { regexFullMatch } from '../../functions/user-regex.js';

/** Checks a boolean operand (null allowed) of AND/OR/XOR/NOT/WHERE. */
export function asBoolean(v: CypherValue, context: string): boolean | null {
  if (v === null || typeof v === 'boolean') return v;
  throw new CypherTypeError(`Type mismatch: expected Boolean but was ${typeName(v)} (${context})`, { detail: 'InvalidArgumentType' });
}

/** Three-valued AND. */
export function and(a: boolean | null, b: boolean | null): boolean | null {
  if (a === false || b === false) return false;
  if (a === null || b === null) return null;
  return true;
}

/** Three-valued OR. */
export function or(a: boolean | null, b: boolean | null): boolean | null {
  if (a === true || b === true) return true;
  if (a === null || b === null) return null;
  return false;
}

/** Three-valued XOR. */
export function xor(a: boolean | null, b: boolean | null): boolean | null {
  if (a === null || b === null) return null;
  return a !== b;
}

/** Three-valued NOT. */
export function not(a: boolean | null): boolean | null {
  return a === null ? null : !a;
}

/** `<`, `<=`, `>`, `>=`. */
export function relational(op: '<' | '<=' | '>' | '>=', a: CypherValue, b: CypherValue): boolean | null {
  const c = compareForPredicate(a, b);
  if (c === null) return null;
  if (Number.isNaN(c)) return false;
  switch (op) {
    case '<':
      return c < 0;
    case '<=':
      return c <= 0;
    case '>':
      return c > 0;
    case '>=':
      return c >= 0;
  }
}

/** `x IN list`, three-valued. */
export function inList(x: CypherValue, list: CypherValue): boolean | null {
  if (list === null) return null;
  if (!Array.isArray(list)) {
    throw new CypherTypeError(`Type mismatch: expected List but was ${typeName(list)}`, { detail: 'InvalidArgumentType' });
  }
  let sawNull = false;
  for (const item of list as readonly CypherValue[]) {
    const eq = equals(x, item);
    if (eq === true) return true;
    if (eq === null) sawNull = true;
  }
  return sawNull ? null : false;
}

/** STARTS WITH / ENDS WITH / CONTAINS: null unless both sides are strings. */
export function stringPredicate(op: 'STARTS WITH' | 'ENDS WITH' | 'CONTAINS', a: CypherValue, b: CypherValue): boolean | null {
  if (typeof a !== 'string' || typeof b !== 'string') return null;
  if (op === 'STARTS WITH') return a.startsWith(b);
  if (op === 'ENDS WITH') return a.endsWith(b);
  return a.includes(b);
}

/** `a =~ pattern`: Java-style full match on RE2 (linear time); null unless both are strings. */
export function regexMatch(a: CypherValue, pattern: CypherValue): boolean | null {
  if (typeof a !== 'string' || typeof pattern !== 'string') return null;
  return regexFullMatch(a, pattern);
}
