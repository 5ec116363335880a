/**
 * The `v2` full-text engine: compact postings and dynamic pruning.
 *
 * Terminology:
 * - *docNo*: documents are numbered in insertion order and never reused, so every posting list is
 *   sorted by docNo; re-indexing a node gives it a new docNo. When dead docNos outnumber live ones
 *   the live documents are renumbered densely (same order), in bounded steps taken by later upserts
 *   and removals: first the document arrays are copied slice by slice (see Compaction), then posting
 *   lists and node map entries move to the new numbers, a few per step and any list a query or
 *   update touches first (see RenumberState). No step is O(documents).
 * - *posting list*: per term, parallel typed arrays of docNos and term frequencies; a removed
 *   document's entries keep their place with frequency 0 until the list is compacted.
 * - *MaxScore*: top-k evaluation of OR queries. Terms are ordered by their score upper bound; once
 *   the k-th best score exceeds the summed bounds of the weakest terms, those terms are no longer
 *   iterated, only probed (galloping search) for documents the stronger terms produce.
 */
import { analyze } from './analyzer.js';
import { Bm25Collection, DEFAULT_BM25, type Bm25Params } from './bm25.js';
import { HitHeap, rankScores, type TextHit } from './hits.js';
import { evaluateQuery, type TermPostings } from './query-evaluation.js';
import type { TextQuery } from './query-parser.js';
import { bigintShard, ShardedMap, stringShard } from './sharded-map.js';
import type { TextIndex } from './text-index.js';

