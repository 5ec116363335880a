import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bm25, bm25Idf } from '../../src/engine/search/text/bm25.js';
import { analyze } from '../../src/engine/search/text/analyzer.js';
import { createTextIndex, type TextIndex } from '../../src/engine/search/text/text-index.js';
import { parseTextQuery } from '../../src/engine/search/text/query-parser.js';

const close = (actual: number, expected: number): void => assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} != ${expected}`);

/** Three documents: 10 terms in all, average length 10/3. */
function corpus(engine: 'v1' | 'v2'): TextIndex {
  const index = createTextIndex(engine);
  index.upsert(1n, 'The quick brown fox');
  index.upsert(2n, 'quick quick dog');
  index.upsert(3n, 'lazy dog sleeps');
  return index;
}

const search = (index: TextIndex, query: string) => index.search(parseTextQuery(query), 10).map((hit) => [hit.nodeId, hit.score] as const);

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

for (const engine of ['v1', 'v2'] as const) {
  test(`term query ranks by hand-computed BM25 (${engine})`, () => {
    const hits = search(corpus(engine), 'quick');
    assert.deepEqual(
      hits.map(([id]) => id),
      [2n, 1n],
    );
    close(hits[0][1], 0.6649569031129378);
    close(hits[1][1], 0.4344571362775707);
  });
}

for (const engine of ['v1', 'v2'] as const) {
  test(`OR sums term scores; AND intersects; NOT excludes (${engine})`, () => {
    const index = corpus(engine);
    // doc 2 has quick (tf 2) and dog (tf 1, length 3): 0.66495... + 0.49005...
    const or = search(index, 'quick dog');
    assert.deepEqual(
      or.map(([id]) => id),
      [2n, 3n, 1n],
    );
    close(or[0][1], 0.6649569031129378 + 0.4900511774126152);
    assert.deepEqual(
      search(index, 'quick AND dog').map(([id]) => id),
      [2n],
    );
    assert.deepEqual(
      search(index, '+dog -quick').map(([id]) => id),
      [3n],
    );
    assert.deepEqual(
      search(index, 'dog NOT lazy').map(([id]) => id),
      [2n],
    );
    assert.deepEqual(
      search(index, '(fox OR sleeps) AND NOT brown').map(([id]) => id),
      [3n],
    );
  });
}

for (const engine of ['v1', 'v2'] as const) {
  test(`phrases need consecutive positions; prefix queries expand (${engine})`, () => {
    const index = corpus(engine);
    assert.deepEqual(
      search(index, '"quick brown"').map(([id]) => id),
      [1n],
    );
    assert.deepEqual(search(index, '"brown quick"'), []);
    assert.deepEqual(
      search(index, 'sle*').map(([id]) => id),
      [3n],
    );
  });
}

for (const engine of ['v1', 'v2'] as const) {
  test(`updates and removals keep statistics exact (${engine})`, () => {
    const index = corpus(engine);
    index.upsert(1n, 'nothing relevant here');
    index.remove(3n);
    // now N = 2, quick df = 1, doc 2 length 3, avg (3 + 3) / 2 = 3
    const [hit] = search(index, 'quick');
    close(hit[1], bm25(2, 1, 2, 3, 3));
    assert.equal(index.documentFrequency('dog'), 1);
    assert.equal(index.size, 2);
  });
}

test('malformed queries are client errors', () => {
  assert.throws(() => parseTextQuery('"open'), /Unterminated/);
  assert.throws(() => parseTextQuery('(a OR b'), /missing '\)'/);
  assert.throws(() => parseTextQuery('title:x'), /field qualifiers/);
});

test('v2 (compact, MaxScore) returns exactly what v1 returns on a random corpus with churn', async () => {
  const { seededRandom } = await import('./helpers/vectors.js');
  const random = seededRandom(99);
  const words = Array.from({ length: 60 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}${Math.floor(i / 26)}`);
  const pick = () => words[Math.floor(Math.pow(random(), 2.5) * words.length)];
  const v1 = createTextIndex('v1');
  const v2 = createTextIndex('v2');
  for (let i = 0; i < 3000; i++) {
    const id = BigInt(1 + Math.floor(random() * 400));
    if (random() < 0.15) {
      v1.remove(id);
      v2.remove(id);
    } else {
      const text = Array.from({ length: 3 + Math.floor(random() * 12) }, pick).join(' ');
      v1.upsert(id, text);
      v2.upsert(id, text);
    }
  }
  assert.equal(v2.size, v1.size);
  const queries: string[] = [];
  for (let i = 0; i < 150; i++) {
    const [a, b, c] = [pick(), pick(), pick()];
    queries.push(
      `${a} ${b}`,
      `${a} ${b} ${c}`,
      `${a} AND ${b}`,
      `"${a} ${b}"`,
      `${a} -${b}`,
      `(${a} OR ${b}) AND ${c}`,
      a.slice(0, 5) + '*',
    );
  }
  for (const query of queries) {
    const parsed = parseTextQuery(query);
    const expected = v1.search(parsed, 10);
    const actual = v2.search(parsed, 10);
    assert.deepEqual(
      actual.map((h) => h.nodeId),
      expected.map((h) => h.nodeId),
      query,
    );
    actual.forEach((hit, i) => close(hit.score, expected[i].score));
  }
});
