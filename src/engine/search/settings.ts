/** The configuration a database's search services read (sections of `GraphdbConfig`). */
import type { GraphdbConfig } from '../config/types.js';

/** Search-related configuration sections plus process-wide paths. */
export interface SearchServiceSettings {
  readonly search: GraphdbConfig['search'];
  readonly vector: GraphdbConfig['vector'];
  readonly embeddings: GraphdbConfig['embeddings'];
  readonly embeddingWorker: GraphdbConfig['embedding_worker'];
  readonly rerank: GraphdbConfig['search_rerank'];
  /** `database.persist_search_indexes`. */
  readonly persistIndexes: boolean;
  /** `GRAPHDB_MODELS_DIR`. */
  readonly modelsDir: string;
}

/** Picks the search sections out of a full configuration. */
export function searchSettingsFrom(config: GraphdbConfig): SearchServiceSettings {
  return {
    search: config.search,
    vector: config.vector,
    embeddings: config.embeddings,
    embeddingWorker: config.embedding_worker,
    rerank: config.search_rerank,
    persistIndexes: config.database.persist_search_indexes,
    modelsDir: config.resources.models_dir,
  };
}
