/**
 * Evaluation of a parsed full-text query, shared by both engines: how terms, prefixes, phrases and
 * boolean clauses combine into per-document BM25 scores. An engine supplies only what depends on
 * its postings layout (`TermPostings`).
 */
import type { Bm25Collection } from './bm25.js';
import type { TextQuery } from './query-parser.js';

/** Most terms a prefix query expands to (Lucene's default max clause count is far larger; we keep it cheap). */
export const MAX_PREFIX_EXPANSION = 128;

/** What a query needs from an engine's postings; documents are the engine's internal numbers. */
export interface TermPostings {
  /** The collection statistics of the moment. */
  scoring(): Bm25Collection;
  /** Documents containing a term. */
  documentFrequency(term: string): number;
  /** Terms of a document. */
  documentLength(docNo: number): number;
  /** BM25 of `term` for every document containing it. */
  termScores(term: string, scoring: Bm25Collection): Map<number, number>;
  /** The indexed terms starting with `prefix`, in the engine's term order. */
  termsWithPrefix(prefix: string): Iterable<string>;
  /** For each document containing the terms consecutively, how many times (empty when a term is not indexed). */
  phraseFrequencies(terms: readonly string[]): Map<number, number>;
}

/** Scores of the documents matching `query`. */
export function evaluateQuery(query: TextQuery, postings: TermPostings, scoring: Bm25Collection = postings.scoring()): Map<number, number> {
  switch (query.kind) {
    case 'term':
      return postings.termScores(query.term, scoring);
    case 'prefix':
      return prefixScores(query.prefix, postings, scoring);
    case 'phrase':
      return phraseScores(query.terms, postings, scoring);
    case 'bool':
      return booleanScores(query, postings, scoring);
  }
}

/** A prefix: the summed scores of the first `MAX_PREFIX_EXPANSION` terms it expands to. */
function prefixScores(prefix: string, postings: TermPostings, scoring: Bm25Collection): Map<number, number> {
  const result = new Map<number, number>();
  let expanded = 0;
  for (const term of postings.termsWithPrefix(prefix)) {
    for (const [docNo, score] of postings.termScores(term, scoring)) result.set(docNo, (result.get(docNo) ?? 0) + score);
    if (++expanded >= MAX_PREFIX_EXPANSION) break;
  }
  return result;
}

/** A phrase scores as BM25 of its frequency with its terms' summed idf. */
function phraseScores(terms: readonly string[], postings: TermPostings, scoring: Bm25Collection): Map<number, number> {
  const result = new Map<number, number>();
  const frequencies = postings.phraseFrequencies(terms);
  if (frequencies.size === 0) return result;
  const idf = terms.reduce((sum, term) => sum + scoring.idf(postings.documentFrequency(term)), 0);
  for (const [docNo, frequency] of frequencies) {
    result.set(docNo, scoring.score(idf, frequency, scoring.norm(postings.documentLength(docNo))));
  }
  return result;
}

/**
 * Boolean clauses as Lucene combines them: with MUST clauses a document must match all of them and
 * SHOULD clauses only add to its score; without, any SHOULD clause matches; MUST NOT removes.
 */
function booleanScores(query: Extract<TextQuery, { kind: 'bool' }>, postings: TermPostings, scoring: Bm25Collection): Map<number, number> {
  const result = new Map<number, number>();
  if (query.must.length > 0) {
    const musts = query.must.map((clause) => evaluateQuery(clause, postings, scoring)).sort((a, b) => a.size - b.size);
    for (const [docNo, score] of musts[0]!) {
      let total = score;
      let matchesAll = true;
      for (let i = 1; i < musts.length && matchesAll; i++) {
        const other = musts[i]!.get(docNo);
        if (other === undefined) matchesAll = false;
        else total += other;
      }
      if (matchesAll) result.set(docNo, total);
    }
    for (const clause of query.should) {
      for (const [docNo, score] of evaluateQuery(clause, postings, scoring)) {
        const current = result.get(docNo);
        if (current !== undefined) result.set(docNo, current + score);
      }
    }
  } else {
    for (const clause of query.should) {
      for (const [docNo, score] of evaluateQuery(clause, postings, scoring)) result.set(docNo, (result.get(docNo) ?? 0) + score);
    }
  }
  for (const clause of query.mustNot) {
    for (const docNo of evaluateQuery(clause, postings, scoring).keys()) result.delete(docNo);
  }
  return result;
}
