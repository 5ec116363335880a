/**
 * graphdb's search code measured directly through its component APIs (src/engine/search): the
 * full-text InvertedIndex and the VectorCollection. This is the engine's own implementation, but
 * without Cypher, transactions or storage around it: labelled "component" in every result until
 * search is reachable through Cypher procedures.
 */
import type { TextQuery as BenchTextQuery } from '../gen/documents.js';
import type { ScoredDoc } from '../peers/bm25-reference.js';
import { engineModule, type EngineSource } from './engine-module.js';

/** Name used in results for the component-level adapter. */
export const GRAPHDB_SEARCH_COMPONENT = 'graphdb search (component)';

interface InvertedIndexLike {
  upsert(nodeId: bigint, text: string): void;
  search(query: unknown, limit: number): { nodeId: bigint; score: number }[];
}
interface VectorCollectionLike {
  upsert(nodeId: bigint, vector: ArrayLike<number>): void;
  buildNow(force?: boolean): Promise<void>;
  search(query: ArrayLike<number>, k: number, filter?: (nodeId: bigint) => boolean): { nodeId: bigint }[];
  exactSearch(prepared: Float32Array, k: number, filter?: (nodeId: bigint) => boolean): { nodeId: bigint }[];
  prepare(vector: ArrayLike<number>): Float32Array;
  status(): { strategy: string };
  close(): void;
}

/** graphdb's full-text index over the bench corpus (document i = node id i). */
export class ComponentTextIndex {
  constructor(
    readonly index: InvertedIndexLike,
    private readonly parse: (q: string) => unknown,
    /** Which implementation (the configured default engine when text-index.ts exists). */
    readonly engine: string,
  ) {}

  add(doc: number, text: string): void {
    this.index.upsert(BigInt(doc), text);
  }

  /** Top-k with Lucene syntax: `a OR b OR c` / `a AND b`. */
  search(q: BenchTextQuery, k: number): ScoredDoc[] {
    const parsed = this.parse(q.terms.join(q.mode === 'OR' ? ' OR ' : ' AND '));
    return this.index.search(parsed, k).map((h) => ({ doc: Number(h.nodeId), score: h.score }));
  }
}

/** graphdb's vector collection (cosine). */
export class ComponentVectors {
  constructor(readonly collection: VectorCollectionLike) {}

  search(query: Float32Array, k: number, filter?: (id: number) => boolean): number[] {
    const f = filter ? (id: bigint) => filter(Number(id)) : undefined;
    return this.collection.search(query, k, f).map((h) => Number(h.nodeId));
  }

  exact(query: Float32Array, k: number): number[] {
    return this.collection.exactSearch(this.collection.prepare(query), k).map((h) => Number(h.nodeId));
  }
}

async function load(source: EngineSource, path: string): Promise<Record<string, unknown> | string> {
  const url = engineModule(source, path);
  if (!url) return `${source}/${path} does not exist yet`;
  try {
    return (await import(url)) as Record<string, unknown>;
  } catch (e) {
    return `${source}/${path} failed to load: ${(e as Error).message.split('\n')[0]}`;
  }
}

/** The inputs of graphdb's `hybridSearch` the bench fills in. */
export interface HybridInputsLike {
  readonly query: string;
  readonly limit: number;
  readonly method: 'hybrid' | 'text' | 'vector';
  readonly text: unknown;
  readonly vectors: unknown;
  readonly queryVector: Float32Array | null;
  readonly minSimilarity: number;
  readonly mmr: boolean;
  readonly rerank: null;
  readonly documentText: (nodeId: bigint) => string;
}

/** graphdb's hybrid pipeline (RRF k=60 over BM25 and vector candidates). */
export type HybridSearch = (inputs: HybridInputsLike) => Promise<{ nodeId: bigint }[]>;

/** Factories for the component adapters, or reasons they are unavailable. */
export interface SearchComponents {
  readonly text: (() => ComponentTextIndex) | string;
  readonly vectors: ((dimensions: number) => ComponentVectors) | string;
  readonly hybrid: HybridSearch | string;
}

/** Loads the search components from the checkout. */
export async function probeSearchComponents(source: EngineSource): Promise<SearchComponents> {
  const textIndex = await load(source, 'engine/search/text/text-index');
  const inverted = await load(source, 'engine/search/text/inverted-index');
  const parser = await load(source, 'engine/search/text/query-parser');
  let text: SearchComponents['text'];
  if (typeof parser === 'string') text = parser;
  else if (typeof parser['parseTextQuery'] !== 'function') text = 'search/text exports no parseTextQuery';
  else if (typeof textIndex !== 'string' && typeof textIndex['createTextIndex'] === 'function') {
    const create = textIndex['createTextIndex'] as () => InvertedIndexLike;
    const parse = parser['parseTextQuery'] as (q: string) => unknown;
    text = () => new ComponentTextIndex(create(), parse, `createTextIndex() default engine (${create().constructor.name})`);
  } else if (typeof inverted !== 'string' && typeof inverted['InvertedIndex'] === 'function') {
    const Inverted = inverted['InvertedIndex'] as new () => InvertedIndexLike;
    const parse = parser['parseTextQuery'] as (q: string) => unknown;
    text = () => new ComponentTextIndex(new Inverted(), parse, 'InvertedIndex');
  } else text = typeof inverted === 'string' ? inverted : 'search/text exports no text index';
  const vectorModule = await load(source, 'engine/search/vector/vector-collection');
  let vectors: SearchComponents['vectors'];
  if (typeof vectorModule === 'string') vectors = vectorModule;
  else if (typeof vectorModule['VectorCollection'] !== 'function') vectors = 'search/vector exports no VectorCollection';
  else {
    const Collection = vectorModule['VectorCollection'] as new (o: { dimensions: number; similarity: string }) => VectorCollectionLike;
    vectors = (dimensions) => new ComponentVectors(new Collection({ dimensions, similarity: 'cosine' }));
  }
  const hybridModule = await load(source, 'engine/search/hybrid/hybrid-search');
  const hybrid: SearchComponents['hybrid'] =
    typeof hybridModule === 'string'
      ? hybridModule
      : typeof hybridModule['hybridSearch'] === 'function'
        ? (hybridModule['hybridSearch'] as HybridSearch)
        : 'search/hybrid exports no hybridSearch';
  return { text, vectors, hybrid };
}
