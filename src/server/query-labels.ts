/**
 * The `type` label of the query metrics, kept apart from `metrics.ts` so the statement wrappers
 * (`instrumented-engine.ts`) do not load prom-client where no metrics registry exists yet.
 */
import type { QueryType } from '../engine/index.js';

/** Query type label values (`graphdb_query_duration_seconds{type}`). */
export type QueryTypeLabel = 'read' | 'write' | 'read_write' | 'schema';

/** Maps a summary's query type to its metric label. */
export function queryTypeLabel(type: QueryType): QueryTypeLabel {
  switch (type) {
    case 'r':
      return 'read';
    case 'w':
      return 'write';
    case 'rw':
      return 'read_write';
    case 's':
      return 'schema';
  }
}
