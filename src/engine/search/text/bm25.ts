/**
 * Okapi BM25 as Lucene computes it (the form Neo4j's full-text indexes report), as a pure
 * function of explicit statistics so it can be checked with a calculator.
 */

/** BM25 tuning: `k1` saturates term frequency, `b` scales length normalization. */
export interface Bm25Params {
  readonly k1: number;
  readonly b: number;
}

/** The usual defaults (Lucene, Orama, the bench's reference implementation). */
export const DEFAULT_BM25: Bm25Params = { k1: 1.2, b: 0.75 };

/** Inverse document frequency: ln(1 + (N - df + 0.5) / (df + 0.5)); never negative. */
export function bm25Idf(df: number, docCount: number): number {
  return Math.log(1 + (docCount - df + 0.5) / (df + 0.5));
}

/**
 * BM25 over one collection's statistics, the one scoring both full-text engines use: the length
 * normalization of a document is `norm(length)`, and a term's contribution `score(idf, tf, norm)`.
 */
export class Bm25Collection {
  private readonly k1Plus1: number;
  private readonly base: number;
  private readonly perLength: number;

  /**
   * @param docCount documents in the index
   * @param avgLength mean terms per document (0: no length normalization)
   */
  constructor(
    readonly docCount: number,
    avgLength: number,
    params: Bm25Params = DEFAULT_BM25,
  ) {
    const { k1, b } = params;
    this.k1Plus1 = k1 + 1;
    this.base = avgLength > 0 ? k1 * (1 - b) : k1;
    this.perLength = avgLength > 0 ? (k1 * b) / avgLength : 0;
  }

  /** Inverse document frequency of a term found in `df` documents. */
  idf(df: number): number {
    return bm25Idf(df, this.docCount);
  }

  /** The length part of the saturation's denominator for a document of `length` terms. */
  norm(length: number): number {
    return this.base + this.perLength * length;
  }

  /** Contribution of a term (or a phrase, with its terms' summed idf) occurring `tf` times in a document. */
  score(idf: number, tf: number, norm: number): number {
    return (idf * tf * this.k1Plus1) / (tf + norm);
  }
}

/**
 * Score contribution of one term to one document.
 * @param tf occurrences of the term in the document
 * @param df documents containing the term
 * @param docCount documents in the index
 * @param fieldLength terms in this document
 * @param avgFieldLength mean terms per document
 */
export function bm25(
  tf: number,
  df: number,
  docCount: number,
  fieldLength: number,
  avgFieldLength: number,
  params: Bm25Params = DEFAULT_BM25,
): number {
  if (tf <= 0 || df <= 0 || docCount <= 0) return 0;
  const collection = new Bm25Collection(docCount, avgFieldLength, params);
  return collection.score(collection.idf(df), tf, collection.norm(fieldLength));
}
