/**
 * Small helpers shared by the execution tests: a temporary engine and query shortcuts.
 */
import { GraphDB } from '../../src/engine/index.js';
import type { CypherValue, QueryParameters, Session } from '../../src/engine/index.js';

/** Opens a GraphDB on a temporary directory (deleted by `close()`). */
export function openTestDb(options: { transactionTimeoutMs?: number } = {}): Promise<GraphDB> {
  return GraphDB.open(options);
}

/** Runs a query and returns every record as an object keyed by column. */
export async function rows(session: Session, query: string, parameters?: QueryParameters): Promise<Record<string, CypherValue>[]> {
  const result = await session.run(query, parameters);
  const { records } = await result.pull(-1);
  return records.map((record) => Object.fromEntries(result.keys.map((k, i) => [k, record[i] ?? null])));
}

/** Runs a query for its effects. */
export async function exec(session: Session, query: string, parameters?: QueryParameters): Promise<void> {
  await (await session.run(query, parameters)).discard();
}
