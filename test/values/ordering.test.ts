import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  compare,
  compareForPredicate,
  CypherDate,
  CypherDuration,
  equals,
  equivalent,
  groupKey,
  LocalTime,
  formatLiteral,
  NodeRef,
  PathRef,
  RelationshipRef,
  type CypherValue,
} from '../../src/engine/values/index.js';
import { value } from './arbitraries.js';

const sign = (n: number) => Math.sign(n);

describe('compare (ORDER BY total order)', () => {
  it('is reflexive, antisymmetric and transitive over all values', () => {
    fc.assert(
      fc.property(value, value, value, (a, b, c) => {
        assert.equal(compare(a, a), 0);
        assert.equal(sign(compare(a, b)) + sign(compare(b, a)), 0);
        if (compare(a, b) <= 0 && compare(b, c) <= 0) assert.ok(compare(a, c) <= 0);
      }),
      { numRuns: 2000 },
    );
  });

  it('orders the type groups as openCypher specifies, null last and NaN above numbers', () => {
    const ascending: CypherValue[] = [
      new Map([['a', 1n]]),
      new NodeRef(1n),
      [1n],
      new CypherDate(0),
      new LocalTime(0),
      new CypherDuration(1, 0, 0n, 0),
      'a',
      false,
      true,
      -Infinity,
      1n,
      1.5,
      Infinity,
      NaN,
      null,
    ];
    const shuffled = [...ascending].reverse().sort(compare);
    assert.deepEqual(shuffled.map(String), ascending.map(String));
  });

  it('compares integers and floats by exact mathematical value', () => {
    assert.equal(compare(2n ** 53n + 1n, 2 ** 53), 1);
    assert.equal(compare(1n, 1.0), 0);
    assert.equal(compare([1n, 2n], [1n, 2n, 0n]), -1);
  });
});

describe('compareForPredicate (comparability)', () => {
  it('agrees with compare whenever it is defined and not NaN', () => {
    fc.assert(
      fc.property(value, value, (a, b) => {
        const c = compareForPredicate(a, b);
        if (c !== null && !Number.isNaN(c)) assert.equal(sign(c), sign(compare(a, b)));
      }),
      { numRuns: 2000 },
    );
  });

  it('is null across types, for null, maps, nodes and durations; NaN makes every test false', () => {
    assert.equal(compareForPredicate(1n, 'a'), null);
    assert.equal(compareForPredicate(null, 1n), null);
    assert.equal(compareForPredicate(new Map(), new Map()), null);
    assert.equal(compareForPredicate(new CypherDuration(1, 0, 0n, 0), new CypherDuration(2, 0, 0n, 0)), null);
    assert.equal(compareForPredicate([1n, null], [1n, 2n]), null);
    assert.equal(compareForPredicate([1n, 'x'], [2n, 1n]), -1);
    const nan = compareForPredicate(NaN, 1n)!;
    assert.ok(!(nan < 0) && !(nan > 0) && !(nan <= 0) && !(nan >= 0));
  });
});

describe('equals / equivalent / groupKey', () => {
  it('equals is symmetric and, when true, implies equivalence and an equal sort position', () => {
    fc.assert(
      fc.property(value, value, (a, b) => {
        assert.equal(equals(a, b), equals(b, a));
        if (equals(a, b) === true) {
          assert.ok(equivalent(a, b));
          assert.equal(compare(a, b), 0);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('equivalent is reflexive (null ≡ null, NaN ≡ NaN) and groupKey agrees with it', () => {
    fc.assert(
      fc.property(value, value, (a, b) => {
        assert.ok(equivalent(a, a));
        assert.equal(groupKey(a) === groupKey(b), equivalent(a, b));
      }),
      { numRuns: 3000 },
    );
  });

  it('is three-valued', () => {
    assert.equal(equals(null, null), null);
    assert.equal(equals([1n, null], [1n, 2n]), null);
    assert.equal(equals([1n, null], [2n, 2n]), false);
    assert.equal(equals([1n, null], [1n]), false);
    assert.equal(equals(new Map([['a', null]]), new Map([['a', null]])), null);
    assert.equal(equals(new Map([['a', 1n]]), new Map([['b', 1n]])), false);
    assert.equal(equals(1n, 1.0), true);
    assert.equal(equals(NaN, NaN), false);
    assert.equal(equals('1', 1n), false);
    assert.equal(groupKey(1n), groupKey(1.0));
  });
});

describe('paths', () => {
  it('equal the list of their alternating nodes and relationships (and group with it)', () => {
    const rel = new RelationshipRef(5n, 'T', 1n, 2n);
    const path = new PathRef([new NodeRef(1n), new NodeRef(2n)], [rel]);
    const list = [new NodeRef(1n), rel, new NodeRef(2n)];
    assert.equal(equals(path, list), true);
    assert.equal(equals(list, path), true);
    assert.equal(equals(path, [new NodeRef(1n)]), false);
    assert.equal(groupKey(path), groupKey(list));
    assert.equal(formatLiteral(new PathRef([new NodeRef(2n), new NodeRef(1n)], [rel])), '<(#2)<-[#5:T]-(#1)>');
  });
});
