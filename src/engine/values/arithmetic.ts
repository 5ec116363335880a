/**
 * Cypher arithmetic operators over values.
 *
 * INTEGER arithmetic is exact 64-bit: a result outside the signed 64-bit range raises
 * `ArithmeticError` (Neo4j: "long overflow"), integer `/` and `%` by zero raise "/ by zero".
 * Mixing INTEGER and FLOAT yields FLOAT; `^` always yields FLOAT. `+` also concatenates
 * strings (with any storable scalar on the other side, rendered as `toString` does) and lists, and adds durations to
 * temporals. Any null operand yields null. Other combinations raise `CypherTypeError`.
 */
import { ArgumentError, ArithmeticError, CypherTypeError } from '../errors/index.js';
import { CypherDuration, type CypherValue } from './types.js';
import { isTemporalInstant, typeName, isList } from './kinds.js';
import { cypherToString } from './to-string.js';
import { addDurations, divideDuration, multiplyDuration, negateDuration, subtractDurations } from './temporal/duration.js';
import { addDurationToTemporal, subtractDurationFromTemporal } from './temporal/arithmetic.js';

/** Raises ArithmeticError unless `x` fits in a signed 64-bit integer. */
export function checkedInteger(x: bigint): bigint {
  if (BigInt.asIntN(64, x) !== x) throw new ArithmeticError('long overflow', { detail: 'IntegerOverflow' });
  return x;
}

function typeMismatch(op: string, a: CypherValue, b?: CypherValue): CypherTypeError {
  const operands = b === undefined ? typeName(a) : `${typeName(a)} and ${typeName(b)}`;
  return new CypherTypeError(`Cannot apply operator ${op} to ${operands}`, { detail: 'InvalidArgumentType' });
}

type Num = bigint | number;
function isNum(v: CypherValue): v is Num {
  return typeof v === 'bigint' || typeof v === 'number';
}

function numeric(a: Num, b: Num, onInts: (x: bigint, y: bigint) => bigint, onFloats: (x: number, y: number) => number): Num {
  if (typeof a === 'bigint' && typeof b === 'bigint') return checkedInteger(onInts(a, b));
  return onFloats(Number(a), Number(b));
}

/** Values `+` renders into a string operand: every storable scalar (Neo4j `prettyPrint`). */
function isStringable(v: CypherValue): boolean {
  return cypherToString(v) !== null;
}

/** Longest list `+` builds (as `range()`): beyond it the JavaScript engine aborts the process. */
export const MAX_LIST_LENGTH = 100_000_000;
/** Longest string `+` builds (the JavaScript engine's limit). */
export const MAX_STRING_LENGTH = 2 ** 29 - 24;

function tooLong(what: string, length: number, limit: number): ArgumentError {
  return new ArgumentError(`The ${what} would have ${length} elements, more than the limit of ${limit}`, { detail: 'NumberOutOfRange' });
}

/** `a + b`. */
export function add(a: CypherValue, b: CypherValue): CypherValue {
  if (a === null || b === null) return null;
  if (isNum(a) && isNum(b))
    return numeric(
      a,
      b,
      (x, y) => x + y,
      (x, y) => x + y,
    );
  if (isList(a) || isList(b)) {
    const length = (isList(a) ? a.length : 1) + (isList(b) ? b.length : 1);
    if (length > MAX_LIST_LENGTH) throw tooLong('list', length, MAX_LIST_LENGTH);
    if (isList(a)) return isList(b) ? [...a, ...b] : [...a, b];
    return [a, ...(b as readonly CypherValue[])];
  }
  if ((typeof a === 'string' && isStringable(b)) || (typeof b === 'string' && isStringable(a))) {
    const left = cypherToString(a)!;
    const right = cypherToString(b)!;
    if (left.length + right.length > MAX_STRING_LENGTH) throw tooLong('string', left.length + right.length, MAX_STRING_LENGTH);
    return left + right;
  }
  if (a instanceof CypherDuration) {
    if (b instanceof CypherDuration) return addDurations(a, b);
    if (isTemporalInstant(b)) return addDurationToTemporal(b, a);
  }
  if (isTemporalInstant(a) && b instanceof CypherDuration) return addDurationToTemporal(a, b);
  throw typeMismatch('+', a, b);
}

/** `a - b`. */
export function subtract(a: CypherValue, b: CypherValue): CypherValue {
  if (a === null || b === null) return null;
  if (isNum(a) && isNum(b))
    return numeric(
      a,
      b,
      (x, y) => x - y,
      (x, y) => x - y,
    );
  if (b instanceof CypherDuration) {
    if (a instanceof CypherDuration) return subtractDurations(a, b);
    if (isTemporalInstant(a)) return subtractDurationFromTemporal(a, b);
  }
  throw typeMismatch('-', a, b);
}

/** `a * b`. */
export function multiply(a: CypherValue, b: CypherValue): CypherValue {
  if (a === null || b === null) return null;
  if (isNum(a) && isNum(b))
    return numeric(
      a,
      b,
      (x, y) => x * y,
      (x, y) => x * y,
    );
  if (a instanceof CypherDuration && isNum(b)) return multiplyDuration(a, b);
  if (isNum(a) && b instanceof CypherDuration) return multiplyDuration(b, a);
  throw typeMismatch('*', a, b);
}

/** `a / b`: integer division truncates toward zero. */
export function divide(a: CypherValue, b: CypherValue): CypherValue {
  if (a === null || b === null) return null;
  if (isNum(a) && isNum(b)) {
    if (typeof a === 'bigint' && typeof b === 'bigint') {
      if (b === 0n) throw new ArithmeticError('/ by zero', { detail: 'DivisionByZero' });
      return checkedInteger(a / b);
    }
    return Number(a) / Number(b);
  }
  if (a instanceof CypherDuration && isNum(b)) return divideDuration(a, b);
  throw typeMismatch('/', a, b);
}

/** `a % b`: the sign follows the dividend, as in Java. */
export function modulo(a: CypherValue, b: CypherValue): CypherValue {
  if (a === null || b === null) return null;
  if (isNum(a) && isNum(b)) {
    if (typeof a === 'bigint' && typeof b === 'bigint') {
      if (b === 0n) throw new ArithmeticError('/ by zero', { detail: 'DivisionByZero' });
      return a % b;
    }
    return Number(a) % Number(b);
  }
  throw typeMismatch('%', a, b);
}

/** `a ^ b`: always FLOAT. */
export function power(a: CypherValue, b: CypherValue): CypherValue {
  if (a === null || b === null) return null;
  if (isNum(a) && isNum(b)) return Math.pow(Number(a), Number(b));
  throw typeMismatch('^', a, b);
}

/** Unary `-a`. */
export function negate(a: CypherValue): CypherValue {
  if (a === null) return null;
  if (typeof a === 'bigint') return checkedInteger(-a);
  if (typeof a === 'number') return -a;
  if (a instanceof CypherDuration) return negateDuration(a);
  throw typeMismatch('-', a);
}

/** Unary `+a`. */
export function unaryPlus(a: CypherValue): CypherValue {
  if (a === null || isNum(a) || a instanceof CypherDuration) return a;
  throw typeMismatch('+', a);
}
