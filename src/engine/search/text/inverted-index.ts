/**
 * In-memory inverted index with positional postings and BM25 scoring.
 *
 * Terminology:
 * - *document*: one node's indexed text (its indexed properties joined), identified by node id.
 * - *docNo*: a dense internal number per document, so postings and scores use small integers.
 * - *posting*: for one term, the documents containing it and the positions of each occurrence.
 */
import { analyze } from './analyzer.js';
import { bm25, bm25Idf, DEFAULT_BM25, type Bm25Params } from './bm25.js';
import type { TextQuery } from './query-parser.js';

/** One scored hit. */
export interface TextHit {
  readonly nodeId: bigint;
  readonly score: number;
}

/**
 * Result order: higher score first; scores equal up to floating-point summation noise count as
 * ties, broken by ascending node id (so both engines, which add term scores in different orders,
 * rank identically).
 */
export function compareHits(a: TextHit, b: TextHit): number {
  const difference = b.score - a.score;
  if (Math.abs(difference) > 1e-9 * Math.max(1, Math.abs(a.score), Math.abs(b.score))) return difference;
  return a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : 0;
}

/** Most terms a prefix query expands to (Lucene's default max clause count is far larger; we keep it cheap). */
const MAX_PREFIX_EXPANSION = 128;

/** A full-text index over documents keyed by node id. */
export class InvertedIndex {
  private readonly postings = new Map<string, Map<number, number[]>>();
  private readonly docOfNode = new Map<bigint, number>();
  private readonly nodeOfDoc: bigint[] = [];
  private readonly lengthOfDoc: number[] = [];
  private readonly termsOfDoc: (string[] | undefined)[] = [];
  private readonly freeDocNos: number[] = [];
  private totalLength = 0;

  constructor(private readonly params: Bm25Params = DEFAULT_BM25) {}

  /** Number of indexed documents. */
  get size(): number {
    return this.docOfNode.size;
  }

  /** True when `nodeId` is indexed. */
  has(nodeId: bigint): boolean {
    return this.docOfNode.has(nodeId);
  }

  /** Indexes (or re-indexes) a node's text. Empty text removes the node. */
  upsert(nodeId: bigint, text: string): void {
    this.remove(nodeId);
    const terms = analyze(text);
    if (terms.length === 0) return;
    const docNo = this.freeDocNos.pop() ?? this.nodeOfDoc.length;
    this.docOfNode.set(nodeId, docNo);
    this.nodeOfDoc[docNo] = nodeId;
    this.lengthOfDoc[docNo] = terms.length;
    this.totalLength += terms.length;
    const unique: string[] = [];
    terms.forEach((term, position) => {
      let docs = this.postings.get(term);
      if (docs === undefined) {
        docs = new Map();
        this.postings.set(term, docs);
      }
      const positions = docs.get(docNo);
      if (positions === undefined) {
        docs.set(docNo, [position]);
        unique.push(term);
      } else {
        positions.push(position);
      }
    });
    this.termsOfDoc[docNo] = unique;
  }

  /** Removes a node's document; returns whether it was indexed. */
  remove(nodeId: bigint): boolean {
    const docNo = this.docOfNode.get(nodeId);
    if (docNo === undefined) return false;
    for (const term of this.termsOfDoc[docNo] ?? []) {
      const docs = this.postings.get(term);
      docs?.delete(docNo);
      if (docs !== undefined && docs.size === 0) this.postings.delete(term);
    }
    this.totalLength -= this.lengthOfDoc[docNo] ?? 0;
    this.termsOfDoc[docNo] = undefined;
    this.lengthOfDoc[docNo] = 0;
    this.docOfNode.delete(nodeId);
    this.freeDocNos.push(docNo);
    return true;
  }

  /** Removes every document. */
  clear(): void {
    for (const nodeId of [...this.docOfNode.keys()]) this.remove(nodeId);
  }

  /** Every indexed node id (for orphan checks). */
  nodeIds(): IterableIterator<bigint> {
    return this.docOfNode.keys();
  }

  /**
   * Estimated heap bytes: per term a map of documents (about 200 B with the key), per posting a
   * map entry and an array of positions (about 90 B), per document about 150 B (its term list,
   * the node map entry, the document arrays' slots). Rougher than the `v2` engine's estimate.
   */
  estimatedBytes(): number {
    return this.postings.size * 200 + this.totalLength * 90 + this.docOfNode.size * 150;
  }

