import { describe, it } from 'node:test';
import fc from 'fast-check';
import assert from 'node:assert/strict';
import { ArgumentError, ArithmeticError, CypherTypeError, EntityNotFound } from '../../src/engine/errors/index.js';
import { CypherPoint, NodeRef, PathRef, RelationshipRef, Srid, type CypherValue } from '../../src/engine/values/index.js';
import { aggregate, call, callIn, m, show, testContext } from './helpers.js';

const rows = (...values: CypherValue[]) => values.map((v) => [v]);

describe('aggregates', () => {
  it('count, sum, avg, min, max and collect skip nulls', () => {
    assert.equal(aggregate('count', rows(1n, null, 2n)), 2n);
    assert.equal(aggregate('count', [[], [], []]), 3n);
    assert.equal(aggregate('sum', rows(1n, 2n, null)), 3n);
    assert.equal(aggregate('sum', rows(1n, 2.5)), 3.5);
    assert.equal(aggregate('sum', rows()), 0n);
    assert.throws(() => aggregate('sum', rows(2n ** 62n, 2n ** 62n)), ArithmeticError);
    assert.equal(aggregate('avg', rows(1n, 2n)), 1.5);
    assert.equal(aggregate('avg', rows(null)), null);
    assert.equal(aggregate('min', rows(3n, 'a', 1.5)), 'a');
    assert.equal(aggregate('max', rows(3n, 'a', 1.5)), 3n);
    assert.equal(show(aggregate('collect', rows(1n, null, 1n))), '[1, 1]');
    assert.equal(show(aggregate('collect', rows(1n, null, 1.0, 2n), true)), '[1, 2]');
    assert.equal(aggregate('count', rows(1n, 1n, 2n), true), 2n);
    assert.throws(() => aggregate('sum', rows('a')), CypherTypeError);
  });

  it('sums integers exactly or raises on 64-bit overflow, whatever their sizes', () => {
    const ints = fc.oneof(
      fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
      fc.bigInt({ min: -(2n ** 53n), max: 2n ** 53n }),
      fc.bigInt({ min: -10n, max: 10n }),
    );
    fc.assert(
      fc.property(fc.array(ints, { maxLength: 20 }), (xs) => {
        let exact = 0n;
        let overflow = false;
        for (const x of xs) {
          exact += x;
          if (BigInt.asIntN(64, exact) !== exact) overflow = true;
        }
        if (overflow) assert.throws(() => aggregate('sum', rows(...xs)), ArithmeticError);
        else assert.equal(aggregate('sum', rows(...xs)), exact);
      }),
      { numRuns: 1000 },
    );
  });

  it('sums and averages durations', () => {
    const d = (s: string) => call('duration', s);
    assert.equal(show(aggregate('sum', rows(d('P1D'), d('PT12H')))), "'P1DT12H'");
    assert.equal(show(aggregate('avg', rows(d('P1D'), d('P2D')))), "'P1DT12H'");
  });

  it('computes standard deviations and percentiles', () => {
    assert.equal(aggregate('stDev', rows(2n, 4n, 4n, 4n, 5n, 5n, 7n, 9n)), Math.sqrt(32 / 7));
    assert.equal(aggregate('stDevP', rows(2n, 4n, 4n, 4n, 5n, 5n, 7n, 9n)), 2);
    assert.equal(aggregate('stDev', rows(1n)), 0);
    const prices = [10n, 20n, 30n].map((p) => [p, 0.5]);
    assert.equal(aggregate('percentileCont', prices), 20);
    assert.equal(
      aggregate(
        'percentileDisc',
        [10n, 20n, 30n].map((p) => [p, 0.5]),
      ),
      20n,
    );
    assert.equal(
      aggregate(
        'percentileCont',
        [10n, 20n].map((p) => [p, 0.25]),
      ),
      12.5,
    );
    assert.equal(
      aggregate(
        'percentileDisc',
        [10n, 20n, 30n, 40n].map((p) => [p, 0.9]),
      ),
      40n,
    );
    assert.throws(
      () => aggregate('percentileDisc', [[1n, 1.5]]),
      (e: unknown) => e instanceof ArgumentError && e.detail === 'NumberOutOfRange',
    );
  });
});

