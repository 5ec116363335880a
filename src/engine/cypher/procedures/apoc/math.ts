/**
 * apoc.math (hyperbolic functions, sigmoid, numeric limits, regression), apoc.bitwise and
 * apoc.scoring.
 */
import type { CypherValue } from '../../../values/types.js';
import { fn, illegalArgument, proc } from './define.js';
import { num } from './values.js';
import { valueText } from '../../../values/to-string.js';

function unary(name: string, description: string, f: (x: number) => number) {
  return fn(`apoc.math.${name}(value :: FLOAT) :: FLOAT`, description, ([v = null]) => (v === null ? null : f(num(v)!)));
}

const constant = (name: string, type: string, description: string, value: CypherValue) =>
  fn(`apoc.math.${name}() :: ${type}`, description, () => value);

function bitwise(a: bigint, op: string, b: bigint): bigint {
  const shift = Number(BigInt.asUintN(6, b));
  switch (op.toUpperCase()) {
    case '&':
    case 'AND':
      return a & b;
    case '|':
    case 'OR':
      return a | b;
    case '^':
    case 'XOR':
      return a ^ b;
    case '~':
    case 'NOT':
      return ~a;
    case '<<':
    case 'SHIFT LEFT':
      return BigInt.asIntN(64, a << BigInt(shift));
    case '>>':
    case 'SHIFT RIGHT':
      return a >> BigInt(shift);
    case '>>>':
    case 'SHIFT RIGHT INCLUDING SIGN':
      return BigInt.asIntN(64, BigInt.asUintN(64, a) >> BigInt(shift));
    default:
      throw illegalArgument(`Invalid bitwise operator : '${op}'`);
  }
}

/** The apoc.math, apoc.bitwise and apoc.scoring entries. */
export const mathEntries = [
  unary('sinh', 'Returns the hyperbolic sine of the given value.', Math.sinh),
  unary('cosh', 'Returns the hyperbolic cosine.', Math.cosh),
  unary('tanh', 'Returns the hyperbolic tangent.', Math.tanh),
  unary('coth', 'Returns the hyperbolic cotangent.', (x) => (x === 0 ? NaN : Math.cosh(x) / Math.sinh(x))),
  unary('sech', 'Returns the hyperbolic secant of the given value.', (x) => 1 / Math.cosh(x)),
  unary('csch', 'Returns the hyperbolic cosecant.', (x) => (x === 0 ? NaN : 1 / Math.sinh(x))),
  unary('sigmoid', 'Returns the sigmoid of the given value.', (x) => 1 / (1 + Math.exp(-x))),
  unary('sigmoidPrime', 'Returns the sigmoid prime [ sigmoid(val) * (1 - sigmoid(val)) ] of the given value.', (x) => {
    const s = 1 / (1 + Math.exp(-x));
    return s * (1 - s);
  }),
  constant('maxByte', 'INTEGER', 'Returns the maximum value of a byte.', 127n),
  constant('minByte', 'INTEGER', 'Returns the minimum value of a byte.', -128n),
  constant('maxInt', 'INTEGER', 'Returns the maximum value of an integer.', 2147483647n),
  constant('minInt', 'INTEGER', 'Returns the minimum value of an integer.', -2147483648n),
  constant('maxLong', 'INTEGER', 'Returns the maximum value of a long.', 9223372036854775807n),
  constant('minLong', 'INTEGER', 'Returns the minimum value of a long.', -9223372036854775808n),
  constant('maxDouble', 'FLOAT', 'Returns the largest positive finite value of type double.', Number.MAX_VALUE),
  constant('minDouble', 'FLOAT', 'Returns the smallest positive non-zero value of type double.', Number.MIN_VALUE),
  proc(
    'apoc.math.regr(label :: STRING, propertyY :: STRING, propertyX :: STRING) :: (r2 :: FLOAT, avgX :: FLOAT, avgY :: FLOAT, slope :: FLOAT)',
    'READ',
    'Returns the coefficient of determination (R-squared) for the values of propertyY and propertyX in the given label.',
    function* ([label, py, px], c) {
      let n = 0;
      let sx = 0;
      let sy = 0;
      let sxx = 0;
      let sxy = 0;
      let syy = 0;
      for (const id of c.reader.nodeIdsByLabel(valueText(label))) {
        const x = num(c.reader.nodeProperty(id, valueText(px)) ?? null);
        const y = num(c.reader.nodeProperty(id, valueText(py)) ?? null);
        if (x === null || y === null) continue;
        n++;
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
        syy += y * y;
      }
      const slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
      const intercept = (sy - slope * sx) / n;
      const ssTotal = syy - (sy * sy) / n;
      const ssResidual =
        syy - 2 * slope * sxy - 2 * intercept * sy + slope * slope * sxx + 2 * slope * intercept * sx + n * intercept * intercept;
      yield [1 - ssResidual / ssTotal, sx / n, sy / n, slope];
    },
  ),
  fn(
    'apoc.bitwise.op(a :: INTEGER, operator :: STRING, b :: INTEGER) :: INTEGER',
    'Returns the result of the bitwise operation.',
    ([a, op, b]) => (a === null || op === null ? null : bitwise(a as bigint, valueText(op), (b ?? 0n) as bigint)),
  ),
  fn(
    'apoc.scoring.existence(score :: INTEGER, exists :: BOOLEAN) :: FLOAT',
    'Returns the given score if true, 0 if false.',
    ([score, exists]) => (exists === true ? Number(score) : 0),
  ),
  fn(
    'apoc.scoring.pareto(minimumThreshold :: INTEGER, eightyPercentValue :: INTEGER, maximumValue :: INTEGER, score :: FLOAT) :: FLOAT',
    'Applies a Pareto scoring function over the given `INTEGER` values.',
    ([min, eighty, max, score = null]) => {
      const s = num(score)!;
      if (s < Number(min)) return 0;
      const alpha = Math.log(5) / Number(eighty);
      return Number(max) * (1 - Math.exp(-alpha * s));
    },
  ),
];