  /** Documents containing `term` (its document frequency). */
  documentFrequency(term: string): number {
    return this.postings.get(term)?.size ?? 0;
  }

  /** Runs a parsed query; returns the best `limit` hits, highest score first (ties by node id). */
  search(query: TextQuery, limit: number, filter?: (nodeId: bigint) => boolean): TextHit[] {
    const scores = this.evaluate(query);
    const hits: TextHit[] = [];
    for (const [docNo, score] of scores) {
      const nodeId = this.nodeOfDoc[docNo]!;
      if (filter === undefined || filter(nodeId)) hits.push({ nodeId, score });
    }
    hits.sort(compareHits);
    return limit < hits.length ? hits.slice(0, limit) : hits;
  }

  private evaluate(query: TextQuery): Map<number, number> {
    switch (query.kind) {
      case 'term':
        return this.scoreTerm(query.term);
      case 'prefix':
        return this.scorePrefix(query.prefix);
      case 'phrase':
        return this.scorePhrase(query.terms);
      case 'bool':
        return this.scoreBool(query);
    }
  }

  private get averageLength(): number {
    return this.docOfNode.size === 0 ? 0 : this.totalLength / this.docOfNode.size;
  }

  private scoreTerm(term: string): Map<number, number> {
    const result = new Map<number, number>();
    const docs = this.postings.get(term);
    if (docs === undefined) return result;
    const n = this.docOfNode.size;
    const avg = this.averageLength;
    for (const [docNo, positions] of docs) {
      result.set(docNo, bm25(positions.length, docs.size, n, this.lengthOfDoc[docNo]!, avg, this.params));
    }
    return result;
  }

  private scorePrefix(prefix: string): Map<number, number> {
    const result = new Map<number, number>();
    let expanded = 0;
    for (const term of this.postings.keys()) {
      if (!term.startsWith(prefix)) continue;
      for (const [docNo, score] of this.scoreTerm(term)) result.set(docNo, (result.get(docNo) ?? 0) + score);
      if (++expanded >= MAX_PREFIX_EXPANSION) break;
    }
    return result;
  }

  /** Phrase: consecutive positions; scored as BM25 of the phrase frequency with the terms' summed idf. */
  private scorePhrase(terms: readonly string[]): Map<number, number> {
    const result = new Map<number, number>();
    const lists = terms.map((term) => this.postings.get(term));
    if (lists.some((docs) => docs === undefined)) return result;
    const postings = lists as Map<number, number[]>[];
    const rarest = postings.reduce((a, b) => (b.size < a.size ? b : a));
    const n = this.docOfNode.size;
    const avg = this.averageLength;
    const idf = postings.reduce((sum, docs) => sum + bm25Idf(docs.size, n), 0);
    for (const docNo of rarest.keys()) {
      const positionSets = postings.map((docs) => docs.get(docNo));
      if (positionSets.some((p) => p === undefined)) continue;
      const later = positionSets.slice(1).map((p) => new Set(p));
      let frequency = 0;
      for (const start of positionSets[0]!) {
        if (later.every((set, i) => set.has(start + i + 1))) frequency++;
      }
      if (frequency === 0) continue;
      const { k1, b } = this.params;
      const norm = avg > 0 ? this.lengthOfDoc[docNo]! / avg : 1;
      result.set(docNo, (idf * frequency * (k1 + 1)) / (frequency + k1 * (1 - b + b * norm)));
    }
    return result;
  }

  private scoreBool(query: Extract<TextQuery, { kind: 'bool' }>): Map<number, number> {
    let result: Map<number, number>;
    if (query.must.length > 0) {
      const musts = query.must.map((clause) => this.evaluate(clause)).sort((a, b) => a.size - b.size);
      result = new Map();
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
        for (const [docNo, score] of this.evaluate(clause)) {
          const current = result.get(docNo);
          if (current !== undefined) result.set(docNo, current + score);
        }
      }
    } else {
      result = new Map();
      for (const clause of query.should) {
        for (const [docNo, score] of this.evaluate(clause)) result.set(docNo, (result.get(docNo) ?? 0) + score);
      }
    }
    for (const clause of query.mustNot) {
      for (const docNo of this.evaluate(clause).keys()) result.delete(docNo);
    }
    return result;
  }
}
