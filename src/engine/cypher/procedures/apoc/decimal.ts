/**
 * Exact decimal arithmetic for apoc.number.exact (Java BigDecimal semantics: unscaled bigint
 * and scale, MathContext precision in significant digits, the java.math rounding modes).
 */
import { illegalArgument } from './define.js';

/** unscaled × 10^-scale */
export interface Decimal {
  readonly unscaled: bigint;
  readonly scale: number;
}

/** Parses a decimal text (`12.50`, `-3`, `1e3`). */
export function parseDecimal(text: string): Decimal {
  const m = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/.exec(text);
  if (m === null || (m[2] === '' && (m[3] ?? '') === ''))
    throw illegalArgument(`Character array is missing "exponent" mark 'e' or 'E'. (${text})`);
  const fraction = m[3] ?? '';
  const unscaled = BigInt(`${m[1]}${m[2]}${fraction}` || '0');
  return { unscaled, scale: fraction.length - Number(m[4] ?? 0) };
}

function pow10(n: number): bigint {
  return 10n ** BigInt(n);
}

function align(a: Decimal, b: Decimal): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale);
  return [a.unscaled * pow10(scale - a.scale), b.unscaled * pow10(scale - b.scale), scale];
}

/** a + b */
export function addDecimal(a: Decimal, b: Decimal): Decimal {
  const [x, y, scale] = align(a, b);
  return { unscaled: x + y, scale };
}

/** a - b */
export function subtractDecimal(a: Decimal, b: Decimal): Decimal {
  const [x, y, scale] = align(a, b);
  return { unscaled: x - y, scale };
}

/** a × b */
export function multiplyDecimal(a: Decimal, b: Decimal): Decimal {
  return { unscaled: a.unscaled * b.unscaled, scale: a.scale + b.scale };
}

/** Divides with rounding: the quotient of n/d rounded by `mode`. */
function divideRounded(n: bigint, d: bigint, mode: string): bigint {
  const q = n / d;
  const r = n % d;
  if (r === 0n) return q;
  const negative = n < 0n !== d < 0n;
  const twice = 2n * (r < 0n ? -r : r);
  const absD = d < 0n ? -d : d;
  const away = negative ? q - 1n : q + 1n;
  switch (mode) {
    case 'UP':
      return away;
    case 'DOWN':
      return q;
    case 'CEILING':
      return negative ? q : away;
    case 'FLOOR':
      return negative ? away : q;
    case 'HALF_UP':
      return twice >= absD ? away : q;
    case 'HALF_DOWN':
      return twice > absD ? away : q;
    case 'HALF_EVEN':
      return twice > absD || (twice === absD && q % 2n !== 0n) ? away : q;
    case 'UNNECESSARY':
      throw illegalArgument('Rounding necessary');
    default:
      throw illegalArgument(`No enum constant java.math.RoundingMode.${mode}`);
  }
}

function digits(v: bigint): number {
  return (v < 0n ? -v : v).toString().length;
}

/** Rounds to `precision` significant digits (0: unlimited). */
export function roundDecimal(d: Decimal, precision: number, mode: string): Decimal {
  if (precision <= 0) return d;
  const drop = digits(d.unscaled) - precision;
  if (drop <= 0) return d;
  return { unscaled: divideRounded(d.unscaled, pow10(drop), mode), scale: d.scale - drop };
}

/** a ÷ b: exact when precision is 0 (a non-terminating quotient is an error), else rounded. */
export function divideDecimal(a: Decimal, b: Decimal, precision: number, mode: string): Decimal {
  if (b.unscaled === 0n) throw illegalArgument('Division by zero');
  if (precision <= 0) {
    for (let extra = 0; extra <= 400; extra++) {
      const n = a.unscaled * pow10(extra);
      if (n % b.unscaled === 0n) return { unscaled: n / b.unscaled, scale: a.scale - b.scale + extra };
    }
    throw illegalArgument('Non-terminating decimal expansion; no exact representable decimal result.');
  }
  const extra = precision + digits(b.unscaled) + 2;
  const n = a.unscaled * pow10(extra);
  return roundDecimal({ unscaled: divideRounded(n, b.unscaled, mode), scale: a.scale - b.scale + extra }, precision, mode);
}

/** The plain decimal text (`12.50`, `-0.003`, `1000`). */
export function formatDecimal(d: Decimal): string {
  if (d.scale <= 0) return (d.unscaled * pow10(-d.scale)).toString();
  const negative = d.unscaled < 0n;
  const text = (negative ? -d.unscaled : d.unscaled).toString().padStart(d.scale + 1, '0');
  return `${negative ? '-' : ''}${text.slice(0, -d.scale)}.${text.slice(-d.scale)}`;
}

/** Java BigDecimal.toString: plain unless the exponent is small or the scale negative. */
export function javaDecimalString(d: Decimal): string {
  const adjusted = digits(d.unscaled) - 1 - d.scale;
  if (d.scale >= 0 && adjusted >= -6) return formatDecimal(d);
  const negative = d.unscaled < 0n;
  const coefficient = (negative ? -d.unscaled : d.unscaled).toString();
  const mantissa = coefficient.length > 1 ? `${coefficient[0]}.${coefficient.slice(1)}` : coefficient;
  return `${negative ? '-' : ''}${mantissa}E${adjusted >= 0 ? '+' : ''}${adjusted}`;
}

/** The value with exactly `scale` fraction digits, rounded by `mode` when digits are dropped. */
export function setScale(d: Decimal, scale: number, mode: string): Decimal {
  if (scale >= d.scale) return { unscaled: d.unscaled * pow10(scale - d.scale), scale };
  return { unscaled: divideRounded(d.unscaled, pow10(d.scale - scale), mode), scale };
}
