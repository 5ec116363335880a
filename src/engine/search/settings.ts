/** The configuration a database's search services read (sections of `GraphdbConfig`). */
import { getHeapStatistics } from 'node:v8';
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
  /**
   * `dbms.memory.search_index.max_size` resolved: estimated heap bytes of the automatic full-text
   * indexes of every database together (absent: half of the V8 heap limit).
   */
  readonly indexMaxBytes?: number;
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
    indexMaxBytes: resolveIndexMaxBytes(config.dbms.memory.search_index.max_size),
    modelsDir: config.resources.models_dir,
  };
}

/** `dbms.memory.search_index.max_size` in bytes: the setting, or half of the V8 heap limit when it is 0. */
export function resolveIndexMaxBytes(setting = 0): number {
  return setting > 0 ? setting : Math.floor(getHeapStatistics().heap_size_limit / 2);
}
