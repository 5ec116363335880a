/**
 * Runs the statements of one transactional request and renders each result in the Neo4j HTTP
 * format: `{columns, data: [{row, meta} | {graph}], stats?}`.
 */
import type { QueryParameters, ResultStream, ResultSummary, CypherValue } from '../../../engine/index.js';
import { graphJson, metaJson, rowJson } from '../json/values-out.js';
import type { ResponseWriter } from './response-writer.js';

/** Result formats a statement may ask for. */
export type ResultDataContent = 'row' | 'graph';

/** One statement of a request, validated and with parameters converted. */
export interface StatementRequest {
  readonly statement: string;
  readonly parameters: ReadonlyMap<string, CypherValue>;
  readonly resultDataContents: readonly ResultDataContent[];
  readonly includeStats: boolean;
}

/** Runs one statement in whatever context (auto-commit session or open transaction). */
export type StatementExecutor = (statement: string, parameters: QueryParameters) => Promise<ResultStream>;

const PULL_BATCH = 1000;

/** Neo4j's `stats` object of a result. */
export function statsJson(summary: ResultSummary): string {
  const c = summary.counters;
  return JSON.stringify({
    contains_updates: c.containsUpdates,
    nodes_created: c.nodesCreated,
    nodes_deleted: c.nodesDeleted,
    properties_set: c.propertiesSet,
    relationships_created: c.relationshipsCreated,
    relationship_deleted: c.relationshipsDeleted,
    labels_added: c.labelsAdded,
    labels_removed: c.labelsRemoved,
    indexes_added: c.indexesAdded,
    indexes_removed: c.indexesRemoved,
    constraints_added: c.constraintsAdded,
    constraints_removed: c.constraintsRemoved,
    contains_system_updates: c.systemUpdates > 0,
    system_updates: c.systemUpdates,
  });
}

function dataEntry(row: readonly CypherValue[], contents: readonly ResultDataContent[]): string {
  const parts: string[] = [];
  if (contents.includes('row')) {
    parts.push(`"row":[${row.map(rowJson).join(',')}]`, `"meta":[${row.map(metaJson).join(',')}]`);
  }
  if (contents.includes('graph')) parts.push(`"graph":${graphJson(row)}`);
  return `{${parts.join(',')}}`;
}

/**
 * Runs a statement to completion, writing its result into `out` as rows arrive (after a comma
 * unless it is the first result). On failure the partial result is taken back when nothing was
 * sent yet, or closed (`]}`) when the response is already streaming; the error is rethrown.
 */
export async function writeStatement(
  execute: StatementExecutor,
  request: StatementRequest,
  out: ResponseWriter,
  first: boolean,
): Promise<ResultSummary> {
  const stream = await execute(request.statement, request.parameters);
  const mark = out.mark();
  try {
    await out.write(`${first ? '' : ','}{"columns":${JSON.stringify(stream.keys)},"data":[`);
    let rows = 0;
    for (;;) {
      const { records, hasMore } = await stream.pull(PULL_BATCH);
      for (const record of records) await out.write(`${rows++ === 0 ? '' : ','}${dataEntry(record, request.resultDataContents)}`);
      if (!hasMore) break;
    }
  } catch (error) {
    if (!out.rollbackTo(mark)) await out.write(']}', false).catch(() => undefined);
    await stream.discard().catch(() => undefined);
    throw error;
  }
  const summary = stream.summary();
  let tail = ']';
  if (request.includeStats) tail += `,"stats":${statsJson(summary)}`;
  if (summary.notifications.length > 0) tail += `,"notifications":${JSON.stringify(summary.notifications)}`;
  await out.write(`${tail}}`, false);
  return summary;
}
