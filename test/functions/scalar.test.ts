import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ArgumentError, ArithmeticError, CypherTypeError } from '../../src/engine/errors/index.js';
import { acceptsArgument, isAggregate, lookupFunction, type ScalarFunction } from '../../src/engine/cypher/functions/index.js';
import { call, show } from './helpers.js';

describe('registry', () => {
  it('finds functions case-insensitively, with namespaces, and knows aggregates', () => {
    assert.equal(lookupFunction('TOUPPER')?.name, 'toUpper');
    assert.equal(lookupFunction('Date.Truncate')?.name, 'date.truncate');
    assert.equal(lookupFunction('nope'), undefined);
    assert.ok(isAggregate('COLLECT'));
    assert.ok(!isAggregate('size'));
    assert.equal(lookupFunction('coalesce')?.maxArgs, Infinity);
    assert.equal((lookupFunction('rand') as ScalarFunction).deterministic, false);
    assert.equal((lookupFunction('abs') as ScalarFunction).deterministic, true);
  });
});

describe('static argument types', () => {
  it('tell the semantic checker which literal arguments are definitely wrong', () => {
    const fn = (name: string) => lookupFunction(name)!;
    assert.equal(acceptsArgument(fn('properties'), 0, 'Integer'), false);
    assert.equal(acceptsArgument(fn('properties'), 0, 'Map'), true);
    assert.equal(acceptsArgument(fn('type'), 0, 'Node'), false);
    assert.equal(acceptsArgument(fn('size'), 0, 'Path'), false);
    assert.equal(acceptsArgument(fn('abs'), 0, 'Number'), true);
    assert.equal(acceptsArgument(fn('toString'), 0, 'Temporal'), true);
    assert.equal(acceptsArgument(fn('toBoolean'), 0, 'Float'), false);
    assert.equal(acceptsArgument(fn('toBoolean'), 0, 'Any'), true);
    assert.equal(acceptsArgument(fn('coalesce'), 5, 'Node'), true);
  });
});

describe('math', () => {
  it('keeps integer types where Neo4j does', () => {
    assert.equal(call('abs', -3n), 3n);
    assert.equal(call('abs', -3.5), 3.5);
    assert.throws(() => call('abs', -(2n ** 63n)), ArithmeticError);
    assert.equal(call('sign', -7n), -1n);
    assert.equal(call('sign', 0.5), 1n);
    assert.equal(call('ceil', 1.2), 2);
    assert.equal(call('floor', -1.2), -2);
    assert.equal(call('sqrt', 16n), 4);
    assert.equal(call('abs', null), null);
  });

  it('rounds like Java, with precision and rounding modes', () => {
    assert.equal(call('round', 2.5), 3);
    assert.equal(call('round', -2.5), -2);
    assert.equal(call('round', 3.14159, 2n), 3.14);
    assert.equal(call('round', -1.5, 0n), -1);
    assert.equal(call('round', -1.55, 1n), -1.6);
    assert.equal(call('round', 2.345, 2n, 'HALF_EVEN'), 2.34);
    assert.equal(call('round', 2.355, 2n, 'HALF_EVEN'), 2.36);
    assert.equal(call('round', -1.55, 1n, 'HALF_DOWN'), -1.5);
    assert.equal(call('round', 1.21, 1n, 'CEILING'), 1.3);
    assert.equal(call('round', 1.21, 1n, 'UP'), 1.3);
    assert.equal(call('round', -1.29, 1n, 'DOWN'), -1.2);
    assert.throws(() => call('round', 1.2, 1n, 'SIDEWAYS'), ArgumentError);
  });

  it('provides logarithms, trigonometry and constants', () => {
    assert.equal(call('log10', 1000n), 3);
    assert.equal(call('exp', 0n), 1);
    assert.equal(call('e'), Math.E);
    assert.equal(call('atan2', 1n, 1n), Math.PI / 4);
    assert.equal(call('degrees', Math.PI), 180);
    assert.equal(call('haversin', 0.0), 0);
    assert.equal(call('isNaN', NaN), true);
    assert.equal(call('rand'), 0.25);
    assert.throws(() => call('sqrt', 'x'), CypherTypeError);
  });
});

describe('strings', () => {
  it('transforms and slices', () => {
    assert.equal(call('toUpper', 'abc'), 'ABC');
    assert.equal(call('trim', '  a  '), 'a');
    assert.equal(call('ltrim', 'xxaxx', 'x'), 'axx');
    assert.equal(call('btrim', 'xxaxx', 'x'), 'a');
    assert.equal(call('substring', '0123456789', 1n), '123456789');
    assert.equal(call('substring', '0123456789', 1n, 3n), '123');
    assert.equal(call('left', 'hello', 10n), 'hello');
    assert.equal(call('right', 'hello', 3n), 'llo');
    assert.equal(call('replace', 'a.b.c', '.', '-'), 'a-b-c');
    assert.equal(show(call('split', 'one1two', '1')), "['one', 'two']");
    assert.equal(show(call('split', 'a,b;c', [',', ';'])), "['a', 'b', 'c']");
    assert.equal(call('reverse', 'abc'), 'cba');
    assert.equal(call('normalize', '\u0041\u030A'), '\u00C5');
    assert.throws(() => call('substring', 'abc', -1n), ArgumentError);
    assert.equal(call('toLower', null), null);
  });
});

