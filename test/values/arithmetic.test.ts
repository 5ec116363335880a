import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ArithmeticError, CypherTypeError } from '../../src/engine/errors/index.js';
import { add, CypherDate, divide, formatLiteral, modulo, multiply, negate, power, subtract } from '../../src/engine/values/index.js';
import { int64 } from './arbitraries.js';

const MAX = 2n ** 63n - 1n;
const MIN = -(2n ** 63n);
const fits = (x: bigint) => x >= MIN && x <= MAX;

function outcome(f: () => unknown): unknown {
  try {
    return f();
  } catch (e) {
    return e instanceof ArithmeticError ? 'overflow' : e;
  }
}

describe('integer arithmetic', () => {
  it('matches exact math inside the 64-bit range and raises ArithmeticError outside it', () => {
    fc.assert(
      fc.property(int64, int64, (a, b) => {
        for (const [op, exact] of [
          [add, a + b],
          [subtract, a - b],
          [multiply, a * b],
        ] as const) {
          assert.equal(
            outcome(() => op(a, b)),
            fits(exact) ? exact : 'overflow',
          );
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('hits the exact overflow edges', () => {
    assert.equal(add(MAX - 1n, 1n), MAX);
    assert.throws(() => add(MAX, 1n), ArithmeticError);
    assert.equal(subtract(MIN + 1n, 1n), MIN);
    assert.throws(() => subtract(MIN, 1n), ArithmeticError);
    assert.throws(() => negate(MIN), ArithmeticError);
    assert.equal(negate(MAX), -MAX);
    assert.throws(() => multiply(2n ** 32n, 2n ** 31n), ArithmeticError);
    assert.equal(multiply(-(2n ** 32n), 2n ** 31n), MIN);
    assert.throws(() => divide(MIN, -1n), ArithmeticError);
  });

  it('truncates integer division toward zero; % follows the dividend; by zero is an ArithmeticError', () => {
    assert.equal(divide(7n, -2n), -3n);
    assert.equal(modulo(-7n, 2n), -1n);
    assert.throws(
      () => divide(1n, 0n),
      (e: unknown) => e instanceof ArithmeticError && e.message === '/ by zero',
    );
    assert.throws(() => modulo(1n, 0n), ArithmeticError);
    assert.equal(divide(1n, 0.0), Infinity);
    assert.ok(Number.isNaN(divide(0.0, 0n)));
  });
});

describe('mixed arithmetic', () => {
  it('promotes to FLOAT, makes ^ a FLOAT, and propagates null', () => {
    assert.equal(add(1n, 0.5), 1.5);
    assert.equal(power(2n, 3n), 8);
    assert.equal(typeof power(2n, 3n), 'number');
    assert.equal(add(null, 1n), null);
    assert.equal(multiply(3n, null), null);
  });

  it('concatenates strings and lists', () => {
    assert.equal(add('a', 'b'), 'ab');
    assert.equal(add('a', 1n), 'a1');
    assert.equal(add(1.0, 'a'), '1.0a');
    assert.equal(formatLiteral(add([1n], [2n, 3n])), '[1, 2, 3]');
    assert.equal(formatLiteral(add([1n], 2n)), '[1, 2]');
    assert.equal(formatLiteral(add(0n, [1n])), '[0, 1]');
    assert.equal(add([1n], null), null);
  });

  it('rejects other combinations with a TypeError', () => {
    assert.throws(() => add(true, 1n), CypherTypeError);
    assert.throws(() => add('a', new Map()), CypherTypeError);
    assert.equal(add('a', true), 'atrue');
    assert.throws(() => subtract('a', 1n), CypherTypeError);
    assert.throws(() => multiply(new CypherDate(0), 2n), CypherTypeError);
    assert.throws(() => negate('a'), CypherTypeError);
  });
});
