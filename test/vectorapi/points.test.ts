/**
 * The Qdrant-compatible gRPC listener driven by the official `@qdrant/js-client-grpc` client:
 * collections, upsert with payloads, exact top-k against brute force for Cosine, Dot and Euclid,
 * filtered search, get/scroll/count/delete, payload operations, Query, errors as gRPC codes, and
 * points visible from Cypher as nodes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Code } from '@connectrpc/connect';
import { Distance, FieldType, PayloadSchemaType, RecommendStrategy, UpdateMode } from '@qdrant/js-client-grpc';
import type { CypherValue } from '../../src/engine/values/types.js';
import {
  grpcCode,
  idOf,
  numId,
  payload,
  plainPayload,
  point,
  random,
  referenceScore,
  startFixture,
  vectorsConfig,
  type VectorApiFixture,
} from './helpers.js';

const DIMS = 8;
const COUNT = 400;
const CATEGORIES = ['news', 'sport', 'tech', 'food'];

interface Row {
  readonly id: number;
  readonly vector: number[];
  readonly category: string;
  readonly rank: bigint;
  readonly price: number;
}

function dataset(seed: number): Row[] {
  const next = random(seed);
  return Array.from({ length: COUNT }, (_, i) => ({
    id: i + 1,
    vector: Array.from({ length: DIMS }, () => next() * 2 - 1),
    category: CATEGORIES[i % CATEGORIES.length],
    rank: BigInt(i % 50),
    price: Math.round(next() * 10000) / 100,
  }));
}

function fields(row: Row): Record<string, unknown> {
  return {
    category: row.category,
    rank: row.rank,
    price: row.price,
    tags: [`t${row.id % 3}`, 'all'],
    meta: { depth: BigInt(row.id % 5), note: null },
  };
}

function bruteForce(rows: readonly Row[], query: number[], distance: 'cosine' | 'dot' | 'euclid', k: number): number[] {
  const ascending = distance === 'euclid';
  return rows
    .map((row) => ({ id: row.id, score: referenceScore(distance, query, row.vector) }))
    .sort((a, b) => (ascending ? a.score - b.score : b.score - a.score))
    .slice(0, k)
    .map((hit) => hit.id);
}

const keyword = (key: string, value: string) => ({
  conditionOneOf: { case: 'field' as const, value: { key, match: { matchValue: { case: 'keyword' as const, value } } } },
});
const range = (key: string, bounds: { gte?: number; lt?: number }) => ({
  conditionOneOf: { case: 'field' as const, value: { key, range: bounds } },
});
const integer = (key: string, value: bigint) => ({
  conditionOneOf: { case: 'field' as const, value: { key, match: { matchValue: { case: 'integer' as const, value } } } },
});

describe('vectorapi points', () => {
  let fixture: VectorApiFixture;
  const rows = dataset(7);

  before(async () => {
    fixture = await startFixture();
    const { client } = fixture;
    await client.api('collections').create({ collectionName: 'docs', vectorsConfig: vectorsConfig(DIMS, Distance.Cosine) });
    for (let start = 0; start < rows.length; start += 100) {
      const batch = rows.slice(start, start + 100).map((row) => point(row.id, row.vector, fields(row)));
      await client.api('points').upsert({ collectionName: 'docs', wait: true, points: batch });
    }
  });

  after(async () => {
    await fixture.stop();
    assert.deepEqual(fixture.internalErrors, [], 'no call failed with INTERNAL');
  });

  it('lists, describes and checks collections; duplicates and unknown names are refused', async () => {
    const { client } = fixture;
    assert.deepEqual(
      (await client.api('collections').list({})).collections.map((c) => c.name),
      ['docs'],
    );
    const info = (await client.api('collections').get({ collectionName: 'docs' })).result!;
    assert.equal(info.pointsCount, BigInt(COUNT));
    const params = info.config?.params?.vectorsConfig?.config;
    assert.equal(params?.case, 'params');
    assert.equal(params.case === 'params' ? params.value.size : 0n, BigInt(DIMS));
    assert.equal((await client.api('collections').collectionExists({ collectionName: 'docs' })).result?.exists, true);
    assert.equal((await client.api('collections').collectionExists({ collectionName: 'nope' })).result?.exists, false);
    assert.equal(
      await grpcCode(client.api('collections').create({ collectionName: 'docs', vectorsConfig: vectorsConfig(DIMS, Distance.Cosine) })),
      Code.AlreadyExists,
    );
    assert.equal(await grpcCode(client.api('collections').get({ collectionName: 'nope' })), Code.NotFound);
    assert.equal(await grpcCode(client.api('points').search({ collectionName: 'nope', vector: [1], limit: 1n })), Code.NotFound);
    assert.equal(
      await grpcCode(client.api('collections').create({ collectionName: 'bad name!', vectorsConfig: vectorsConfig(2, Distance.Dot) })),
      Code.InvalidArgument,
    );
  });

  it('search returns the exact top-k of a brute-force scan, with cosine scores', async () => {
    const next = random(99);
    for (let round = 0; round < 5; round++) {
      const query = Array.from({ length: DIMS }, () => next() * 2 - 1);
      const response = await fixture.client.api('points').search({ collectionName: 'docs', vector: query, limit: 10n });
      assert.deepEqual(response.result.map(idOf), bruteForce(rows, query, 'cosine', 10));
      const best = rows.find((r) => r.id === idOf(response.result[0]))!;
      assert.ok(
        Math.abs(response.result[0].score - referenceScore('cosine', query, best.vector)) < 1e-5,
        'the score is the cosine (within float32 precision)',
      );
      assert.deepEqual(response.result[0].payload, {}, 'search returns no payload unless asked');
    }
  });

  it('filtered search (must, should, must_not with match and range) equals brute force over the matching points', async () => {
    const query = rows[0].vector.map((x) => -x);
    const filter = {
      must: [keyword('category', 'tech'), range('price', { gte: 20, lt: 80 })],
      should: [keyword('tags', 't0'), keyword('tags', 't1')],
      mustNot: [integer('rank', 2n)],
    };
    const expected = rows.filter(
      (r) => r.category === 'tech' && r.price >= 20 && r.price < 80 && (r.id % 3 === 0 || r.id % 3 === 1) && r.rank !== 2n,
    );
    assert.ok(expected.length > 10, `enough matching points (${expected.length})`);
    const response = await fixture.client.api('points').search({
      collectionName: 'docs',
      vector: query,
      limit: 5n,
      filter,
      withPayload: { selectorOptions: { case: 'enable', value: true } },
    });
    assert.deepEqual(response.result.map(idOf), bruteForce(expected, query, 'cosine', 5));
    for (const hit of response.result) assert.equal(plainPayload(hit.payload).category, 'tech');

    const offsetPage = await fixture.client.api('points').search({ collectionName: 'docs', vector: query, limit: 3n, offset: 2n, filter });
    assert.deepEqual(offsetPage.result.map(idOf), bruteForce(expected, query, 'cosine', 5).slice(2, 5));

    const batch = await fixture.client.api('points').searchBatch({
      collectionName: 'docs',
      searchPoints: [
        { collectionName: 'docs', vector: query, limit: 2n, filter: { must: [keyword('category', 'food')] } },
        { collectionName: 'docs', vector: query, limit: 4n },
      ],
    });
    assert.deepEqual(
      batch.result[0].result.map(idOf),
      bruteForce(
        rows.filter((r) => r.category === 'food'),
        query,
        'cosine',
        2,
      ),
    );
    assert.deepEqual(batch.result[1].result.map(idOf), bruteForce(rows, query, 'cosine', 4));
  });

  it('get returns payloads as written (integers, doubles, lists, nested maps, null) and vectors on request', async () => {
    const response = await fixture.client.api('points').get({
      collectionName: 'docs',
      ids: [numId(5), numId(9999), numId(3)],
      withVectors: { selectorOptions: { case: 'enable', value: true } },
    });
    assert.deepEqual(response.result.map(idOf), [5, 3], 'request order, missing ids skipped');
    const row = rows[4];
    assert.deepEqual(plainPayload(response.result[0].payload), fields(row));
    const vector = response.result[0].vectors?.vectorsOptions;
    assert.equal(vector?.case, 'vector');
    const data = vector?.case === 'vector' && vector.value.vector.case === 'dense' ? vector.value.vector.value.data : [];
    const norm = Math.hypot(...row.vector);
    data.forEach((x, i) => assert.ok(Math.abs(x - row.vector[i] / norm) < 1e-6, 'Cosine vectors are stored normalized'));
  });

  it('scroll pages through every point in id order; count counts with and without a filter', async () => {
    const seen: number[] = [];
    let offset: ReturnType<typeof numId> | undefined;
    for (;;) {
      const page = await fixture.client
        .api('points')
        .scroll({ collectionName: 'docs', limit: 64, ...(offset ? { offset } : {}), filter: { must: [keyword('category', 'sport')] } });
      seen.push(...page.result.map(idOf));
      if (page.nextPageOffset === undefined) break;
      offset = numId(idOf({ id: page.nextPageOffset }));
    }
    assert.deepEqual(
      seen,
      rows.filter((r) => r.category === 'sport').map((r) => r.id),
    );
    assert.equal((await fixture.client.api('points').count({ collectionName: 'docs' })).result?.count, BigInt(COUNT));
    const nested = await fixture.client.api('points').count({
      collectionName: 'docs',
      filter: { must: [integer('meta.depth', 0n)] },
    });
    assert.equal(nested.result?.count, BigInt(rows.filter((r) => r.id % 5 === 0).length), 'nested keys are filterable');
  });

  it('points are nodes visible from Cypher', async () => {
    const session = fixture.db.session();
    try {
      const result = await session.run("MATCH (p:Qdrant_docs) WHERE p.category = 'news' RETURN count(p) AS n, min(p.rank) AS minRank");
      const [[n, minRank]] = (await result.pull(-1)).records as [[CypherValue, CypherValue]];
      assert.equal(n, BigInt(rows.filter((r) => r.category === 'news').length));
      assert.equal(minRank, 0n);
      const indexes = await session.run("SHOW INDEXES YIELD name, type WHERE type = 'VECTOR' RETURN name");
      assert.deepEqual((await indexes.pull(-1)).records, [['qdrant_docs']]);
    } finally {
      await session.close();
    }
  });

  it('set, overwrite, delete and clear payload; delete points by id and by filter', async () => {
    const points = fixture.client.api('points');
    const selectIds = (...ids: number[]) => ({ pointsSelectorOneOf: { case: 'points' as const, value: { ids: ids.map(numId) } } });
    await points.setPayload({ collectionName: 'docs', payload: payload({ extra: 'yes', rank: 1000n }), pointsSelector: selectIds(1, 2) });
    let got = await points.get({ collectionName: 'docs', ids: [numId(1)] });
    assert.equal(plainPayload(got.result[0].payload).extra, 'yes');
    assert.equal(plainPayload(got.result[0].payload).rank, 1000n);
    assert.equal(plainPayload(got.result[0].payload).category, rows[0].category, 'other keys kept');
    await points.deletePayload({ collectionName: 'docs', keys: ['extra', 'meta'], pointsSelector: selectIds(1) });
    got = await points.get({ collectionName: 'docs', ids: [numId(1)] });
    assert.deepEqual(Object.keys(plainPayload(got.result[0].payload)).sort(), ['category', 'price', 'rank', 'tags']);
    await points.overwritePayload({ collectionName: 'docs', payload: payload({ only: true }), pointsSelector: selectIds(2) });
    got = await points.get({ collectionName: 'docs', ids: [numId(2)] });
    assert.deepEqual(plainPayload(got.result[0].payload), { only: true });
    await points.clearPayload({ collectionName: 'docs', points: selectIds(2) });
    got = await points.get({ collectionName: 'docs', ids: [numId(2)] });
    assert.deepEqual(plainPayload(got.result[0].payload), {});

    await points.delete({ collectionName: 'docs', points: selectIds(1, 2) });
    await points.delete({
      collectionName: 'docs',
      points: { pointsSelectorOneOf: { case: 'filter', value: { must: [keyword('category', 'food')] } } },
    });
    const left = rows.filter((r) => r.id > 2 && r.category !== 'food');
    assert.equal((await points.count({ collectionName: 'docs' })).result?.count, BigInt(left.length));
    const query = rows[10].vector;
    const response = await points.search({ collectionName: 'docs', vector: query, limit: 5n });
    assert.deepEqual(response.result.map(idOf), bruteForce(left, query, 'cosine', 5), 'deleted points leave the index');
  });

  it('bad input is refused with INVALID_ARGUMENT and the server keeps serving', async () => {
    const points = fixture.client.api('points');
    assert.equal(
      await grpcCode(points.upsert({ collectionName: 'docs', points: [point(1, [1, 2])] })),
      Code.InvalidArgument,
      'wrong dimension',
    );
    assert.equal(
      await grpcCode(
        points.upsert({
          collectionName: 'docs',
          points: [
            {
              id: { pointIdOptions: { case: 'uuid', value: 'not-a-uuid' } },
              vectors: { vectorsOptions: { case: 'vector', value: { data: new Array(DIMS).fill(1) } } },
            },
          ],
        }),
      ),
      Code.InvalidArgument,
    );
    assert.equal(
      await grpcCode(points.upsert({ collectionName: 'docs', points: [point(1, new Array(DIMS).fill(1), { _qdrant_id: 'x' })] })),
      Code.InvalidArgument,
      'reserved key',
    );
    assert.equal(await grpcCode(points.search({ collectionName: 'docs', vector: [1, 2, 3], limit: 3n })), Code.InvalidArgument);
    assert.equal(
      await grpcCode(
        points.count({ collectionName: 'docs', filter: { must: [{ conditionOneOf: { case: 'field', value: { key: 'x' } } }] } }),
      ),
      Code.InvalidArgument,
    );
    assert.equal(await grpcCode(points.discover({ collectionName: 'docs' })), Code.Unimplemented);
    assert.ok((await points.count({ collectionName: 'docs' })).result!.count > 0n, 'the server still answers');
  });
});

describe('vectorapi distances, named vectors and Query', () => {
  let fixture: VectorApiFixture;
  const rows = dataset(21).slice(0, 150);

  before(async () => {
    fixture = await startFixture();
  });

  after(async () => {
    await fixture.stop();
    assert.deepEqual(fixture.internalErrors, []);
  });

  for (const [distance, name] of [
    [Distance.Dot, 'dot'],
    [Distance.Euclid, 'euclid'],
  ] as const) {
    it(`${name}: search returns the exact top-k and Qdrant's scores`, async () => {
      const { client } = fixture;
      await client.api('collections').create({ collectionName: name, vectorsConfig: vectorsConfig(DIMS, distance) });
      await client
        .api('points')
        .upsert({ collectionName: name, points: rows.map((row) => point(row.id, row.vector, { category: row.category })) });
      const query = rows[3].vector.map((x, i) => x + (i % 2 === 0 ? 0.3 : -0.2));
      const response = await client.api('points').search({ collectionName: name, vector: query, limit: 7n });
      assert.deepEqual(response.result.map(idOf), bruteForce(rows, query, name, 7));
      const top = rows.find((r) => r.id === idOf(response.result[0]))!;
      assert.ok(
        Math.abs(response.result[0].score - referenceScore(name, query, top.vector)) < 1e-5,
        `the score is the ${name} value (within float32 precision)`,
      );
      const threshold = (response.result[3].score + response.result[4].score) / 2;
      const bounded = await client.api('points').search({ collectionName: name, vector: query, limit: 7n, scoreThreshold: threshold });
      assert.deepEqual(
        bounded.result.map(idOf),
        response.result.slice(0, 4).map(idOf),
        'score_threshold bounds similarities from below and distances from above',
      );
    });
  }

  it('named vectors: each name searched separately; Query nearest by vector and by point id', async () => {
    const { client } = fixture;
    await client.api('collections').create({
      collectionName: 'multi',
      vectorsConfig: {
        config: {
          case: 'paramsMap',
          value: { map: { text: { size: 3n, distance: Distance.Cosine }, image: { size: 2n, distance: Distance.Euclid } } },
        },
      },
    });
    const named = (text: number[], image: number[]) => ({
      vectorsOptions: { case: 'vectors' as const, value: { vectors: { text: { data: text }, image: { data: image } } } },
    });
    await client.api('points').upsert({
      collectionName: 'multi',
      points: [
        { id: numId(1), vectors: named([1, 0, 0], [0, 0]), payload: payload({ kind: 'a' }) },
        { id: numId(2), vectors: named([0, 1, 0], [5, 5]), payload: payload({ kind: 'b' }) },
        {
          id: { pointIdOptions: { case: 'uuid', value: 'F9168C5E-CEB2-4FAA-B6BF-329BF39FA1E4' } },
          vectors: named([0.9, 0.1, 0], [4, 4]),
          payload: payload({ kind: 'a' }),
        },
      ],
    });
    const byText = await client.api('points').search({ collectionName: 'multi', vectorName: 'text', vector: [1, 0, 0], limit: 3n });
    assert.deepEqual(
      byText.result.map((p) => p.id?.pointIdOptions.value),
      [1n, 'f9168c5e-ceb2-4faa-b6bf-329bf39fa1e4', 2n],
    );
    const byImage = await client.api('points').query({
      collectionName: 'multi',
      using: 'image',
      query: { variant: { case: 'nearest', value: { variant: { case: 'dense', value: { data: [5, 4.8] } } } } },
      limit: 2n,
      withVectors: { selectorOptions: { case: 'include', value: { names: ['image'] } } },
    });
    assert.deepEqual(
      byImage.result.map((p) => p.id?.pointIdOptions.value),
      [2n, 'f9168c5e-ceb2-4faa-b6bf-329bf39fa1e4'],
    );
    const vectors = byImage.result[0].vectors?.vectorsOptions;
    assert.deepEqual(vectors?.case === 'vectors' ? Object.keys(vectors.value.vectors) : null, ['image']);
    const similar = await client.api('points').query({
      collectionName: 'multi',
      using: 'text',
      query: { variant: { case: 'nearest', value: { variant: { case: 'id', value: numId(1) } } } },
      filter: { must: [keyword('kind', 'a')] },
      limit: 5n,
    });
    assert.deepEqual(
      similar.result.map((p) => p.id?.pointIdOptions.value),
      ['f9168c5e-ceb2-4faa-b6bf-329bf39fa1e4'],
      'the query point itself is left out',
    );
    assert.equal(
      await grpcCode(client.api('points').search({ collectionName: 'multi', vectorName: 'audio', vector: [1], limit: 1n })),
      Code.InvalidArgument,
    );
    const first = await client.api('points').scroll({ collectionName: 'multi', limit: 2 });
    assert.deepEqual(
      first.result.map((p) => p.id?.pointIdOptions.value),
      [1n, 2n],
      'integers first',
    );
    assert.equal(first.nextPageOffset?.pointIdOptions.value, 'f9168c5e-ceb2-4faa-b6bf-329bf39fa1e4');
    const second = await client.api('points').scroll({ collectionName: 'multi', limit: 2, offset: first.nextPageOffset });
    assert.deepEqual(
      second.result.map((p) => p.id?.pointIdOptions.value),
      ['f9168c5e-ceb2-4faa-b6bf-329bf39fa1e4'],
    );
    assert.equal(second.nextPageOffset, undefined);
  });

  it('Recommend and Query recommend use the average_vector strategy and leave the examples out', async () => {
    const { client } = fixture;
    const five = rows.find((r) => r.id === 5)!.vector;
    const nine = rows.find((r) => r.id === 9)!.vector;
    const target = five.map((x, i) => 2 * x - nine[i]);
    const expected = bruteForce(
      rows.filter((r) => r.id !== 5 && r.id !== 9),
      target,
      'euclid',
      6,
    );
    const recommended = await client
      .api('points')
      .recommend({ collectionName: 'euclid', positive: [numId(5)], negative: [numId(9)], limit: 6n });
    assert.deepEqual(recommended.result.map(idOf), expected);
    const queried = await client.api('points').query({
      collectionName: 'euclid',
      query: {
        variant: {
          case: 'recommend',
          value: {
            positive: [{ variant: { case: 'id', value: numId(5) } }],
            negative: [{ variant: { case: 'dense', value: { data: nine } } }],
          },
        },
      },
      limit: 6n,
    });
    assert.deepEqual(
      queried.result.map(idOf),
      bruteForce(
        rows.filter((r) => r.id !== 5),
        target,
        'euclid',
        6,
      ),
      'a vector example is not excluded',
    );
    assert.equal(
      await grpcCode(
        client
          .api('points')
          .recommend({ collectionName: 'euclid', positive: [numId(5)], strategy: RecommendStrategy.BestScore, limit: 1n }),
      ),
      Code.InvalidArgument,
    );
    assert.equal(
      await grpcCode(client.api('points').recommend({ collectionName: 'euclid', positive: [numId(123456)], limit: 1n })),
      Code.InvalidArgument,
    );
  });

  it('UpdateBatch applies its operations in order; update_mode and update_filter restrict upserts', async () => {
    const points = fixture.client.api('points');
    await fixture.client.api('collections').create({ collectionName: 'batch', vectorsConfig: vectorsConfig(2, Distance.Dot) });
    const tags = async () =>
      Object.fromEntries(
        (await points.scroll({ collectionName: 'batch', limit: 100 })).result.map((p) => [idOf(p), plainPayload(p.payload).tag]),
      );
    const batch = await points.updateBatch({
      collectionName: 'batch',
      operations: [
        {
          operation: {
            case: 'upsert',
            value: { points: [point(1, [1, 0], { tag: 'a' }), point(2, [0, 1], { tag: 'b' }), point(3, [1, 1], { tag: 'c' })] },
          },
        },
        {
          operation: {
            case: 'setPayload',
            value: {
              payload: payload({ tag: 'B' }),
              pointsSelector: { pointsSelectorOneOf: { case: 'points', value: { ids: [numId(2)] } } },
            },
          },
        },
        { operation: { case: 'deletePoints', value: { points: { pointsSelectorOneOf: { case: 'points', value: { ids: [numId(3)] } } } } } },
      ],
    });
    assert.equal(batch.result.length, 3);
    assert.deepEqual(await tags(), { 1: 'a', 2: 'B' });

    await points.upsert({
      collectionName: 'batch',
      updateMode: UpdateMode.InsertOnly,
      points: [point(1, [1, 0], { tag: 'x' }), point(4, [2, 2], { tag: 'd' })],
    });
    assert.deepEqual(await tags(), { 1: 'a', 2: 'B', 4: 'd' }, 'insert_only keeps existing points');
    await points.upsert({
      collectionName: 'batch',
      updateMode: UpdateMode.UpdateOnly,
      points: [point(1, [1, 0], { tag: 'y' }), point(5, [2, 2], { tag: 'e' })],
    });
    assert.deepEqual(await tags(), { 1: 'y', 2: 'B', 4: 'd' }, 'update_only skips new points');
    await points.upsert({
      collectionName: 'batch',
      updateFilter: { must: [keyword('tag', 'B')] },
      points: [point(1, [1, 0], { tag: 'z' }), point(2, [0, 1], { tag: 'z' }), point(6, [3, 3], { tag: 'f' })],
    });
    assert.deepEqual(await tags(), { 1: 'y', 2: 'z', 4: 'd', 6: 'f' }, 'update_filter replaces only matching existing points');
    assert.equal((await fixture.client.api('collections').delete({ collectionName: 'batch' })).result, true);
  });

  it('CreateFieldIndex adds a RANGE index and a payload_schema entry; DeleteFieldIndex removes both', async () => {
    const { client, db } = fixture;
    const indexNames = async () => {
      const session = db.session();
      try {
        const result = await session.run("SHOW INDEXES YIELD name, type WHERE name STARTS WITH 'qdrant_euclid_payload' RETURN name, type");
        return (await result.pull(-1)).records;
      } finally {
        await session.close();
      }
    };
    await client.api('points').createFieldIndex({ collectionName: 'euclid', fieldName: 'category', fieldType: FieldType.FieldTypeKeyword });
    let info = (await client.api('collections').get({ collectionName: 'euclid' })).result!;
    assert.equal(info.payloadSchema.category?.dataType, PayloadSchemaType.Keyword);
    assert.deepEqual(await indexNames(), [['qdrant_euclid_payload_category', 'RANGE']]);
    const filtered = await client.api('points').count({ collectionName: 'euclid', filter: { must: [keyword('category', 'tech')] } });
    assert.equal(filtered.result?.count, BigInt(rows.filter((r) => r.category === 'tech').length));
    await client.api('points').deleteFieldIndex({ collectionName: 'euclid', fieldName: 'category' });
    info = (await client.api('collections').get({ collectionName: 'euclid' })).result!;
    assert.deepEqual(Object.keys(info.payloadSchema), []);
    assert.deepEqual(await indexNames(), []);
  });

  it('concurrent creates of one collection: exactly one succeeds, the others get ALREADY_EXISTS', async () => {
    const create = () =>
      fixture.client.api('collections').create({ collectionName: 'race', vectorsConfig: vectorsConfig(4, Distance.Cosine) });
    const outcomes = await Promise.all(
      [1, 2, 3].map(() =>
        create().then(
          () => 'ok',
          (error: { code?: number }) => error.code,
        ),
      ),
    );
    assert.deepEqual(outcomes.sort(), [Code.AlreadyExists, Code.AlreadyExists, 'ok'].sort());
    assert.equal((await fixture.client.api('collections').delete({ collectionName: 'race' })).result, true);
  });

  it('deleting a collection removes its nodes, index and constraint', async () => {
    const { client, db } = fixture;
    assert.equal((await client.api('collections').delete({ collectionName: 'dot' })).result, true);
    assert.equal((await client.api('collections').delete({ collectionName: 'dot' })).result, false);
    const session = db.session();
    try {
      const nodes = await (await session.run('MATCH (p:Qdrant_dot) RETURN count(p)')).pull(-1);
      assert.deepEqual(nodes.records, [[0n]]);
      const schema = await (await session.run("SHOW INDEXES YIELD name WHERE name STARTS WITH 'qdrant_dot' RETURN name")).pull(-1);
      assert.deepEqual(schema.records, []);
    } finally {
      await session.close();
    }
    assert.deepEqual((await client.api('collections').list({})).collections.map((c) => c.name).sort(), ['euclid', 'multi']);
  });
});