describe('lists', () => {
  it('builds ranges and reads lists', () => {
    assert.equal(show(call('range', 0n, 10n, 3n)), '[0, 3, 6, 9]');
    assert.equal(show(call('range', 5n, 1n, -2n)), '[5, 3, 1]');
    assert.equal(show(call('range', 1n, 0n)), '[]');
    assert.throws(() => call('range', 1n, 5n, 0n), ArgumentError);
    assert.equal(call('size', [1n, 2n]), 2n);
    assert.equal(call('size', 'héllo'), 5n);
    assert.equal(call('head', []), null);
    assert.equal(call('last', [1n, 2n]), 2n);
    assert.equal(show(call('tail', [1n, 2n, 3n])), '[2, 3]');
    assert.equal(show(call('reverse', [1n, null, 3n])), '[3, null, 1]');
    assert.equal(call('coalesce', null, null, 3n, 4n), 3n);
    assert.equal(call('coalesce', null), null);
    assert.throws(() => call('size', 1n), CypherTypeError);
  });
});

describe('conversions', () => {
  it('converts like Neo4j and rejects unconvertible types', () => {
    assert.equal(call('toInteger', '42'), 42n);
    assert.equal(call('toInteger', '2.9'), 2n);
    assert.equal(call('toInteger', 2.9), 2n);
    assert.equal(call('toInteger', 'foo'), null);
    assert.equal(call('toInteger', '0x1F'), null);
    assert.equal(call('toInteger', true), 1n);
    assert.equal(call('toInteger', '9223372036854775808'), null);
    assert.equal(call('toFloat', '1e3'), 1000);
    assert.equal(call('toFloat', 3n), 3);
    assert.equal(call('toBoolean', 'TRUE'), true);
    assert.equal(call('toBoolean', 'yes'), null);
    assert.equal(call('toBoolean', 0n), false);
    assert.equal(call('toString', 1.0), '1.0');
    assert.equal(call('toString', 1e20), '1.0E20');
    assert.equal(call('toString', 123456789n), '123456789');
    for (const bad of [[], new Map(), 1.0] as const) {
      assert.throws(
        () => call('toBoolean', bad),
        (e: unknown) => e instanceof CypherTypeError && e.detail === 'InvalidArgumentValue',
      );
    }
    assert.throws(
      () => call('toInteger', [1n]),
      (e: unknown) => e instanceof CypherTypeError && e.detail === 'InvalidArgumentValue',
    );
    assert.throws(() => call('toString', new Map()), CypherTypeError);
    assert.equal(call('toIntegerOrNull', []), null);
    assert.equal(show(call('toIntegerList', ['1', 'x', 2.5, null])), '[1, null, 2, null]');
    assert.equal(show(call('toStringList', [1n, 1.5, true])), "['1', '1.5', 'true']");
    assert.equal(call('valueType', [1n, 2n]), 'LIST<INTEGER NOT NULL> NOT NULL');
    assert.equal(call('valueType', ['a', 1n]), 'LIST<STRING NOT NULL | INTEGER NOT NULL> NOT NULL');
    assert.equal(call('valueType', [1n, null]), 'LIST<INTEGER> NOT NULL');
    assert.equal(call('valueType', []), 'LIST<NOTHING> NOT NULL');
    assert.equal(call('valueType', null), 'NULL');
    assert.equal(call('valueType', 1.5), 'FLOAT NOT NULL');
  });
});

describe('miscellaneous', () => {
  it('generates UUIDs and compares with nullIf', () => {
    assert.match(call('randomUUID') as string, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(call('nullIf', 1n, 1.0), null);
    assert.equal(call('nullIf', 1n, 2n), 1n);
  });

  it('computes normalized vector similarities', () => {
    assert.equal(call('vector.similarity.cosine', [1n, 0n], [0.0, 1.0]), 0.5);
    assert.equal(call('vector.similarity.cosine', [1.0, 2.0], [2.0, 4.0]), 1);
    assert.equal(call('vector.similarity.euclidean', [0n, 0n], [1n, 1n]), 1 / 3);
    assert.equal(call('vector.similarity.cosine', [1n, null], [1n, 2n]), null);
    assert.throws(() => call('vector.similarity.cosine', [1n], [1n, 2n]), ArgumentError);
  });
});
