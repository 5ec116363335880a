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
  const norm = avgFieldLength > 0 ? fieldLength / avgFieldLength : 1;
  const saturation = (tf * (params.k1 + 1)) / (tf + params.k1 * (1 - params.b + params.b * norm));
  return bm25Idf(df, docCount) * saturation;
}
