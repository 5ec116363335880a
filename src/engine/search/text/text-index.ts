/**
 * The full-text index contract and the engine switch (`GRAPHDB_SEARCH_BM25_ENGINE`):
 * `v2` (default) is CompactTextIndex (typed-array postings sorted by document, MaxScore top-k for
 * OR queries, galloping intersection for AND); `v1` is the simpler Map-based InvertedIndex.
 * Both score with the same BM25 and answer the same queries identically.
 */
import type { Bm25Params } from './bm25.js';
import { CompactTextIndex } from './compact-index.js';
import type { TextHit } from './hits.js';
import { InvertedIndex } from './inverted-index.js';
import type { TextQuery } from './query-parser.js';

/** A full-text index keyed by node id. */
export interface TextIndex {
  readonly size: number;
  has(nodeId: bigint): boolean;
  upsert(nodeId: bigint, text: string): void;
  remove(nodeId: bigint): boolean;
  clear(): void;
  nodeIds(): Iterable<bigint>;
  documentFrequency(term: string): number;
  /** Estimated heap bytes the index holds (`dbms.memory.search_index.max_size` counts it). */
  estimatedBytes(): number;
  search(query: TextQuery, limit: number, filter?: (nodeId: bigint) => boolean): TextHit[];
}

/** Creates the configured engine. */
export function createTextIndex(engine: 'v1' | 'v2' = 'v2', params?: Bm25Params): TextIndex {
  return engine === 'v1' ? new InvertedIndex(params) : new CompactTextIndex(params);
}
