/** Unit tests of the GraphQL building blocks: the dropping subscription buffer, the batch loader, the limits rule. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildSchema, getIntrospectionQuery, parse, validate } from 'graphql';
import { BatchLoader } from '../../src/server/graphql/batch-loader.js';
import { queryLimitsRule } from '../../src/server/graphql/limits.js';
import { BoundedQueue } from '../../src/server/graphql/subscriptions/bounded-queue.js';

describe('BoundedQueue', () => {
  it('keeps 10 undelivered events, drops the rest and goes on', async () => {
    const queue = new BoundedQueue<number>(10);
    for (let i = 1; i <= 25; i++) queue.push(i);
    assert.equal(queue.dropped, 15);
    const first: number[] = [];
    for (let i = 0; i < 10; i++) first.push((await queue.next()).value as number);
    assert.deepEqual(first, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const waiting = queue.next();
    assert.equal(queue.push(26), true, 'a waiting reader takes the event directly');
    assert.deepEqual(await waiting, { value: 26, done: false });
  });

  it('ends on return(): a waiting reader completes and later pushes are refused', async () => {
    let ended = 0;
    const queue = new BoundedQueue<number>(10, () => ended++);
    const waiting = queue.next();
    await queue.return();
    assert.deepEqual(await waiting, { value: undefined, done: true });
    assert.equal(queue.push(1), false);
    assert.equal(ended, 1);
  });
});

describe('BatchLoader', () => {
  it('answers the keys requested in one tick with one batch call; later ticks read again', async () => {
    const calls: (readonly number[])[] = [];
    const loader = new BatchLoader<number, string>((keys) => {
      calls.push(keys);
      return keys.map((key) => `v${key}`);
    }, String);
    const values = await Promise.all([1, 2, 3, 2].map((key) => loader.load(key)));
    assert.deepEqual(values, ['v1', 'v2', 'v3', 'v2']);
    assert.deepEqual(calls, [[1, 2, 3]]);
    await Promise.all([loader.load(3), loader.load(4)]);
    assert.deepEqual(
      calls,
      [
        [1, 2, 3],
        [3, 4],
      ],
      'nothing is kept between batches (no stale entities in subscriptions)',
    );
  });

  it('rejects every key of a failed batch', async () => {
    const loader = new BatchLoader<number, number>(() => {
      throw new Error('boom');
    }, String);
    await assert.rejects(Promise.all([loader.load(1), loader.load(2)]), /boom/);
  });
});

describe('queryLimitsRule', () => {
  const schema = buildSchema('type Query { items(limit: Int): [Item!]! } type Item { id: ID! children(limit: Int): [Item!]! }');
  const check = (query: string) =>
    validate(schema, parse(query), [queryLimitsRule({ maxDepth: 3, maxComplexity: 100 })]).map((e) => e.extensions.code);

  it('accepts queries within the limits', () => {
    assert.deepEqual(check('{ items(limit: 5) { id children(limit: 5) { id } } }'), []);
  });

  it('refuses deep queries, also through fragments', () => {
    assert.deepEqual(check('{ items { children { children { children { id } } } } }'), [
      'GRAPHQL_QUERY_TOO_DEEP',
      'GRAPHQL_QUERY_TOO_COMPLEX',
    ]);
    assert.deepEqual(check('{ items(limit: 1) { ...F } } fragment F on Item { children(limit: 1) { children(limit: 1) { id } } }'), [
      'GRAPHQL_QUERY_TOO_DEEP',
    ]);
  });

  it('does not count introspection (tools send deep introspection queries)', () => {
    assert.deepEqual(check(getIntrospectionQuery()), []);
  });

  it('refuses wide fan-outs by multiplying list limits', () => {
    assert.deepEqual(check('{ items(limit: 50) { id children(limit: 50) { id } } }'), ['GRAPHQL_QUERY_TOO_COMPLEX']);
  });
});
