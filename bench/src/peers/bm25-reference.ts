/**
 * The reference BM25 (k1 1.2, b 0.75) that B2 checks every engine's top-10 against, with either
 * IDF in use: SQLite FTS5's ln((N - n + 0.5) / (n + 0.5)) floored at 1e-6, or Lucene's (and so
 * Neo4j's) ln(1 + (N - n + 0.5) / (n + 0.5)). Documents are whole words separated by spaces, so
 * tokenization is trivial; the generated vocabulary avoids words a stemmer would merge.
 */

/** Which IDF formula to score with. */
export type IdfVariant = 'fts5' | 'lucene';

function idfOf(variant: IdfVariant, n: number, df: number): number {
  if (variant === 'lucene') return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  const idf = Math.log((n - df + 0.5) / (df + 0.5));
  return idf <= 0 ? 1e-6 : idf;
}
import type { Corpus, TextQuery } from '../gen/documents.js';

const K1 = 1.2;
const B = 0.75;

/** One scored hit. */
export interface ScoredDoc {
  readonly doc: number;
  readonly score: number;
}

/** An in-memory inverted index over a generated corpus. */
export class ReferenceBm25 {
  private readonly postings = new Map<string, Map<number, number>>();
  private readonly lengths: Uint32Array;
  private readonly avgLength: number;

  constructor(
    corpus: Corpus,
    private readonly idf: IdfVariant,
  ) {
    this.lengths = new Uint32Array(corpus.docs.length);
    let total = 0;
    corpus.docs.forEach((doc, i) => {
      this.lengths[i] = doc.length;
      total += doc.length;
      for (const t of doc) {
        const word = corpus.vocabulary[t];
        let p = this.postings.get(word);
        if (!p) this.postings.set(word, (p = new Map<number, number>()));
        p.set(i, (p.get(i) ?? 0) + 1);
      }
    });
    this.avgLength = total / corpus.docs.length;
  }

  /** Top-k documents for the query, best first; ties broken by document id. */
  search(query: TextQuery, k: number): ScoredDoc[] {
    const n = this.lengths.length;
    const scores = new Map<number, number>();
    const matched = new Map<number, number>();
    const terms = [...new Set(query.terms)];
    for (const term of terms) {
      const p = this.postings.get(term);
      if (!p) continue;
      const idf = idfOf(this.idf, n, p.size);
      for (const [doc, tf] of p) {
        const norm = K1 * (1 - B + (B * this.lengths[doc]) / this.avgLength);
        scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * (K1 + 1)) / (tf + norm));
        matched.set(doc, (matched.get(doc) ?? 0) + 1);
      }
    }
    const hits: ScoredDoc[] = [];
    for (const [doc, score] of scores) {
      if (query.mode === 'AND' && matched.get(doc) !== terms.length) continue;
      hits.push({ doc, score });
    }
    hits.sort((x, y) => y.score - x.score || x.doc - y.doc);
    return hits.slice(0, k);
  }
}

/**
 * Whether two top-k lists agree: equal scores position by position (relative 1e-6) and the same
 * documents, except that documents tied with the k-th score may differ.
 */
export function sameTopK(a: readonly ScoredDoc[], b: readonly ScoredDoc[]): boolean {
  if (a.length !== b.length) return false;
  const close = (x: number, y: number): boolean => Math.abs(x - y) <= 1e-6 * Math.max(1, Math.abs(x), Math.abs(y));
  for (let i = 0; i < a.length; i++) if (!close(a[i].score, b[i].score)) return false;
  if (a.length === 0) return true;
  const last = a[a.length - 1].score;
  const strict = (list: readonly ScoredDoc[]): string =>
    list
      .filter((h) => !close(h.score, last))
      .map((h) => h.doc)
      .sort((x, y) => x - y)
      .join(',');
  return strict(a) === strict(b);
}
