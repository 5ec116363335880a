/**
 * Unit tests of the bench harness itself (not part of `npm test`, which covers test/ only):
 * `node --import tsx --test bench/test/*.test.ts`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateCorpus, generateTextQueries } from '../src/gen/documents.js';
import { generateSocialGraph, makePerson } from '../src/gen/social.js';
import { exactTopK, generateVectors, recallAt, row } from '../src/gen/vectors.js';
import { vocabulary } from '../src/gen/words.js';
import { ReferenceBm25, sameTopK } from '../src/peers/bm25-reference.js';
import { CsrSubject } from '../src/peers/csr.js';
import { WorkloadRecorder } from '../src/report-model.js';
import { Rng, ZipfSampler } from '../src/rng.js';

const timing = (opsPerSec: number, p50Ms = 1) => ({ ops: 10, seconds: 1, opsPerSec, p50Ms, p99Ms: p50Ms });

describe('generators', () => {
  it('are deterministic for a seed and differ across seeds', () => {
    const a = generateSocialGraph(7, 500, 2000);
    const b = generateSocialGraph(7, 500, 2000);
    const c = generateSocialGraph(8, 500, 2000);
    assert.deepEqual(a.src, b.src);
    assert.deepEqual(a.dst, b.dst);
    assert.notDeepEqual(a.src, c.src);
    assert.deepEqual(makePerson(7, 42), makePerson(7, 42));
  });

  it('make distinct edges without self-loops and a skewed degree distribution', () => {
    const g = generateSocialGraph(3, 2000, 10_000);
    const keys = new Set<number>();
    const degree = new Int32Array(g.persons);
    for (let i = 0; i < g.src.length; i++) {
      assert.notEqual(g.src[i], g.dst[i]);
      keys.add(g.src[i] * g.persons + g.dst[i]);
      degree[g.src[i]]++;
    }
    assert.equal(keys.size, g.src.length);
    const max = Math.max(...degree);
    assert.ok(max > 10 * (g.src.length / g.persons), `max out-degree ${max} shows a heavy tail`);
  });

  it('give unique emails', () => {
    const emails = new Set(Array.from({ length: 5000 }, (_, i) => makePerson(1, i).email));
    assert.equal(emails.size, 5000);
  });

  it('sample Zipf ranks inside the range, favouring low ranks', () => {
    const rng = new Rng(1);
    const zipf = new ZipfSampler(100, 0.6);
    let low = 0;
    for (let i = 0; i < 10_000; i++) {
      const r = zipf.sample(rng);
      assert.ok(r >= 0 && r < 100);
      if (r < 10) low++;
    }
    assert.ok(low > 2000, `${low} of 10000 samples in the first 10 % of ranks`);
  });

  it('produce unit vectors whose exact top-k finds the vector itself first', () => {
    const { base } = generateVectors(5, 32, 300, 3);
    for (const i of [0, 17, 299]) {
      const v = row(base, i);
      const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
      assert.ok(Math.abs(norm - 1) < 1e-5);
      assert.equal(exactTopK(base, v, 5)[0], i);
    }
    assert.equal(recallAt(2, [1, 9], [1, 2]), 0.5);
  });

  it('keep a vocabulary of distinct words', () => {
    const words = vocabulary(3000);
    assert.equal(new Set(words).size, 3000);
  });
});

describe('JS CSR limit', () => {
  it('finds the same shortest path lengths as a plain BFS', async () => {
    const g = generateSocialGraph(11, 300, 600);
    const csr = new CsrSubject();
    await csr.load(g);
    const adj: number[][] = Array.from({ length: g.persons }, () => []);
    for (let i = 0; i < g.src.length; i++) {
      adj[g.src[i]].push(g.dst[i]);
      adj[g.dst[i]].push(g.src[i]);
    }
    const bfs = (a: number, b: number, max: number): number | null => {
      const dist = new Map([[a, 0]]);
      let frontier = [a];
      for (let d = 1; d <= max && frontier.length; d++) {
        const next: number[] = [];
        for (const v of frontier)
          for (const w of adj[v])
            if (!dist.has(w)) {
              if (w === b) return d;
              dist.set(w, d);
              next.push(w);
            }
        frontier = next;
      }
      return null;
    };
    const rng = new Rng(2);
    for (let t = 0; t < 200; t++) {
      const a = rng.int(g.persons);
      const b = rng.int(g.persons);
      if (a === b) continue;
      assert.equal(csr.shortestPath(a, b, 4), bfs(a, b, 4), `pair ${a} ${b}`);
    }
  });
});

describe('reference BM25', () => {
  it('ranks documents with more matching terms higher and compares top-k with tie tolerance', () => {
    const corpus = generateCorpus(9, 500);
    const ref = new ReferenceBm25(corpus, 'lucene');
    const [q] = generateTextQueries(9, corpus, 1, 'AND');
    const hits = ref.search(q, 10);
    for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1].score >= hits[i].score);
    assert.ok(sameTopK(hits, [...hits]));
    if (hits.length > 1) assert.ok(!sameTopK(hits, hits.slice(1)));
    const tied = [
      { doc: 1, score: 2 },
      { doc: 2, score: 1 },
    ];
    assert.ok(
      sameTopK(tied, [
        { doc: 1, score: 2 },
        { doc: 3, score: 1 },
      ]),
      'documents tied at the cut may differ',
    );
    assert.ok(
      !sameTopK(tied, [
        { doc: 4, score: 2 },
        { doc: 2, score: 1 },
      ]),
    );
  });
});

describe('WorkloadRecorder', () => {
  it('passes only when every ratio holds and the answers agree', () => {
    const rec = new WorkloadRecorder('X', 'x', 'ops/s', 't', [
      { against: 'raw', factor: 0.5 },
      { against: 'best peer', factor: 1 },
    ]);
    rec.ok('ours', 'ours', timing(60));
    rec.ok('peerA', 'peer', timing(50));
    rec.ok('peerB', 'peer', timing(40));
    rec.ok('raw', 'limit', timing(100));
    rec.answer('ours', [1, 2]);
    rec.answer('raw', [1, 2]);
    const result = rec.finish();
    assert.equal(result.pass, true);
    assert.deepEqual(
      result.requirements.map((r) => r.ratio),
      [0.6, 1.2],
    );
  });

  it('fails on a ratio miss and on disagreeing answers', () => {
    const slow = new WorkloadRecorder('X', 'x', 'ops/s', 't', [{ against: 'raw', factor: 0.5 }]);
    slow.ok('ours', 'ours', timing(10));
    slow.ok('raw', 'limit', timing(100));
    assert.equal(slow.finish().pass, false);
    const wrong = new WorkloadRecorder('X', 'x', 'ops/s', 't', [{ against: 'raw', factor: 0.5 }]);
    wrong.ok('ours', 'ours', timing(100));
    wrong.ok('raw', 'limit', timing(100));
    wrong.answer('ours', 3);
    wrong.answer('raw', 4);
    const result = wrong.finish();
    assert.equal(result.agreement.ok, false);
    assert.equal(result.pass, false);
  });

  it('reports pending, not pass or fail, when ours was not measured', () => {
    const rec = new WorkloadRecorder('X', 'x', 'ops/s', 't', [{ against: 'raw', factor: 0.5 }]);
    rec.pending('ours', 'feature not landed');
    rec.ok('raw', 'limit', timing(100));
    const result = rec.finish();
    assert.equal(result.pass, null);
    assert.equal(result.pending, 'feature not landed');
  });
});