/** Position of the first entry at or after `from` whose docNo is >= `target` (exponential then binary search). */
function gallop(docs: Int32Array, length: number, from: number, target: number): number {
  if (from >= length || docs[from]! >= target) return from;
  let step = 1;
  let low = from;
  let high = from + 1;
  while (high < length && docs[high]! < target) {
    low = high;
    step *= 2;
    high = from + step;
  }
  high = Math.min(high, length);
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (docs[mid]! < target) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * Estimated heap bytes (V8, 64-bit, pointer compression) per live document: its term sequence
 * (a typed array with its buffer), the node-to-document map entry with its bigint key, and the
 * document arrays' slots. Calibrated against the heap measured after indexing 200,000 small
 * nodes (docs/robustness.md).
 */
const BYTES_PER_DOCUMENT = 300;
/** Per term: two posting typed arrays with their buffers, the term map entry, and the term arrays' slots. */
const BYTES_PER_TERM = 460;
/** Per posting (a term in a document): a document number and a frequency, with growth slack. */
const BYTES_PER_POSTING = 12;

/** How much renumbering work each upsert or removal does while a renumbering is in progress. */
export interface RenumberSteps {
  /** Document slots copied per step while the document arrays are compacted. */
  readonly slots: number;
  /** Posting entries (at least one whole list) moved to the new docNos per step. */
  readonly postings: number;
  /** Node map entries moved per step. */
  readonly nodes: number;
}

/** Each step stays well under a millisecond; a renumbering ends long before the next one is due. */
const DEFAULT_RENUMBER_STEPS: RenumberSteps = { slots: 1024, postings: 4096, nodes: 256 };

/**
 * First phase of a renumbering: the live documents below `remap.length` (the old docNos walked so
 * far) are copied into the new document arrays; the index still runs on the old numbers.
 */
interface Compaction {
  readonly remap: number[];
  readonly docNode: bigint[];
  readonly docLength: number[];
  readonly docTerms: (Int32Array | null)[];
}

/**
 * Second phase of a renumbering: `remap` gives each old docNo its new one (-1 for dead documents);
 * terms below `termCount` whose `pending` flag is set still hold old docNos; `oldNodes` holds the
 * node map entries (old docNos) not yet moved into the node map, walked by `moving`.
 */
interface RenumberState {
  readonly remap: readonly number[];
  readonly pending: Uint8Array;
  readonly termCount: number;
  nextTerm: number;
  readonly oldNodes: ShardedMap<bigint, number>;
  readonly moving: Iterator<[bigint, number]>;
}

/** Compact postings full-text index (`bm25_engine: v2`). */
export class CompactTextIndex implements TextIndex, TermPostings {
  private readonly termIdOf = new ShardedMap<string, number>(stringShard);
  private readonly termText: string[] = [];
  private postDocs: Int32Array[] = [];
  private postTfs: Int32Array[] = [];
  private postLength: number[] = [];
  private postDead: number[] = [];
  private df: number[] = [];
  private maxTf: number[] = [];
  private minLength: number[] = [];
  private docNode: bigint[] = [];
  private docLength: number[] = [];
  private docTerms: (Int32Array | null)[] = [];
  private docOfNode = new ShardedMap<bigint, number>(bigintShard);
  private compaction: Compaction | null = null;
  private renumbering: RenumberState | null = null;
  private totalLength = 0;
  /** Characters of every term (for the size estimate). */
  private termChars = 0;
  /** Per-term counters reused by addDocument (always zero between calls). */
  private scratch = new Int32Array(1024);

  constructor(
    private readonly params: Bm25Params = DEFAULT_BM25,
    private readonly steps: RenumberSteps = DEFAULT_RENUMBER_STEPS,
  ) {}

  get size(): number {
    return this.docOfNode.size + (this.renumbering?.oldNodes.size ?? 0);
  }

  has(nodeId: bigint): boolean {
    return this.docOfNode.has(nodeId) || this.renumbering?.oldNodes.has(nodeId) === true;
  }

  nodeIds(): IterableIterator<bigint> {
    const old = this.renumbering?.oldNodes;
    return old === undefined ? this.docOfNode.keys() : [...this.docOfNode.keys(), ...old.keys()].values();
  }

  documentFrequency(term: string): number {
    const id = this.termIdOf.get(term);
    return id === undefined ? 0 : this.df[id]!;
  }

  clear(): void {
    this.termIdOf.clear();
    this.termText.length = 0;
    this.postDocs = [];
    this.postTfs = [];
    this.postLength = [];
    this.postDead = [];
    this.df = [];
    this.maxTf = [];
    this.minLength = [];
    this.docNode = [];
    this.docLength = [];
    this.docTerms = [];
    this.docOfNode.clear();
    this.compaction = null;
    this.renumbering = null;
    this.totalLength = 0;
    this.termChars = 0;
  }

  estimatedBytes(): number {
    return (
      this.size * BYTES_PER_DOCUMENT + this.termText.length * BYTES_PER_TERM + this.termChars * 2 + this.totalLength * BYTES_PER_POSTING
    );
  }

  upsert(nodeId: bigint, text: string): void {
    this.remove(nodeId);
    const terms = analyze(text);
    if (terms.length === 0) return;
    const sequence = new Int32Array(terms.length);
    terms.forEach((term, i) => (sequence[i] = this.termId(term)));
    this.addDocument(nodeId, sequence);
    this.renumberStep();
    const idle = this.compaction === null && this.renumbering === null;
    if (idle && this.docNode.length > 1024 && this.docNode.length > 2 * this.size)
      this.compaction = { remap: [], docNode: [], docLength: [], docTerms: [] };
  }

  remove(nodeId: bigint): boolean {
    const docNo = this.takeDocNo(nodeId);
    if (docNo === undefined) return false;
    const sequence = this.docTerms[docNo]!;
    for (const termId of new Set(sequence)) {
      this.current(termId);
      const at = gallop(this.postDocs[termId]!, this.postLength[termId]!, 0, docNo);
      this.postTfs[termId]![at] = 0;
      this.df[termId]!--;
      if (++this.postDead[termId]! > 16 && this.postDead[termId]! * 2 > this.postLength[termId]!) this.compactPosting(termId);
    }
    this.totalLength -= sequence.length;
    this.docTerms[docNo] = null;
    const copied = this.compaction?.remap[docNo] ?? -1;
    if (copied >= 0) this.compaction!.docTerms[copied] = null;
    this.renumberStep();
    return true;
  }

  /** The node's docNo (translated if its map entry has not moved yet), removed from the node maps. */
  private takeDocNo(nodeId: bigint): number | undefined {
    const docNo = this.docOfNode.get(nodeId);
    if (docNo !== undefined) {
      this.docOfNode.delete(nodeId);
      return docNo;
    }
    const state = this.renumbering;
    const old = state?.oldNodes.get(nodeId);
    if (state === null || old === undefined) return undefined;
    state.oldNodes.delete(nodeId);
    return state.remap[old];
  }

  search(query: TextQuery, limit: number, filter?: (nodeId: bigint) => boolean): TextHit[] {
    if (limit <= 0 || this.size === 0) return [];
    if (query.kind === 'term') return this.orTopK([query.term], limit, filter);
    if (query.kind === 'bool' && query.mustNot.length === 0) {
      const allTerms = (clauses: readonly TextQuery[]) => clauses.every((c) => c.kind === 'term');
      if (query.must.length === 0 && allTerms(query.should)) {
        return this.orTopK(
          query.should.map((c) => (c as { term: string }).term),
          limit,
          filter,
        );
      }
      if (query.should.length === 0 && allTerms(query.must)) {
        return this.andTopK(
          query.must.map((c) => (c as { term: string }).term),
          limit,
          filter,
        );
      }
    }
    return rankScores(evaluateQuery(query, this), (docNo) => this.docNode[docNo]!, limit, filter);
  }

  private termId(term: string): number {
    let id = this.termIdOf.get(term);
    if (id === undefined) {
      id = this.termText.length;
      this.termIdOf.set(term, id);
      this.termText.push(term);
      this.termChars += term.length;
      this.postDocs.push(new Int32Array(4));
      this.postTfs.push(new Int32Array(4));
      this.postLength.push(0);
      this.postDead.push(0);
      this.df.push(0);
      this.maxTf.push(0);
      this.minLength.push(Number.MAX_SAFE_INTEGER);
    }
    return id;
  }

  private addDocument(nodeId: bigint, sequence: Int32Array): void {
    const docNo = this.docNode.length;
    this.docNode.push(nodeId);
    this.docLength.push(sequence.length);
    this.docTerms.push(sequence);
    this.docOfNode.set(nodeId, docNo);
    this.totalLength += sequence.length;
    if (this.scratch.length < this.termText.length) {
      const grown = new Int32Array(Math.max(1024, this.termText.length * 2));
      grown.set(this.scratch);
      this.scratch = grown;
    }
    const unique: number[] = [];
    for (const termId of sequence) if (this.scratch[termId]!++ === 0) unique.push(termId);
    for (const termId of unique) {
      this.current(termId);
      const tf = this.scratch[termId]!;
      this.scratch[termId] = 0;
      const length = this.postLength[termId]!;
      if (length === this.postDocs[termId]!.length) {
        const docs = new Int32Array(length * 2);
        docs.set(this.postDocs[termId]!);
        const tfs = new Int32Array(length * 2);
        tfs.set(this.postTfs[termId]!);
        this.postDocs[termId] = docs;
        this.postTfs[termId] = tfs;
      }
      this.postDocs[termId]![length] = docNo;
      this.postTfs[termId]![length] = tf;
      this.postLength[termId] = length + 1;
      this.df[termId]!++;
      if (tf > this.maxTf[termId]!) this.maxTf[termId] = tf;
      if (sequence.length < this.minLength[termId]!) this.minLength[termId] = sequence.length;
    }
  }

  private compactPosting(termId: number): void {
    const docs = this.postDocs[termId]!;
    const tfs = this.postTfs[termId]!;
    let write = 0;
    for (let read = 0; read < this.postLength[termId]!; read++) {
      if (tfs[read]! > 0) {
        docs[write] = docs[read]!;
        tfs[write++] = tfs[read]!;
      }
    }
    this.postLength[termId] = write;
    this.postDead[termId] = 0;
  }

  /**
   * Copies the next slice of document slots into the compacted arrays; after the last one, switches
   * the index to the new numbers and leaves the posting lists and node map to `renumberStep`.
   */
  private compactStep(compaction: Compaction): void {
    const { remap } = compaction;
    const end = Math.min(this.docNode.length, remap.length + this.steps.slots);
    for (let docNo = remap.length; docNo < end; docNo++) {
      const terms = this.docTerms[docNo] ?? null;
      if (terms === null) {
        remap.push(-1);
        continue;
      }
      remap.push(compaction.docNode.length);
      compaction.docNode.push(this.docNode[docNo]!);
      compaction.docLength.push(this.docLength[docNo]!);
      compaction.docTerms.push(terms);
    }
    if (remap.length < this.docNode.length) return;
    this.compaction = null;
    this.docNode = compaction.docNode;
    this.docLength = compaction.docLength;
    this.docTerms = compaction.docTerms;
    const termCount = this.termText.length;
    const oldNodes = this.docOfNode;
    this.docOfNode = new ShardedMap(bigintShard);
    this.renumbering = { remap, pending: new Uint8Array(termCount).fill(1), termCount, nextTerm: 0, oldNodes, moving: oldNodes.entries() };
  }

  /** Moves a term's posting list to the new docNos (dropping dead entries) if it still holds old ones. */
  private current(termId: number): void {
    const state = this.renumbering;
    if (state === null || termId >= state.termCount || state.pending[termId] === 0) return;
    state.pending[termId] = 0;
    const docs = this.postDocs[termId]!;
    const tfs = this.postTfs[termId]!;
    let write = 0;
    let maxTf = 0;
    let minLength = Number.MAX_SAFE_INTEGER;
    for (let read = 0; read < this.postLength[termId]!; read++) {
      const tf = tfs[read]!;
      if (tf === 0) continue;
      const docNo = state.remap[docs[read]!]!;
      docs[write] = docNo;
      tfs[write++] = tf;
      if (tf > maxTf) maxTf = tf;
      minLength = Math.min(minLength, this.docLength[docNo]!);
    }
    this.postLength[termId] = write;
    this.postDead[termId] = 0;
    this.maxTf[termId] = maxTf;
    this.minLength[termId] = minLength;
  }

  /** One bounded step of the renumbering in progress: document slots, or some posting lists and node map entries. */
  private renumberStep(): void {
    if (this.compaction !== null) return this.compactStep(this.compaction);
    const state = this.renumbering;
    if (state === null) return;
    let postings = 0;
    while (state.nextTerm < state.termCount && postings < this.steps.postings) {
      const termId = state.nextTerm++;
      if (state.pending[termId] === 0) continue;
      postings += this.postLength[termId]! + 1;
      this.current(termId);
    }
    for (let moved = 0; moved < this.steps.nodes && state.oldNodes.size > 0; moved++) {
      const [nodeId, oldDocNo] = state.moving.next().value as [bigint, number];
      this.docOfNode.set(nodeId, state.remap[oldDocNo]!);
      state.oldNodes.delete(nodeId);
    }
    if (state.nextTerm === state.termCount && state.oldNodes.size === 0) this.renumbering = null;
  }

  scoring(): Bm25Collection {
    const n = this.size;
    return new Bm25Collection(n, n === 0 ? 0 : this.totalLength / n, this.params);
  }

  documentLength(docNo: number): number {
    return this.docLength[docNo]!;
  }

  termScores(term: string, scoring: Bm25Collection): Map<number, number> {
    return this.conjunction([term], scoring);
  }

  *termsWithPrefix(prefix: string): Iterable<string> {
    for (let id = 0; id < this.termText.length; id++)
      if (this.df[id]! > 0 && this.termText[id]!.startsWith(prefix)) yield this.termText[id]!;
  }

  /** MaxScore top-k over a disjunction of terms (a repeated term counts once per occurrence, as in Lucene). */
  private orTopK(termsText: readonly string[], k: number, filter?: (nodeId: bigint) => boolean): TextHit[] {
    const s = this.scoring();
    const ids = termsText.map((t) => this.termIdOf.get(t)).filter((id): id is number => id !== undefined && this.df[id]! > 0);
    for (const id of ids) this.current(id);
    const idf = ids.map((id) => s.idf(this.df[id]!));
    const bound = ids.map((id, i) => s.score(idf[i]!, this.maxTf[id]!, s.norm(this.minLength[id]!)));
    const order = ids.map((_, i) => i).sort((a, b) => bound[a]! - bound[b]!);
    const terms = order.map((i) => ids[i]!);
    const termIdf = order.map((i) => idf[i]!);
    const prefix: number[] = [];
    order.forEach((i, j) => (prefix[j] = (j > 0 ? prefix[j - 1]! : 0) + bound[i]!));
    const m = terms.length;
    const cursor = new Array<number>(m).fill(0);
    const heap = new HitHeap(k);
    let essential = 0;
    const slack = 1e-9;
    for (;;) {
      let doc = Number.MAX_SAFE_INTEGER;
      for (let i = essential; i < m; i++) {
        const t = terms[i]!;
        if (cursor[i]! < this.postLength[t]!) doc = Math.min(doc, this.postDocs[t]![cursor[i]!]!);
      }
      if (doc === Number.MAX_SAFE_INTEGER) break;
      const norm = s.norm(this.docLength[doc]!);
      let score = 0;
      for (let i = essential; i < m; i++) {
        const t = terms[i]!;
        if (cursor[i]! < this.postLength[t]! && this.postDocs[t]![cursor[i]!] === doc) {
          const tf = this.postTfs[t]![cursor[i]!]!;
          if (tf > 0) score += s.score(termIdf[i]!, tf, norm);
          cursor[i]!++;
        }
      }
      for (let i = essential - 1; i >= 0; i--) {
        if (score + prefix[i]! < heap.threshold - slack) break;
        const t = terms[i]!;
        cursor[i] = gallop(this.postDocs[t]!, this.postLength[t]!, cursor[i]!, doc);
        if (cursor[i]! < this.postLength[t]! && this.postDocs[t]![cursor[i]!] === doc) {
          const tf = this.postTfs[t]![cursor[i]!]!;
          if (tf > 0) score += s.score(termIdf[i]!, tf, norm);
        }
      }
      if (score > 0 && this.docTerms[doc] !== null) {
        const node = this.docNode[doc]!;
        if (filter === undefined || filter(node)) heap.push(score, node);
        if (heap.full) while (essential < m && prefix[essential]! < heap.threshold - slack) essential++;
      }
    }
    return heap.sorted();
  }

  /** Conjunction of terms: iterate the shortest list, gallop the others. */
  private andTopK(termsText: readonly string[], k: number, filter?: (nodeId: bigint) => boolean): TextHit[] {
    return rankScores(this.conjunction(termsText, this.scoring()), (docNo) => this.docNode[docNo]!, k, filter);
  }

  /** Documents containing every term, with their summed BM25. */
  private conjunction(termsText: readonly string[], s: Bm25Collection): Map<number, number> {
    const result = new Map<number, number>();
    const ids = termsText.map((t) => this.termIdOf.get(t));
    if (ids.length === 0 || ids.some((id) => id === undefined || this.df[id] === 0)) return result;
    const terms = (ids as number[]).sort((a, b) => this.df[a]! - this.df[b]!);
    for (const t of terms) this.current(t);
    const idf = terms.map((t) => s.idf(this.df[t]!));
    const cursor = new Array<number>(terms.length).fill(0);
    const lead = terms[0]!;
    for (let p = 0; p < this.postLength[lead]!; p++) {
      const tf0 = this.postTfs[lead]![p]!;
      if (tf0 === 0) continue;
      const doc = this.postDocs[lead]![p]!;
      const norm = s.norm(this.docLength[doc]!);
      let score = s.score(idf[0]!, tf0, norm);
      let all = true;
      for (let i = 1; i < terms.length && all; i++) {
        const t = terms[i]!;
        cursor[i] = gallop(this.postDocs[t]!, this.postLength[t]!, cursor[i]!, doc);
        const tf = cursor[i]! < this.postLength[t]! && this.postDocs[t]![cursor[i]!] === doc ? this.postTfs[t]![cursor[i]!]! : 0;
        if (tf === 0) all = false;
        else score += s.score(idf[i]!, tf, norm);
      }
      if (all) result.set(doc, score);
    }
    return result;
  }

  /** Consecutive occurrences, counted on the stored term sequences. */
  phraseFrequencies(termsText: readonly string[]): Map<number, number> {
    const result = new Map<number, number>();
    const ids = termsText.map((t) => this.termIdOf.get(t));
    if (ids.some((id) => id === undefined)) return result;
    for (const doc of this.conjunction([...new Set(termsText)], this.scoring()).keys()) {
      const sequence = this.docTerms[doc]!;
      let frequency = 0;
      for (let start = 0; start + ids.length <= sequence.length; start++) {
        let match = true;
        for (let j = 0; j < ids.length && match; j++) match = sequence[start + j] === ids[j];
        if (match) frequency++;
      }
      if (frequency > 0) result.set(doc, frequency);
    }
    return result;
  }
}
