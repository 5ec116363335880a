/**
 * Units of the vector API without a server: Qdrant filter semantics over decoded points, and the
 * payload <-> property encoding (integers stay integers, doubles stay doubles, maps and mixed
 * lists survive as JSON).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { FilterSchema } from '@qdrant/js-client-grpc';
import {
  canonicalPointId,
  comparePointIds,
  payloadFromJson,
  payloadToJson,
  pointFromProperties,
  pointProperties,
  type CollectionSpec,
  type Payload,
  type StoredPoint,
} from '../../src/engine/search/collections-codec.js';
import { compileFilter, valuesAt } from '../../src/server/vectorapi/filter.js';

const points: StoredPoint[] = [
  {
    id: 1n,
    payload: {
      city: 'Oslo',
      pop: 700000n,
      temp: -3.5,
      tags: ['cold', 'north'],
      meta: { rating: 4n, items: [{ name: 'a' }, { name: 'b' }] },
      born: '2020-01-02T00:00:00Z',
    },
    vectors: new Map([['', [1, 0]]]),
  },
  {
    id: 2n,
    payload: { city: 'Rome', pop: 2800000n, temp: 18.25, tags: ['warm'], meta: { rating: 5n, items: [] }, note: null },
    vectors: new Map(),
  },
  {
    id: 'a0000000-0000-0000-0000-000000000003',
    payload: { city: 'Lima', tags: [], born: '1999-05-05T00:00:00Z' },
    vectors: new Map([['', [0, 1]]]),
  },
];

function ids(filter: MessageInitShape<typeof FilterSchema>): unknown[] {
  const predicate = compileFilter(create(FilterSchema, filter))!;
  return points.filter(predicate).map((p) => p.id);
}

const field = (key: string, condition: Record<string, unknown>) => ({
  conditionOneOf: { case: 'field' as const, value: { key, ...condition } },
});
const match = (key: string, matchValue: { case: string; value: unknown }) => field(key, { match: { matchValue } });

describe('vectorapi filters', () => {
  it('match keyword/integer/text/keywords/except and lists matching by any element', () => {
    assert.deepEqual(ids({ must: [match('city', { case: 'keyword', value: 'Rome' })] }), [2n]);
    assert.deepEqual(ids({ must: [match('meta.rating', { case: 'integer', value: 4n })] }), [1n]);
    assert.deepEqual(ids({ must: [match('city', { case: 'text', value: 'om' })] }), [2n], 'text is an exact substring');
    assert.deepEqual(ids({ must: [match('city', { case: 'text', value: 'OM' })] }), []);
    assert.deepEqual(ids({ must: [match('city', { case: 'textAny', value: 'Li sl' })] }), [1n, 'a0000000-0000-0000-0000-000000000003']);
    assert.deepEqual(ids({ must: [match('tags', { case: 'keyword', value: 'north' })] }), [1n]);
    assert.deepEqual(ids({ must: [match('city', { case: 'keywords', value: { strings: ['Oslo', 'Lima'] } })] }), [
      1n,
      'a0000000-0000-0000-0000-000000000003',
    ]);
    assert.deepEqual(ids({ must: [match('city', { case: 'exceptKeywords', value: { strings: ['Oslo'] } })] }), [
      2n,
      'a0000000-0000-0000-0000-000000000003',
    ]);
    assert.deepEqual(ids({ must: [match('meta.items[].name', { case: 'keyword', value: 'b' })] }), [1n]);
    assert.deepEqual(
      ids({ must: [match('tags', { case: 'exceptKeywords', value: { strings: ['cold'] } })] }),
      [1n, 2n],
      'a list needs one element outside the excluded values',
    );
    assert.deepEqual(ids({ must: [match('tags', { case: 'exceptKeywords', value: { strings: ['cold', 'north', 'warm'] } })] }), []);
  });

  it('range, datetime_range, values_count, is_empty, is_null, has_id, has_vector', () => {
    assert.deepEqual(ids({ must: [field('temp', { range: { gte: 0 } })] }), [2n]);
    assert.deepEqual(ids({ must: [field('pop', { range: { lt: 1e6 } })] }), [1n], 'integers compare with double bounds');
    assert.deepEqual(
      ids({ must: [field('born', { datetimeRange: { gt: { seconds: BigInt(Date.parse('2000-01-01') / 1000), nanos: 0 } } })] }),
      [1n],
    );
    assert.deepEqual(ids({ must: [field('tags', { valuesCount: { gte: 1n } })] }), [1n, 2n]);
    assert.deepEqual(ids({ must: [{ conditionOneOf: { case: 'isEmpty', value: { key: 'tags' } } }] }), [
      'a0000000-0000-0000-0000-000000000003',
    ]);
    assert.deepEqual(
      ids({ must: [{ conditionOneOf: { case: 'isEmpty', value: { key: 'note' } } }] }),
      [1n, 2n, 'a0000000-0000-0000-0000-000000000003'],
      'missing and null are empty',
    );
    assert.deepEqual(ids({ must: [{ conditionOneOf: { case: 'isNull', value: { key: 'note' } } }] }), [2n]);
    assert.deepEqual(
      ids({
        must: [
          {
            conditionOneOf: {
              case: 'hasId',
              value: { hasId: [{ pointIdOptions: { case: 'uuid', value: 'A0000000000000000000000000000003' } }] },
            },
          },
        ],
      }),
      ['a0000000-0000-0000-0000-000000000003'],
    );
    assert.deepEqual(ids({ mustNot: [{ conditionOneOf: { case: 'hasVector', value: { hasVector: '' } } }] }), [2n]);
  });

  it('should, must_not, min_should, nested filters and nested conditions', () => {
    const oslo = match('city', { case: 'keyword', value: 'Oslo' });
    const rome = match('city', { case: 'keyword', value: 'Rome' });
    assert.deepEqual(ids({ should: [oslo, rome] }), [1n, 2n]);
    assert.deepEqual(ids({ should: [oslo, rome], mustNot: [rome] }), [1n]);
    assert.deepEqual(ids({ minShould: { conditions: [oslo, match('tags', { case: 'keyword', value: 'cold' }), rome], minCount: 2n } }), [
      1n,
    ]);
    assert.deepEqual(ids({ must: [{ conditionOneOf: { case: 'filter', value: { should: [rome] } } }] }), [2n]);
    const nested = {
      conditionOneOf: {
        case: 'nested' as const,
        value: { key: 'meta.items', filter: { must: [match('name', { case: 'keyword', value: 'a' })] } },
      },
    };
    assert.deepEqual(ids({ must: [nested] }), [1n]);
  });

  it('refuses empty and geo conditions', () => {
    assert.throws(() => ids({ must: [field('city', {})] }), /has no condition/);
    assert.throws(() => ids({ must: [field('loc', { geoRadius: { center: { lat: 1, lon: 1 }, radius: 10 } })] }), /geo/);
  });

  it('valuesAt flattens lists at [] and at the end of a path', () => {
    assert.deepEqual(valuesAt(points[0].payload, 'meta.items[].name'), ['a', 'b']);
    assert.deepEqual(valuesAt(points[0].payload, 'tags'), ['cold', 'north']);
    assert.deepEqual(valuesAt(points[0].payload, 'missing.key'), []);
  });
});

describe('vectorapi payload codec', () => {
  const spec: CollectionSpec = { name: 'c', vectors: [{ name: '', size: 2, distance: 'Dot' }], named: false };

  it('round-trips payloads through node properties', () => {
    const payload: Payload = {
      s: 'text',
      i: 12n,
      d: 2.0,
      b: false,
      strings: ['a', 'b'],
      empty: [],
      mixed: [1n, 'x', 2.5],
      nested: { big: 9007199254740991n, f: 1.0, list: [{ deep: null }] },
      nothing: null,
    };
    const properties = pointProperties({ id: 5n, payload, vectors: new Map([['', [0.5, 1]]]) });
    assert.equal(properties.get('i'), 12n);
    assert.equal(properties.get('d'), 2.0);
    assert.equal(typeof properties.get('nested'), 'string', 'maps are stored as JSON text');
    assert.deepEqual(properties.get('_qdrant_json'), ['mixed', 'nested', 'nothing']);
    const back = pointFromProperties(properties, spec)!;
    assert.deepEqual(back.payload, payload);
    assert.deepEqual(back.vectors.get(''), [0.5, 1]);
    assert.equal(back.id, 5n);
  });

  it('keeps integers and doubles apart in JSON', () => {
    assert.equal(payloadToJson({ a: 1n, b: 1, c: [2.5e-7, -3n] }), '{"a":1,"b":1.0,"c":[2.5e-7,-3]}');
    assert.deepEqual(payloadFromJson('{"a":1,"b":1.0,"s":"9","c":[2.5e-7,-3]}'), { a: 1n, b: 1, s: '9', c: [2.5e-7, -3n] });
  });

  it('validates point ids and orders integers before UUIDs', () => {
    assert.equal(canonicalPointId('A0000000000000000000000000000003'), 'a0000000-0000-0000-0000-000000000003');
    assert.throws(() => canonicalPointId('nope'), /UUID/);
    assert.throws(() => canonicalPointId(-1n), /unsigned/);
    assert.throws(() => canonicalPointId(1n << 64n), /unsigned/);
    const sorted = ['b0000000-0000-0000-0000-000000000000', 10n, 'a0000000-0000-0000-0000-000000000000', 2n].sort(comparePointIds);
    assert.deepEqual(sorted, [2n, 10n, 'a0000000-0000-0000-0000-000000000000', 'b0000000-0000-0000-0000-000000000000']);
  });
});
