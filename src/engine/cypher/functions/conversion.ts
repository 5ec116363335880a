/**
 * Type conversions: toBoolean, toInteger, toFloat, toString, their `OrNull` forms (which
 * return null instead of failing), the list forms (`toIntegerList`, ...) and valueType().
 */
import { cypherToString } from '../../values/to-string.js';
import { valueTypeName } from '../../values/kinds.js';
import { CypherVector, type CypherValue } from '../../values/types.js';
import { asList, invalidValue, scalar } from './define.js';
import type { ScalarFunction } from './registry.js';

/** null from a conversion means "not convertible"; `undefined` means "type not accepted". */
type Converter = (v: CypherValue) => CypherValue | undefined;

const INTEGER_TEXT = /^\s*[+-]?\d+\s*$/;
const FLOAT_TEXT = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;
const SPECIAL_FLOATS: Record<string, number> = { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity };

function parseFloatText(s: string): number | null {
  const t = s.trim();
  if (t in SPECIAL_FLOATS) return SPECIAL_FLOATS[t]!;
  return FLOAT_TEXT.test(t) ? Number(t) : null;
}

function fitsInt64(x: bigint): boolean {
  return BigInt.asIntN(64, x) === x;
}

const toBooleanValue: Converter = (v) => {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') {
    const t = v.trim().toLowerCase();
    return t === 'true' ? true : t === 'false' ? false : null;
  }
  if (typeof v === 'bigint') return v !== 0n;
  return undefined;
};

const toIntegerValue: Converter = (v) => {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return null;
    const i = BigInt(Math.trunc(v));
    return fitsInt64(i) ? i : null;
  }
  if (typeof v === 'boolean') return v ? 1n : 0n;
  if (typeof v === 'string') {
    if (INTEGER_TEXT.test(v)) {
      const i = BigInt(v.trim());
      return fitsInt64(i) ? i : null;
    }
    const f = parseFloatText(v);
    if (f === null || !Number.isFinite(f)) return null;
    const i = BigInt(Math.trunc(f));
    return fitsInt64(i) ? i : null;
  }
  return undefined;
};

const toFloatValue: Converter = (v) => {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string') return parseFloatText(v);
  return undefined;
};

const toStringValue: Converter = (v) => {
  const s = cypherToString(v);
  return s === null ? undefined : s;
};

function converter(name: string, convert: Converter, description: string, accepted: readonly string[]): ScalarFunction[] {
  const strict = scalar(name, { category: 'Conversion', description, argumentTypes: [accepted] }, ([v]) => {
    const r = convert(v!);
    if (r === undefined) throw invalidValue(name, v!);
    return r;
  });
  const orNull = scalar(
    `${name}OrNull`,
    { category: 'Conversion', description: `${description} Null when not convertible.` },
    ([v]) => convert(v!) ?? null,
  );
  const list = scalar(
    `${name}List`,
    { category: 'List', description: `Converts each element of a list; unconvertible elements become null.` },
    ([v]) => (v instanceof CypherVector ? v.toList() : asList(`${name}List`, v!)).map((e) => (e === null ? null : (convert(e) ?? null))),
  );
  return [strict, orNull, list];
}

/** The conversion functions. */
export const conversionFunctions: readonly ScalarFunction[] = [
  ...converter('toBoolean', toBooleanValue, 'Converts a string, integer or boolean to a boolean.', ['String', 'Boolean', 'Integer']),
  ...converter('toInteger', toIntegerValue, 'Converts a string, number or boolean to an integer.', [
    'String',
    'Integer',
    'Float',
    'Boolean',
  ]),
  ...converter('toFloat', toFloatValue, 'Converts a string or number to a float.', ['String', 'Integer', 'Float']),
  ...converter('toString', toStringValue, 'Converts a value to its string form.', [
    'String',
    'Integer',
    'Float',
    'Boolean',
    'Point',
    'Date',
    'LocalTime',
    'Time',
    'LocalDateTime',
    'DateTime',
    'Duration',
  ]),
  scalar('valueType', { category: 'Scalar', nullIn: false, description: 'The Cypher type name of a value.' }, ([v]) => valueTypeName(v!)),
];
