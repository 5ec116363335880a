/**
 * apoc.number: Java DecimalFormat formatting and parsing (patterns such as `#,##0.00`, locale
 * separators by language tag), Roman numerals, and exact decimal arithmetic (apoc.number.exact).
 */
import type { CypherValue } from '../../../values/types.js';
import { fn, illegalArgument } from './define.js';
import {
  addDecimal,
  divideDecimal,
  formatDecimal,
  javaDecimalString,
  multiplyDecimal,
  parseDecimal,
  roundDecimal,
  setScale,
  subtractDecimal,
  type Decimal,
} from './decimal.js';
import { num } from './values.js';
import { valueText } from '../../../values/to-string.js';

function separators(language: string): { group: string; decimal: string } {
  const parts = new Intl.NumberFormat(language === '' ? 'en' : language).formatToParts(12345.6);
  return { group: parts.find((p) => p.type === 'group')?.value ?? ',', decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.' };
}

interface DecimalPattern {
  prefix: string;
  suffix: string;
  grouping: number;
  minInt: number;
  minFrac: number;
  maxFrac: number;
  percent: boolean;
}

function parsePattern(pattern: string): DecimalPattern {
  const positive = (pattern === '' ? '#,##0.###' : pattern).split(';')[0]!;
  const m = /^([^#0,.]*)([#0,]*)(?:\.([#0]*))?(.*)$/.exec(positive);
  if (m === null) throw illegalArgument(`Malformed pattern "${pattern}"`);
  const integer = m[2]!;
  const fraction = m[3] ?? '';
  const lastComma = integer.lastIndexOf(',');
  return {
    prefix: m[1]!.replace(/'/g, ''),
    suffix: m[4]!.replace(/'/g, ''),
    grouping: lastComma < 0 ? 0 : integer.length - lastComma - 1,
    minInt: (integer.match(/0/g) ?? []).length,
    minFrac: (fraction.match(/0/g) ?? []).length,
    maxFrac: fraction.length,
    percent: m[4]!.includes('%') || m[1]!.includes('%'),
  };
}

function formatNumber(value: CypherValue, pattern: string, language: string): string {
  const p = parsePattern(pattern);
  const { group, decimal } = separators(language);
  let d = typeof value === 'bigint' ? { unscaled: value, scale: 0 } : parseDecimal(String(num(value)));
  if (p.percent) d = multiplyDecimal(d, { unscaled: 100n, scale: 0 });
  d = setScale(d, p.maxFrac, 'HALF_EVEN');
  const negative = d.unscaled < 0n;
  const text = formatDecimal({ unscaled: negative ? -d.unscaled : d.unscaled, scale: d.scale });
  let [intPart, fracPart = ''] = text.split('.');
  fracPart = fracPart.replace(/0+$/, '').padEnd(p.minFrac, '0');
  intPart = intPart!.replace(/^0+/, '').padStart(Math.max(p.minInt, 0), '0');
  if (p.grouping > 0) intPart = intPart.replace(new RegExp(`\\B(?=(\\d{${p.grouping}})+(?!\\d))`, 'g'), group);
  const body = fracPart === '' ? intPart : `${intPart}${decimal}${fracPart}`;
  return `${negative && /[1-9]/.test(body) ? '-' : ''}${p.prefix}${body === '' ? '0' : body}${p.suffix}`;
}

function parseNumber(text: string, language: string): number | null {
  const { group, decimal } = separators(language);
  const normalized = text.trim().split(group).join('').replace(decimal, '.');
  const m = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/.exec(normalized);
  return m === null ? null : Number(m[0]);
}

const ROMAN: readonly [number, string][] = [
  [1000, 'M'],
  [900, 'CM'],
  [500, 'D'],
  [400, 'CD'],
  [100, 'C'],
  [90, 'XC'],
  [50, 'L'],
  [40, 'XL'],
  [10, 'X'],
  [9, 'IX'],
  [5, 'V'],
  [4, 'IV'],
  [1, 'I'],
];

function toRoman(n: number): string | null {
  if (!Number.isInteger(n) || n < 1 || n > 3999) return null;
  let out = '';
  for (const [value, symbol] of ROMAN) {
    while (n >= value) {
      out += symbol;
      n -= value;
    }
  }
  return out;
}

function fromRoman(text: string): number | null {
  const s = text.toUpperCase().trim();
  if (!/^M{0,3}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})$/.test(s) || s === '') return null;
  let total = 0;
  let i = 0;
  for (const [value, symbol] of ROMAN) {
    while (s.startsWith(symbol, i)) {
      total += value;
      i += symbol.length;
    }
  }
  return total;
}

function exactArg(v: CypherValue): Decimal | null {
  if (v === null || v === '') return null;
  return parseDecimal(valueText(v));
}

function exact(
  name: string,
  description: string,
  op: (a: Decimal, b: Decimal, precision: number, mode: string) => Decimal,
  rounding: boolean,
) {
  const extra = rounding ? ", precision = 0 :: INTEGER, roundingMode = 'HALF_UP' :: STRING" : '';
  return fn(`apoc.number.exact.${name}(stringA :: STRING, stringB :: STRING${extra}) :: STRING`, description, ([a, b, precision, mode]) => {
    const x = exactArg(a!);
    const y = exactArg(b!);
    if (x === null || y === null) return null;
    return javaDecimalString(op(x, y, Number(precision ?? 0n), valueText(mode ?? 'HALF_UP').toUpperCase()));
  });
}

/** The apoc.number functions. */
export const numberEntries = [
  fn(
    "apoc.number.format(number :: ANY, pattern = '' :: STRING, language = '' :: STRING) :: STRING",
    'Formats the given `INTEGER` or `FLOAT` using the given pattern and language to produce a `STRING`.',
    ([n, pattern, language]) =>
      typeof n === 'bigint' || typeof n === 'number' ? formatNumber(n, valueText(pattern ?? ''), valueText(language ?? '')) : null,
  ),
  fn(
    "apoc.number.parseInt(text :: STRING, pattern = '' :: STRING, language = '' :: STRING) :: INTEGER",
    'Parses the given `STRING` using the given pattern and language to produce a `INTEGER`.',
    ([text, , language]) => {
      if (text === null) return null;
      const n = parseNumber(valueText(text), valueText(language ?? ''));
      return n === null ? null : BigInt(Math.trunc(n));
    },
  ),
  fn(
    "apoc.number.parseFloat(text :: STRING, pattern = '' :: STRING, language = '' :: STRING) :: FLOAT",
    'Parses the given `STRING` using the given pattern and language to produce a `FLOAT`.',
    ([text, , language]) => (text === null ? null : parseNumber(valueText(text), valueText(language ?? ''))),
  ),
  fn('apoc.number.arabicToRoman(number :: ANY) :: STRING', 'Converts the given Arabic numbers to Roman numbers.', ([n = null]) =>
    n === null ? null : toRoman(Number(num(n))),
  ),
  fn('apoc.number.romanToArabic(romanNumeral :: STRING) :: NUMBER', 'Converts the given Roman numbers to Arabic numbers.', ([s]) => {
    if (s === null) return null;
    const n = fromRoman(valueText(s));
    return n === null ? 0n : BigInt(n);
  }),
  exact('add', 'Returns the result of adding the two given large numbers (using Java BigDecimal).', (a, b) => addDecimal(a, b), false),
  exact(
    'sub',
    'Returns the result of subtracting a given large number from another given large number (using Java BigDecimal).',
    (a, b) => subtractDecimal(a, b),
    false,
  ),
  exact(
    'mul',
    'Returns the result of multiplying two given large numbers (using Java BigDecimal).',
    (a, b, p, m) => roundDecimal(multiplyDecimal(a, b), p, m),
    true,
  ),
  exact(
    'div',
    'Returns the result of dividing a given large number with another given large number (using Java BigDecimal).',
    (a, b, p, m) => divideDecimal(a, b, p, m),
    true,
  ),
  fn(
    'apoc.number.exact.toExact(number :: INTEGER) :: INTEGER',
    'Returns the exact value of the given number (using Java BigDecimal).',
    ([n = null]) => n,
  ),
  fn(
    "apoc.number.exact.toFloat(string :: STRING, precision = 0 :: INTEGER, roundingMode = 'HALF_UP' :: STRING) :: FLOAT",
    'Returns the `FLOAT` of the given large number (using Java BigDecimal).',
    ([s, p, m]) => {
      const d = exactArg(s!);
      return d === null ? null : Number(formatDecimal(roundDecimal(d, Number(p ?? 0n), valueText(m ?? 'HALF_UP').toUpperCase())));
    },
  ),
  fn(
    "apoc.number.exact.toInteger(string :: STRING, precision = 0 :: INTEGER, roundingMode = 'HALF_UP' :: STRING) :: INTEGER",
    'Returns the `INTEGER` of the given large number (using Java BigDecimal).',
    ([s, p, m]) => {
      const d = exactArg(s!);
      if (d === null) return null;
      return BigInt.asIntN(64, setScale(roundDecimal(d, Number(p ?? 0n), valueText(m ?? 'HALF_UP').toUpperCase()), 0, 'DOWN').unscaled);
    },
  ),
];
