/**
 * Numeric functions: abs, ceil, floor, round (with precision and rounding mode), sign, sqrt,
 * exp, log, log10, e, pi, rand, isNaN and the trigonometric family.
 */
import { checkedInteger } from '../../values/arithmetic.js';
import type { CypherValue } from '../../values/types.js';
import { asNumber, asString, badArgument, scalar, wrongType } from './define.js';
import type { ScalarFunction } from './registry.js';

const NUMBER = [['Integer', 'Float']] as const;

function floatFn(name: string, f: (x: number) => number, description: string): ScalarFunction {
  return scalar(name, { category: 'Numeric', description, signature: `${name}(input :: FLOAT) :: FLOAT`, argumentTypes: NUMBER }, ([x]) =>
    f(asNumber(name, x!)),
  );
}

type RoundingMode = 'UP' | 'DOWN' | 'CEILING' | 'FLOOR' | 'HALF_UP' | 'HALF_DOWN' | 'HALF_EVEN';
const ROUNDING_MODES = new Set(['UP', 'DOWN', 'CEILING', 'FLOOR', 'HALF_UP', 'HALF_DOWN', 'HALF_EVEN']);

/** Rounds `x` to `precision` decimals with a java.math.RoundingMode, via exact decimal text. */
export function roundTo(x: number, precision: number, mode: RoundingMode): number {
  if (!Number.isFinite(x)) return x;
  const factor = 10 ** precision;
  const scaled = Number((x * factor).toPrecision(15));
  const floor = Math.floor(scaled);
  const fraction = scaled - floor;
  const awayFromZero = scaled >= 0 ? Math.ceil(scaled) : Math.floor(scaled);
  const towardZero = Math.trunc(scaled);
  let r: number;
  switch (mode) {
    case 'UP':
      r = fraction === 0 ? scaled : awayFromZero;
      break;
    case 'DOWN':
      r = towardZero;
      break;
    case 'CEILING':
      r = Math.ceil(scaled);
      break;
    case 'FLOOR':
      r = floor;
      break;
    case 'HALF_UP':
      r = Math.abs(fraction - 0.5) < 1e-12 ? awayFromZero : Math.round(scaled);
      break;
    case 'HALF_DOWN':
      r = Math.abs(fraction - 0.5) < 1e-12 ? towardZero : Math.round(scaled);
      break;
    case 'HALF_EVEN':
      r = Math.abs(fraction - 0.5) < 1e-12 ? (floor % 2 === 0 ? floor : floor + 1) : Math.round(scaled);
      break;
  }
  const result = r / factor;
  return Object.is(result, -0) ? -0 : result;
}

function round(args: readonly CypherValue[]): CypherValue {
  const x = asNumber('round', args[0]!);
  if (args.length === 1) {
    // Java Math.round: half up towards positive infinity.
    return Number.isFinite(x) ? Math.floor(x + 0.5) : x;
  }
  const precision = Number(args[1]);
  if (typeof args[1] !== 'bigint') throw wrongType('round', args[1]!, 'Integer');
  if (precision < 0) throw badArgument(`Invalid input for function 'round()': precision must be non-negative, got ${precision}`);
  // Neo4j: with precision 0 and no mode, ties go towards positive infinity as in round(x).
  if (args.length === 2 && precision === 0) return Number.isFinite(x) ? Math.floor(x + 0.5) : x;
  let mode: RoundingMode = 'HALF_UP';
  if (args.length === 3) {
    const text = asString('round', args[2]!).toUpperCase();
    if (!ROUNDING_MODES.has(text)) throw badArgument(`Unknown rounding mode: ${args[2] as string}`);
    mode = text as RoundingMode;
  }
  return roundTo(x, precision, mode);
}

/** The numeric functions. */
export const mathFunctions: readonly ScalarFunction[] = [
  scalar('abs', { category: 'Numeric', description: 'Returns the absolute value of a number.', argumentTypes: NUMBER }, ([x]) => {
    if (typeof x === 'bigint') return checkedInteger(x < 0n ? -x : x);
    return Math.abs(asNumber('abs', x!));
  }),
  scalar('ceil', { category: 'Numeric', description: 'Rounds up to the nearest integer (FLOAT).', argumentTypes: NUMBER }, ([x]) =>
    Math.ceil(asNumber('ceil', x!)),
  ),
  scalar('floor', { category: 'Numeric', description: 'Rounds down to the nearest integer (FLOAT).', argumentTypes: NUMBER }, ([x]) =>
    Math.floor(asNumber('floor', x!)),
  ),
  scalar(
    'round',
    { min: 1, max: 3, category: 'Numeric', description: 'Rounds a number, optionally to a precision with a rounding mode.' },
    round,
  ),
  scalar('sign', { category: 'Numeric', description: 'Returns -1, 0 or 1 (INTEGER).', argumentTypes: NUMBER }, ([x]) => {
    if (typeof x === 'bigint') return x < 0n ? -1n : x > 0n ? 1n : 0n;
    const n = asNumber('sign', x!);
    return Number.isNaN(n) ? 0n : BigInt(Math.sign(n));
  }),
  scalar('isNaN', { category: 'Numeric', description: 'True if the number is NaN.', argumentTypes: NUMBER }, ([x]) =>
    Number.isNaN(asNumber('isNaN', x!)),
  ),
  scalar('rand', { min: 0, category: 'Numeric', deterministic: false, description: 'A random FLOAT in [0, 1).' }, (_args, ctx) =>
    ctx.random(),
  ),
  scalar('e', { min: 0, category: 'Logarithmic', description: "Euler's number." }, () => Math.E),
  scalar('pi', { min: 0, category: 'Trigonometric', description: 'The mathematical constant pi.' }, () => Math.PI),
  floatFn('sqrt', Math.sqrt, 'Square root.'),
  floatFn('exp', Math.exp, 'e raised to the power of the argument.'),
  floatFn('log', Math.log, 'Natural logarithm.'),
  floatFn('log10', Math.log10, 'Common logarithm (base 10).'),
  floatFn('sin', Math.sin, 'Sine of an angle in radians.'),
  floatFn('cos', Math.cos, 'Cosine of an angle in radians.'),
  floatFn('tan', Math.tan, 'Tangent of an angle in radians.'),
  floatFn('cot', (x) => 1 / Math.tan(x), 'Cotangent of an angle in radians.'),
  floatFn('asin', Math.asin, 'Arcsine in radians.'),
  floatFn('acos', Math.acos, 'Arccosine in radians.'),
  floatFn('atan', Math.atan, 'Arctangent in radians.'),
  floatFn('sinh', Math.sinh, 'Hyperbolic sine.'),
  floatFn('cosh', Math.cosh, 'Hyperbolic cosine.'),
  floatFn('tanh', Math.tanh, 'Hyperbolic tangent.'),
  floatFn('coth', (x) => 1 / Math.tanh(x), 'Hyperbolic cotangent.'),
  floatFn('degrees', (x) => (x * 180) / Math.PI, 'Radians to degrees.'),
  floatFn('radians', (x) => (x * Math.PI) / 180, 'Degrees to radians.'),
  floatFn('haversin', (x) => (1 - Math.cos(x)) / 2, 'Half the versine of a number.'),
  scalar(
    'atan2',
    {
      min: 2,
      category: 'Trigonometric',
      description: 'Arctangent2 of a set of coordinates in radians.',
      argumentTypes: [NUMBER[0], NUMBER[0]],
    },
    ([y, x]) => Math.atan2(asNumber('atan2', y!), asNumber('atan2', x!)),
  ),
];
