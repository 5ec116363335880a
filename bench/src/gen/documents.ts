/**
 * Seeded short English-like documents for BM25: token ranks drawn from a Zipf distribution over a
 * vocabulary (real common words first, synthetic words in the tail), 6 to 40 tokens each.
 */
import { Rng, ZipfSampler } from '../rng.js';
import { vocabulary } from './words.js';

/** A corpus: documents as token-id arrays plus the vocabulary to render them. */
export interface Corpus {
  readonly vocabulary: readonly string[];
  readonly docs: readonly Uint32Array[];
}

/** A BM25 query: its terms and whether all of them must match. */
export interface TextQuery {
  readonly terms: readonly string[];
  readonly mode: 'OR' | 'AND';
}

/** Generates `count` documents over a vocabulary sized for the corpus. */
export function generateCorpus(seed: number, count: number): Corpus {
  const vocab = vocabulary(Math.max(2000, Math.min(50000, Math.round(count / 10))), seed);
  const rng = new Rng(seed);
  const zipf = new ZipfSampler(vocab.length, 0.95);
  const docs: Uint32Array[] = [];
  for (let i = 0; i < count; i++) {
    const len = 6 + rng.int(35);
    const doc = new Uint32Array(len);
    for (let t = 0; t < len; t++) doc[t] = zipf.sample(rng);
    docs.push(doc);
  }
  return { vocabulary: vocab, docs };
}

/** The text of document `i`. */
export function documentText(corpus: Corpus, i: number): string {
  let s = '';
  for (const t of corpus.docs[i]) s += (s ? ' ' : '') + corpus.vocabulary[t];
  return s;
}

/**
 * Queries of 2-3 terms from the mid-frequency band (neither stop-word-like nor absent): OR queries
 * touch many postings, AND queries few.
 */
export function generateTextQueries(seed: number, corpus: Corpus, count: number, mode: 'OR' | 'AND'): TextQuery[] {
  const rng = new Rng(seed ^ (mode === 'OR' ? 0x0e : 0xa1d));
  const lo = 20;
  const hi = Math.min(corpus.vocabulary.length, 600);
  const queries: TextQuery[] = [];
  for (let q = 0; q < count; q++) {
    const n = mode === 'OR' ? 3 : 2;
    const terms = new Set<string>();
    while (terms.size < n) terms.add(corpus.vocabulary[lo + rng.int(hi - lo)]);
    queries.push({ terms: [...terms], mode });
  }
  return queries;
}
