/**
 * What the memory tools need from the edge: a Cypher runner with the caller's rights, the
 * database's search services, the decay clock.
 */
import type { SearchPage, SearchRequest } from '../search/index.js';
import type { CypherRunner } from './cypher-runner.js';

/** Label of memory nodes. */
export const MEMORY_LABEL = 'Memory';

/** What the tools need from a database's search services (`DatabaseSearch` has it). */
export interface MemorySearch {
  search(request: SearchRequest): Promise<SearchPage>;
  /** Non-null while the embedding worker runs (stored memories get embedded). */
  readonly embeddingWorker: unknown;
}

/** What the tools need from the edge: a Cypher runner with the caller's rights, search, a clock. */
export interface MemoryToolHost {
  readonly database: string;
  readonly cypher: CypherRunner;
  /** The database's search services, or null (remote or search disabled: a text match is used). */
  search(): MemorySearch | null;
  /** Epoch milliseconds; the decay clock. */
  now(): number;
  /** Default share of the decay score in `discover` ranking (0..1). */
  readonly decayWeight: number;
}