describe('graph functions', () => {
  const graph = {
    nodes: new Map([
      [1n, { labels: ['A', 'B'], props: m({ name: 'a', age: 3n }) }],
      [2n, { labels: [], props: m({}) }],
    ]),
    rels: new Map([[7n, { props: m({ w: 1.5 }) }]]),
  };
  const ctx = testContext(graph);
  const rel = new RelationshipRef(7n, 'KNOWS', 1n, 2n);

  it('reads entities through the accessor', () => {
    assert.equal(callIn(ctx, 'id', new NodeRef(1n)), 1n);
    assert.equal(callIn(ctx, 'elementId', new NodeRef(1n)), '4:test:1');
    assert.equal(show(callIn(ctx, 'labels', new NodeRef(1n))), "['A', 'B']");
    assert.equal(show(callIn(ctx, 'properties', new NodeRef(1n))), "{name: 'a', age: 3}");
    assert.equal(show(callIn(ctx, 'keys', rel)), "['w']");
    assert.equal(callIn(ctx, 'type', rel), 'KNOWS');
    assert.equal((callIn(ctx, 'startNode', rel) as NodeRef).id, 1n);
    assert.equal((callIn(ctx, 'endNode', rel) as NodeRef).id, 2n);
    const path = new PathRef([new NodeRef(1n), new NodeRef(2n)], [rel]);
    assert.equal(callIn(ctx, 'length', path), 1n);
    assert.equal((callIn(ctx, 'nodes', path) as NodeRef[]).length, 2);
    assert.equal(show(callIn(ctx, 'keys', m({ x: 1n, y: null }))), "['x', 'y']");
  });

  it('raises the TCK errors', () => {
    assert.throws(
      () => callIn(ctx, 'labels', new NodeRef(9n)),
      (e: unknown) => e instanceof EntityNotFound && e.detail === 'DeletedEntityAccess',
    );
    assert.throws(
      () => callIn(ctx, 'type', new NodeRef(1n)),
      (e: unknown) => e instanceof CypherTypeError && e.detail === 'InvalidArgumentValue',
    );
    assert.throws(() => callIn(ctx, 'properties', 1n), CypherTypeError);
    assert.equal(callIn(ctx, 'type', null), null);
  });
});

describe('spatial functions', () => {
  it('builds points and measures distances', () => {
    const p = call('point', m({ x: 3n, y: 4n })) as CypherPoint;
    assert.equal(p.srid, Srid.Cartesian);
    assert.equal(call('point.distance', p, call('point', m({ x: 0n, y: 0n }))), 5);
    const malmo = call('point', m({ longitude: 12.78, latitude: 56.7 }));
    const stockholm = call('point', m({ longitude: 18.07, latitude: 59.33, crs: 'WGS-84' }));
    const km = (call('point.distance', malmo, stockholm) as number) / 1000;
    assert.ok(km > 427 && km < 428, `${km}`);
    assert.equal(call('point.distance', p, malmo), null);
    assert.equal(call('point.withinBBox', p, call('point', m({ x: 0n, y: 0n })), call('point', m({ x: 5n, y: 5n }))), true);
    assert.equal(show(p), "point({x: 3.0, y: 4.0, crs: 'cartesian'})");
    assert.equal((call('point', m({ x: 1n, y: 2n, z: 3n })) as CypherPoint).srid, Srid.Cartesian3D);
    assert.equal(call('point', m({ x: null, y: 1n })), null);
    assert.throws(() => call('point', m({ longitude: 1n, latitude: 91n })), ArgumentError);
  });
});
