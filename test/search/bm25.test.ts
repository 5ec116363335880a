import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bm25, bm25Idf } from '../../src/engine/search/text/bm25.js';
import { analyze } from '../../src/engine/search/text/analyzer.js';
import { InvertedIndex } from '../../src/engine/search/text/inverted-index.js';
import { parseTextQuery } from '../../src/engine/search/text/query-parser.js';

const close = (actual: number, expected: number): void =>
  assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} != ${expected}`);

/** Three documents: 10 terms in all, average length 10/3. */
function corpus(): InvertedIndex {
  const index = new InvertedIndex();
  index.upsert(1n, 'The quick brown fox');
  index.upsert(2n, 'quick quick dog');
  index.upsert(3n, 'lazy dog sleeps');
  return index;
}

const search = (index: InvertedIndex, query: string) =>
  index.search(parseTextQuery(query), 10).map((hit) => [hit.nodeId, hit.score] as const);

test('bm25 matches calculator values (k1 1.2, b 0.75)', () => {
  // idf = ln(1 + (3 - 2 + 0.5) / (2 + 0.5)) = ln 1.6
  close(bm25Idf(2, 3), 0.4700036292457356);
  // tf 1, length 4, avg 10/3: ln1.6 * 2.2 / (1 + 1.2 * (0.25 + 0.75 * 1.2))
  close(bm25(1, 2, 3, 4, 10 / 3), 0.4344571362775707);
  // tf 2, length 3: ln1.6 * 4.4 / (2 + 1.2 * (0.25 + 0.75 * 0.9))
  close(bm25(2, 2, 3, 3, 10 / 3), 0.6649569031129378);
  assert.equal(bm25(0, 2, 3, 3, 3), 0);
});

test('analyzer lower-cases, splits punctuation and stems', () => {
  assert.deepEqual(analyze("Running databases, don't STOP!"), ['run', 'databas', 'dont', 'stop']);
  assert.deepEqual(analyze('v2.1 release'), ['v2', '1', 'releas']);
});

test('term query ranks by hand-computed BM25', () => {
  const hits = search(corpus(), 'quick');
  assert.deepEqual(hits.map(([id]) => id), [2n, 1n]);
  close(hits[0]![1], 0.6649569031129378);
  close(hits[1]![1], 0.4344571362775707);
});

test('OR sums term scores; AND intersects; NOT excludes', () => {
  const index = corpus();
  // doc 2 has quick (tf 2) and dog (tf 1, length 3): 0.66495... + 0.49005...
  const or = search(index, 'quick dog');
  assert.deepEqual(or.map(([id]) => id), [2n, 3n, 1n]);
  close(or[0]![1], 0.6649569031129378 + 0.4900511774126152);
  assert.deepEqual(search(index, 'quick AND dog').map(([id]) => id), [2n]);
  assert.deepEqual(search(index, '+dog -quick').map(([id]) => id), [3n]);
  assert.deepEqual(search(index, 'dog NOT lazy').map(([id]) => id), [2n]);
  assert.deepEqual(search(index, '(fox OR sleeps) AND NOT brown').map(([id]) => id), [3n]);
});

test('phrases need consecutive positions; prefix queries expand', () => {
  const index = corpus();
  assert.deepEqual(search(index, '"quick brown"').map(([id]) => id), [1n]);
  assert.deepEqual(search(index, '"brown quick"'), []);
  assert.deepEqual(search(index, 'sle*').map(([id]) => id), [3n]);
});

test('updates and removals keep statistics exact', () => {
  const index = corpus();
  index.upsert(1n, 'nothing relevant here');
  index.remove(3n);
  // now N = 2, quick df = 1, doc 2 length 3, avg (3 + 3) / 2 = 3
  const [hit] = search(index, 'quick');
  close(hit![1], bm25(2, 1, 2, 3, 3));
  assert.equal(index.documentFrequency('dog'), 1);
  assert.equal(index.size, 2);
});

test('malformed queries are client errors', () => {
  assert.throws(() => parseTextQuery('"open'), /Unterminated/);
  assert.throws(() => parseTextQuery('(a OR b'), /missing '\)'/);
  assert.throws(() => parseTextQuery('title:x'), /field qualifiers/);
});
