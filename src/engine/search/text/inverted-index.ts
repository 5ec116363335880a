/**
 * In-memory inverted index with positional postings and BM25 scoring.
 *
 * Terminology:
 * - *document*: one node's indexed text (its indexed properties joined), identified by node id.
 * - *docNo*: a dense internal number per document, so postings and scores use small integers.
 * - *posting*: for one term, the documents containing it and the positions of each occurrence.
 */
import { analyze } from './analyzer.js';
import { Bm25Collection, DEFAULT_BM25, type Bm25Params } from './bm25.js';
import { rankScores, type TextHit } from './hits.js';
import { evaluateQuery, type TermPostings } from './query-evaluation.js';
import type { TextQuery } from './query-parser.js';
import type { TextIndex } from './text-index.js';

/** A full-text index over documents keyed by node id (`bm25_engine: v1`). */
export class InvertedIndex implements TextIndex, TermPostings {
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
    return rankScores(evaluateQuery(query, this), (docNo) => this.nodeOfDoc[docNo]!, limit, filter);
  }

  scoring(): Bm25Collection {
    const n = this.docOfNode.size;
    return new Bm25Collection(n, n === 0 ? 0 : this.totalLength / n, this.params);
  }

  documentLength(docNo: number): number {
    return this.lengthOfDoc[docNo]!;
  }

  termScores(term: string, scoring: Bm25Collection): Map<number, number> {
    const result = new Map<number, number>();
    const docs = this.postings.get(term);
    if (docs === undefined) return result;
    const idf = scoring.idf(docs.size);
    for (const [docNo, positions] of docs) result.set(docNo, scoring.score(idf, positions.length, scoring.norm(this.lengthOfDoc[docNo]!)));
    return result;
  }

  *termsWithPrefix(prefix: string): Iterable<string> {
    for (const term of this.postings.keys()) if (term.startsWith(prefix)) yield term;
  }

  phraseFrequencies(terms: readonly string[]): Map<number, number> {
    const result = new Map<number, number>();
    const lists = terms.map((term) => this.postings.get(term));
    if (lists.some((docs) => docs === undefined)) return result;
    const postings = lists as Map<number, number[]>[];
    const rarest = postings.reduce((a, b) => (b.size < a.size ? b : a));
    for (const docNo of rarest.keys()) {
      const positionSets = postings.map((docs) => docs.get(docNo));
      if (positionSets.some((p) => p === undefined)) continue;
      const later = positionSets.slice(1).map((p) => new Set(p));
      let frequency = 0;
      for (const start of positionSets[0]!) {
        if (later.every((set, i) => set.has(start + i + 1))) frequency++;
      }
      if (frequency > 0) result.set(docNo, frequency);
    }
    return result;
  }
}
