/**
 * Running Cypher text from APOC entries inside the calling statement (see
 * `runtime/nested-query.ts`): prepared queries are cached per statement text for the statement's
 * lifetime, rows stream with the PAUSE signals that keep the event loop free.
 */
import type { CypherMap, CypherValue } from '../../../values/types.js';
import type { ExecutionContext } from '../../runtime/execution-context.js';
import type { NestedQuery } from '../../runtime/nested-query.js';
import { isSignal, type Row, type Signal } from '../../runtime/row.js';

const prepared = new WeakMap<ExecutionContext, Map<string, NestedQuery>>();

/** The prepared form of `text` for this statement (planned once per statement). */
export function nestedQuery(exec: ExecutionContext, text: string, parameterNames: Iterable<string>): NestedQuery {
  const names = [...parameterNames].sort();
  const key = `${names.join(',')}\u0000${text}`;
  let cache = prepared.get(exec);
  if (!cache) prepared.set(exec, (cache = new Map<string, NestedQuery>()));
  let query = cache.get(key);
  if (!query) cache.set(key, (query = exec.prepareNested(text, new Set(names))));
  return query;
}

/** Streams the rows of `text` run with `params` (signals interleaved). */
export function* streamCypher(
  exec: ExecutionContext,
  text: string,
  params: CypherMap = new Map(),
): Generator<Row | Signal, void, undefined> {
  const query = nestedQuery(exec, text, params.keys());
  for (const e of query.run(params)) {
    if (isSignal(e)) yield e;
    else {
      const row: Record<string, CypherValue> = {};
      for (const c of query.columns) row[c] = e[c] ?? null;
      yield row;
    }
  }
}

/** All rows of `text` (signals passed on to the caller's generator). */
export function* collectCypher(exec: ExecutionContext, text: string, params: CypherMap = new Map()): Generator<Signal, Row[], undefined> {
  const rows: Row[] = [];
  for (const e of streamCypher(exec, text, params)) {
    if (isSignal(e)) yield e;
    else rows.push(e);
  }
  return rows;
}

/** All rows of `text`, for functions (which cannot yield: PAUSE signals are dropped). */
export function cypherRows(exec: ExecutionContext, text: string, params: CypherMap = new Map()): Row[] {
  const rows: Row[] = [];
  for (const e of streamCypher(exec, text, params)) if (!isSignal(e)) rows.push(e);
  return rows;
}

/** A row as a MAP. */
export function rowMap(row: Row): CypherMap {
  return new Map<string, CypherValue>(Object.entries(row));
}
