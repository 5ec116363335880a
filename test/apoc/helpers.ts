/**
 * Helpers for the APOC tests: a temporary engine, and running a query either as an auto-commit
 * statement or inside an explicit transaction (the two must give the same results).
 */
import { GraphDB } from '../../src/engine/index.js';
import type { CypherValue, QueryParameters, Session } from '../../src/engine/index.js';

/** How a query runs. */
export type Mode = 'auto-commit' | 'explicit';

/** Both transaction modes, for tests that must hold in each. */
export const MODES: readonly Mode[] = ['auto-commit', 'explicit'];

/** Opens a GraphDB on a temporary directory (deleted by `close()`). */
export function openDb(): Promise<GraphDB> {
  return GraphDB.open({ search: false });
}

type Record_ = Record<string, CypherValue>;

async function collect(result: {
  keys: readonly string[];
  pull(n: number): Promise<{ records: readonly (readonly CypherValue[])[] }>;
}): Promise<Record_[]> {
  const { records } = await result.pull(-1);
  return records.map((record) => Object.fromEntries(result.keys.map((k, i) => [k, record[i] ?? null])));
}

/** Runs `query` in `mode` and returns its records as objects keyed by column. */
export async function run(session: Session, query: string, parameters?: QueryParameters, mode: Mode = 'auto-commit'): Promise<Record_[]> {
  if (mode === 'auto-commit') return collect(await session.run(query, parameters));
  const tx = await session.beginTransaction();
  try {
    const records = await collect(await tx.run(query, parameters));
    await tx.commit();
    return records;
  } catch (error) {
    if (tx.isOpen) await tx.rollback();
    throw error;
  }
}

/** The single value of a one-row, one-column query. */
export async function value(
  session: Session,
  query: string,
  parameters?: QueryParameters,
  mode: Mode = 'auto-commit',
): Promise<CypherValue> {
  const records = await run(session, query, parameters, mode);
  if (records.length !== 1) throw new Error(`expected one row, got ${records.length}`);
  const row = records[0];
  const keys = Object.keys(row);
  if (keys.length !== 1) throw new Error(`expected one column, got ${keys.join(', ')}`);
  return row[keys[0]]!;
}

/** A plain JS structure of a value (maps as objects, bigints kept) for deepEqual. */
export function plain(v: CypherValue): unknown {
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [k, plain(x as CypherValue)]));
  if (Array.isArray(v)) return v.map((x: CypherValue) => plain(x));
  return v;
}
