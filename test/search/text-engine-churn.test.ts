import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CompactTextIndex } from '../../src/engine/search/text/compact-index.js';
import { InvertedIndex } from '../../src/engine/search/text/inverted-index.js';
import { parseTextQuery } from '../../src/engine/search/text/query-parser.js';

const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa', 'lambda', 'mu'];
const word = fc.constantFrom(...words);

type Op = { kind: 'upsert'; id: number; text: string } | { kind: 'remove'; id: number } | { kind: 'query'; query: string };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({
      kind: fc.constant('upsert' as const),
      id: fc.nat(30),
      text: fc.array(word, { minLength: 1, maxLength: 8 }).map((w) => w.join(' ')),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('remove' as const), id: fc.nat(30) }) },
  {
    weight: 2,
    arbitrary: fc.tuple(word, word, word, fc.nat(5)).map(([a, b, c, shape]) => ({
      kind: 'query' as const,
      query: [`${a}`, `${a} ${b} ${c}`, `${a} AND ${b}`, `"${a} ${b}"`, `${a} -${b}`, `${a.slice(0, 2)}*`][shape],
    })),
  },
);

void test('v2 answers as v1 through replace- and remove-heavy sequences, also while it renumbers in small steps', () => {
  fc.assert(
    fc.property(fc.array(op, { minLength: 1500, maxLength: 2500 }), fc.constantFrom(1, 3, 1024), (ops, step) => {
      const v1 = new InvertedIndex();
      const v2 = new CompactTextIndex(undefined, { slots: step, postings: step, nodes: step });
      for (const o of ops) {
        if (o.kind === 'upsert') {
          v1.upsert(BigInt(o.id), o.text);
          v2.upsert(BigInt(o.id), o.text);
        } else if (o.kind === 'remove') {
          assert.equal(v2.remove(BigInt(o.id)), v1.remove(BigInt(o.id)));
        } else {
          const expected = v1.search(parseTextQuery(o.query), 10);
          const actual = v2.search(parseTextQuery(o.query), 10);
          assert.deepEqual(
            actual.map((hit) => hit.nodeId),
            expected.map((hit) => hit.nodeId),
            o.query,
          );
          actual.forEach((hit, i) => assert.ok(Math.abs(hit.score - expected[i].score) < 1e-9, o.query));
        }
        assert.equal(v2.size, v1.size);
      }
      assert.deepEqual([...v2.nodeIds()].sort(), [...v1.nodeIds()].sort());
      for (const w of words) assert.equal(v2.documentFrequency(w), v1.documentFrequency(w), w);
    }),
    { numRuns: 12, seed: 17 },
  );
});
