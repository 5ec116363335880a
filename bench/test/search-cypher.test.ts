/**
 * The "graphdb Cypher" search adapter on a small corpus: every answer it gives through Session.run
 * matches the bench's references (reference BM25, exact kNN, exact RRF).
 * `node --import tsx --test bench/test/search-cypher.test.ts`.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { documentText, generateCorpus, generateTextQueries } from '../src/gen/documents.js';
import { exactTopK, generateVectors, groundTruth, row } from '../src/gen/vectors.js';
import { CypherSearch, HYBRID_CANDIDATES, probeCypherSearch, referenceRrf } from '../src/graphdb/search-cypher.js';
import { meanRecall, queryParameter } from '../src/graphdb/search-cypher-workloads.js';
import { ReferenceBm25, sameTopK } from '../src/peers/bm25-reference.js';

describe('referenceRrf', () => {
  it('sums 1 / (60 + rank) over both lists and breaks ties by best single rank', () => {
    // 2 is ranked 2nd and 1st (1/62 + 1/61) and beats 1 (1st in one list only); 4 (2nd) beats 3 (3rd).
    assert.deepEqual(referenceRrf([1, 2, 3], [2, 4], 4), [2, 1, 4, 3]);
    // Equal scores and equal best ranks: the smaller id first.
    assert.deepEqual(referenceRrf([3, 1], [4, 2], 4), [3, 4, 1, 2]);
    assert.deepEqual(referenceRrf([5], [], 10), [5]);
  });
});

describe('graphdb Cypher search adapter', () => {
  const dir = mkdtempSync(join(tmpdir(), 'graphdb-bench-search-'));
  const corpus = generateCorpus(5, 600);
  const { base, queries } = generateVectors(5, 16, 400, 8);
  const truth = groundTruth(base, queries, 100);
  let search: CypherSearch;

  before(async () => {
    assert.equal(probeCypherSearch('src'), null);
    search = await CypherSearch.open('src', join(dir, 'db'));
    await search.loadDocuments(corpus.docs.length, (i) => documentText(corpus, i));
    await search.storeEmbeddings(base.count, (i) => Array.from(row(base, i)));
    assert.equal(search.startSearchServices(), corpus.docs.length);
    await search.createFulltextIndex();
    await search.createVectorIndex(base.dim, queryParameter(queries, 0));
  });

  after(async () => {
    await search.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('returns the reference BM25 top-10 for OR and AND queries', async () => {
    const reference = new ReferenceBm25(corpus, 'lucene');
    for (const mode of ['OR', 'AND'] as const) {
      for (const q of generateTextQueries(5, corpus, 10, mode)) {
        assert.ok(sameTopK(reference.search(q, 10), await search.fulltext(q, 10)), `${mode} ${q.terms.join(' ')}`);
      }
    }
  });

  it('answers kNN, exact and filtered kNN like exact search (brute force under 5000 vectors)', async () => {
    for (let q = 0; q < queries.count; q++) {
      const v = queryParameter(queries, q);
      const exact = exactTopK(base, row(queries, q), 10);
      assert.deepEqual(await search.exact(v, 10), exact);
      assert.deepEqual(await search.knn(v, 10), exact);
      assert.deepEqual(
        await search.filteredKnn(v, 10, base.count),
        exactTopK(base, row(queries, q), 10, (i) => i % 10 === 3),
      );
    }
  });

  it('fuses both procedures with RRF like the exact reference', async () => {
    const reference = new ReferenceBm25(corpus, 'lucene');
    const texts = generateTextQueries(6, corpus, queries.count, 'OR');
    const found: number[][] = [];
    const expected: number[][] = [];
    for (let q = 0; q < queries.count; q++) {
      found.push(await search.hybrid(texts[q].terms.join(' '), queryParameter(queries, q), 10));
      expected.push(
        referenceRrf(
          reference.search(texts[q], HYBRID_CANDIDATES).map((h) => h.doc),
          truth[q].slice(0, HYBRID_CANDIDATES),
          10,
        ),
      );
    }
    assert.ok(found.every((f) => f.length === 10));
    assert.ok(meanRecall(found, expected, 10) >= 0.95, `overlap ${meanRecall(found, expected, 10)}`);
  });

  it("answers like the exact RRF through graphdb's hybrid pipeline and refuses a cached answer", async () => {
    const reference = new ReferenceBm25(corpus, 'lucene');
    const texts = generateTextQueries(7, corpus, queries.count, 'OR');
    await search.storeNodeEmbeddings(base.count, (i) => row(base, i));
    const found: number[][] = [];
    const expected: number[][] = [];
    for (let q = 0; q < queries.count; q++) {
      found.push(await search.hybridSearch(texts[q].terms.join(' '), queryParameter(queries, q), 10, 'hybrid'));
      expected.push(
        referenceRrf(
          reference.search(texts[q], HYBRID_CANDIDATES).map((h) => h.doc),
          truth[q].slice(0, HYBRID_CANDIDATES),
          10,
        ),
      );
    }
    assert.ok(found.every((f) => f.length === 10 && f.every((d) => d >= 0)));
    assert.ok(meanRecall(found, expected, 10) >= 0.95, `overlap ${meanRecall(found, expected, 10)}`);
    await assert.rejects(search.hybridSearch(texts[0].terms.join(' '), queryParameter(queries, 0), 10, 'hybrid'), /result cache/);
  });
});
