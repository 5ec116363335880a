/** Request and response shapes of a database's search services (used by HTTP, GraphQL and procedures). */
import type { SearchMethod, SearchResultItem } from './hybrid/hybrid-search.js';

export type { SearchMethod, SearchResultItem };

/**
 * Nodes carrying this label stay out of the automatic BM25 and embedding indexes (archived
 * memories, docs/ai-memory.md); named FULLTEXT/VECTOR indexes still cover them.
 */
export const UNINDEXED_LABEL = 'Archived';

/** A hybrid search request (the HTTP/GraphQL `search` inputs). */
export interface SearchRequest {
  readonly query: string;
  /** Default 10. */
  readonly limit?: number;
  /** Only nodes carrying at least one of these labels. */
  readonly labels?: readonly string[];
  /** Default `hybrid`. */
  readonly method?: SearchMethod;
  /** Overrides `search.min_similarity` (cosine, -1..1 scale; results below are dropped from the vector list). */
  readonly minSimilarity?: number;
  readonly mmr?: boolean;
  readonly mmrLambda?: number;
  /** Default true: rerank when a reranker is configured and loaded. */
  readonly rerank?: boolean;
  /** Precomputed query embedding (skips the embedder). */
  readonly queryVector?: readonly number[];
}

/** A page of search results (`results`, `totalCount`, `executionTimeMs`). */
export interface SearchPage {
  readonly results: readonly SearchResultItem[];
  readonly totalCount: number;
  readonly executionTimeMs: number;
  readonly method: SearchMethod;
  readonly cached: boolean;
}

/** A `similar` request: by an existing node's vector or by an explicit vector. */
export interface SimilarRequest {
  readonly nodeId?: bigint;
  readonly vector?: readonly number[];
  readonly limit?: number;
  readonly labels?: readonly string[];
  readonly minSimilarity?: number;
}

/** Search readiness and counters of one database (`/admin/stats` `search`, `/status` `embeddings`). */
export interface DatabaseSearchStatus {
  readonly ready: boolean;
  readonly build_phase: string;
  readonly progress_pct: number;
  readonly strategy: string;
  readonly vectors: number;
  readonly text_documents: number;
  readonly embeddings: { readonly enabled: boolean; readonly provider: string; readonly model: string; readonly pending: number };
}
