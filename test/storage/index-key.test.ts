import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { indexKey, compositeKey } from '../../src/engine/storage/codec/index-key.js';

/** Exact numeric comparison of INTEGER/FLOAT values (no NaN). */
function compareNumbers(a: bigint | number, b: bigint | number): number {
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  const [int, float, sign] = typeof a === 'bigint' ? [a, b as number, 1] : [b as bigint, a, -1];
  if (float === Infinity) return -sign;
  if (float === -Infinity) return sign;
  const floor = BigInt(Math.floor(float));
  if (int < floor) return -sign;
  if (int > floor) return sign;
  return Number.isInteger(float) ? 0 : -sign;
}

const number = fc.oneof(
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
  fc.bigInt({ min: -20n, max: 20n }),
  fc.double({ noNaN: true }),
  fc.integer({ min: -20, max: 20 }).map((n) => n / 2),
  fc.constantFrom(2 ** 53, 2 ** 63, -(2 ** 63), 2 ** 53 + 2),
  fc.constantFrom(2n ** 53n + 1n, 2n ** 63n - 1n, -(2n ** 63n) + 1n),
);

test('number keys order INTEGER and FLOAT together, exactly', () => {
  fc.assert(
    fc.property(number, number, (a, b) => {
      const expected = Math.sign(compareNumbers(a, b));
      const actual = Math.sign(Buffer.compare(indexKey(a)!, indexKey(b)!));
      assert.equal(actual, expected, `${a} vs ${b}`);
    }),
    { numRuns: 5000 },
  );
});

test('1 and 1.0 share a key; -0.0 and 0.0 share a key; NaN sorts above +Infinity', () => {
  assert.ok(indexKey(1n)!.equals(indexKey(1)!));
  assert.ok(indexKey(-0)!.equals(indexKey(0)!));
  assert.ok(Buffer.compare(indexKey(NaN)!, indexKey(Infinity)!) > 0);
  assert.equal(indexKey(null), null);
});

test('string keys order by code point', () => {
  const codePoints = (s: string): number[] => [...s].map((c) => c.codePointAt(0)!);
  fc.assert(
    fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => {
      const ca = codePoints(a);
      const cb = codePoints(b);
      let expected = 0;
      for (let i = 0; i < Math.min(ca.length, cb.length) && expected === 0; i++) expected = Math.sign(ca[i] - cb[i]);
      if (expected === 0) expected = Math.sign(ca.length - cb.length);
      assert.equal(Math.sign(Buffer.compare(indexKey(a)!, indexKey(b)!)), expected);
    }),
    { numRuns: 3000 },
  );
});

test('composite keys keep tuple order even with embedded NUL characters', () => {
  fc.assert(
    fc.property(fc.string(), fc.string(), fc.string(), fc.string(), (a1, a2, b1, b2) => {
      const expected =
        a1 === b1 ? Math.sign(Buffer.compare(indexKey(a2)!, indexKey(b2)!)) : Math.sign(Buffer.compare(indexKey(a1)!, indexKey(b1)!));
      assert.equal(Math.sign(Buffer.compare(compositeKey([a1, a2])!, compositeKey([b1, b2])!)), expected);
    }),
  );
  assert.ok(Buffer.compare(compositeKey(['a', 'z'])!, compositeKey(['a\u0000', 'a'])!) < 0);
});
