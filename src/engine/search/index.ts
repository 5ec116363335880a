/**
 * The public search API (server/, procedures and the engine facade import from here).
 * See docs/search.md for the design and measurements.
 */
export { SearchManager, type SearchManagerOptions } from './search-manager.js';
export { DatabaseSearch, type DatabaseSearchOptions } from './database-search.js';
export type { DatabaseSearchStatus, SearchMethod, SearchPage, SearchRequest, SearchResultItem, SimilarRequest } from './search-types.js';
export { resolveIndexMaxBytes, searchSettingsFrom, type SearchServiceSettings } from './settings.js';
export type { SearchLogger } from './logger.js';
export type { TextHit } from './text/hits.js';
export { parseTextQuery, type TextQuery } from './text/query-parser.js';
export type { VectorHit, VectorStatus, VectorStrategy } from './vector/vector-collection.js';
export { loadVectorBackend, vectorBackend, type VectorBackend } from './vector/faiss.js';
export { vectorIndexDefinition, type VectorIndexDefinition } from './named-indexes.js';
export { createEmbeddingProvider } from './embeddings/factory.js';
export { EmbeddingProviderError, type EmbeddingProvider } from './embeddings/provider.js';
export type { EmbeddingCounters } from './embeddings/worker.js';
export { RerankStage, createReranker, type Reranker, type RerankState } from './rerank/reranker.js';
