/**
 * apoc.cypher (run, doIt, runWrite, runMany, runSchema, runTimeboxed, runFirstColumn*), and the
 * conditional execution of apoc.when / apoc.case / apoc.do.when / apoc.do.case. Statements run
 * inside the calling statement's transaction; `params` entries are both `$name` parameters and,
 * as APOC does, variables bound by a leading `WITH $name AS name`.
 */
import type { CypherMap, CypherValue } from '../../../values/types.js';
import type { ExecutionContext } from '../../runtime/execution-context.js';
import { isSignal, type Signal } from '../../runtime/row.js';
import { executionOf, fn, illegalArgument, proc, type ApocContext, type ProcedureRows } from './define.js';
import { quoteName } from './merge.js';
import { cypherRows, nestedQuery, rowMap, streamCypher } from './run-cypher.js';
import { cfgBoolean, listArg, mapArg } from './values.js';
import { valueText } from '../../../values/to-string.js';

/** APOC's parameter mapping: `WITH $a AS a, ...` before the statement (unless it already starts with one of them). */
export function withParamMapping(statement: string, params: CypherMap): string {
  const keys = [...params.keys()];
  if (keys.length === 0) return statement;
  return `WITH ${keys.map((k) => `$${quoteName(k)} AS ${quoteName(k)}`).join(', ')} ${statement}`;
}

function* runStatement(exec: ExecutionContext, statement: CypherValue, params: CypherValue): ProcedureRows {
  const p = mapArg(params);
  for (const e of streamCypher(exec, withParamMapping(valueText(statement ?? ''), p), p)) yield isSignal(e) ? e : [rowMap(e)];
}

/** Splits a script on `;` outside strings, comments and backquotes. */
export function splitStatements(script: string): string[] {
  const out: string[] = [];
  let start = 0;
  let quote: string | null = null;
  for (let i = 0; i < script.length; i++) {
    const ch = script[i]!;
    if (quote !== null) {
      if (ch === '\\' && quote !== '`') i++;
      else if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"' || ch === '`') quote = ch;
    else if (ch === '/' && script[i + 1] === '/') i = script.indexOf('\n', i) < 0 ? script.length : script.indexOf('\n', i);
    else if (ch === ';') {
      out.push(script.slice(start, i));
      start = i + 1;
    }
  }
  out.push(script.slice(start));
  return out.map((s) => s.trim()).filter((s) => s !== '');
}

const STAT_KEYS = [
  'nodesCreated',
  'nodesDeleted',
  'relationshipsCreated',
  'relationshipsDeleted',
  'propertiesSet',
  'labelsAdded',
  'labelsRemoved',
  'indexesAdded',
  'indexesRemoved',
  'constraintsAdded',
  'constraintsRemoved',
] as const;

/** Write counters of the statement's writer (zero without one). */
export function counters(exec: ExecutionContext): Record<(typeof STAT_KEYS)[number], number> {
  const c = exec.writer?.counters;
  return Object.fromEntries(STAT_KEYS.map((k) => [k, c ? c[k] : 0])) as Record<(typeof STAT_KEYS)[number], number>;
}

/** The difference of two counter snapshots as APOC's statistics map. */
export function statsDelta(before: ReturnType<typeof counters>, after: ReturnType<typeof counters>): Map<string, CypherValue> {
  return new Map(STAT_KEYS.map((k) => [k, BigInt(after[k] - before[k])]));
}

function* runMany(c: ApocContext, script: CypherValue, params: CypherValue, config: CypherValue): ProcedureRows {
  const p = mapArg(params);
  const statistics = cfgBoolean(mapArg(config), 'statistics', true);
  for (const statement of splitStatements(valueText(script ?? ''))) {
    const before = counters(c.exec);
    const started = performance.now();
    let row = 0;
    for (const e of streamCypher(c.exec, statement, p)) {
      if (isSignal(e)) yield e;
      else yield [BigInt(row++), rowMap(e)];
    }
    if (statistics) {
      const stats = statsDelta(before, counters(c.exec));
      yield [
        -1n,
        new Map<string, CypherValue>([['rows', BigInt(row)], ['time', BigInt(Math.round(performance.now() - started))], ...stats]),
      ];
    }
  }
}

/** Runs `ifQuery` or `elseQuery`; an empty else query yields nothing (APOC: one empty row for when). */
function* conditional(c: ApocContext, query: CypherValue, params: CypherValue): ProcedureRows {
  if (query === null || valueText(query).trim() === '') {
    yield [new Map()];
    return;
  }
  yield* runStatement(c.exec, query, params);
}

function chooseCase(conditionals: CypherValue, elseQuery: CypherValue): CypherValue {
  const list = listArg(conditionals);
  if (list.length % 2 !== 0) throw illegalArgument('Conditionals must be an even-sized collection of boolean, query entries');
  for (let i = 0; i < list.length; i += 2) {
    if (typeof list[i] !== 'boolean') throw illegalArgument(`Conditional at index ${i} must be a boolean`);
    if (list[i] === true) return list[i + 1]!;
  }
  return elseQuery;
}

const WHEN = "condition :: BOOLEAN, ifQuery :: STRING, elseQuery = '' :: STRING, params = {} :: MAP";
const CASE = "conditionals :: LIST<ANY>, elseQuery = '' :: STRING, params = {} :: MAP";

function* timeboxed(
  c: ApocContext,
  statement: CypherValue,
  params: CypherValue,
  timeout: CypherValue,
): Generator<readonly CypherValue[] | Signal> {
  const deadline = performance.now() + Number(timeout ?? 0n);
  const p = mapArg(params);
  for (const e of streamCypher(c.exec, withParamMapping(valueText(statement ?? ''), p), p)) {
    if (performance.now() > deadline) return;
    yield isSignal(e) ? e : [rowMap(e)];
  }
}

/** The apoc.cypher, apoc.when/case and apoc.do procedures and functions. */
export const cypherEntries = [
  proc(
    'apoc.cypher.run(statement :: STRING, params :: MAP) :: (value :: MAP)',
    'READ',
    'Executes the given Cypher statement with the given parameters.',
    ([s, p], c) => runStatement(c.exec, s!, p!),
  ),
  proc(
    'apoc.cypher.doIt(statement :: STRING, params :: MAP) :: (value :: MAP)',
    'WRITE',
    'Executes a Cypher statement with the given parameters.',
    ([s, p], c) => runStatement(c.exec, s!, p!),
  ),
  proc(
    'apoc.cypher.runWrite(statement :: STRING, params :: MAP) :: (value :: MAP)',
    'WRITE',
    'Alias for `apoc.cypher.doIt`.',
    ([s, p], c) => runStatement(c.exec, s!, p!),
  ),
  proc(
    'apoc.cypher.runSchema(statement :: STRING, params :: MAP) :: (value :: MAP)',
    'SCHEMA',
    'Executes the given schema statement.',
    function* ([s, p], c) {
      const before = counters(c.exec);
      for (const e of streamCypher(c.exec, valueText(s ?? ''), mapArg(p))) if (isSignal(e)) yield e;
      yield [statsDelta(before, counters(c.exec))];
    },
  ),
  proc(
    'apoc.cypher.runMany(statement :: STRING, params :: MAP, config = {} :: MAP) :: (row :: INTEGER, result :: MAP)',
    'WRITE',
    'Runs each semicolon separated statement and returns a summary of the statement outcomes.',
    ([s, p, config], c) => runMany(c, s!, p!, config!),
  ),
  proc(
    'apoc.cypher.runManyReadOnly(statement :: STRING, params :: MAP, config = {} :: MAP) :: (row :: INTEGER, result :: MAP)',
    'READ',
    'Runs each semicolon separated read-only statement and returns a summary of the statement outcomes.',
    ([s, p, config], c) => runMany(c, s!, p!, config!),
  ),
  proc(
    'apoc.cypher.runTimeboxed(statement :: STRING, params :: MAP, timeout :: INTEGER, config = {} :: MAP) :: (value :: MAP)',
    'READ',
    'Terminates a Cypher statement if it has not finished before the set timeout (ms).',
    ([s, p, t], c) => timeboxed(c, s!, p!, t!),
  ),
  fn(
    'apoc.cypher.runFirstColumnMany(statement :: STRING, params :: MAP) :: LIST<ANY>',
    'Executes the given statement with the given parameters and returns the first column of each row.',
    ([s, p], ctx) => {
      const exec = executionOf(ctx);
      const params = mapArg(p);
      const query = nestedQuery(exec, withParamMapping(valueText(s ?? ''), params), params.keys());
      const column = query.columns[0];
      return column === undefined
        ? []
        : cypherRows(exec, withParamMapping(valueText(s ?? ''), params), params).map((row) => row[column] ?? null);
    },
  ),
  fn(
    'apoc.cypher.runFirstColumnSingle(statement :: STRING, params :: MAP) :: ANY',
    'Executes the given statement with the given parameters and returns the first element of the first column.',
    ([s, p], ctx) => {
      const exec = executionOf(ctx);
      const params = mapArg(p);
      const query = nestedQuery(exec, withParamMapping(valueText(s ?? ''), params), params.keys());
      const column = query.columns[0];
      const first = column === undefined ? undefined : cypherRows(exec, withParamMapping(valueText(s ?? ''), params), params)[0];
      return first === undefined || column === undefined ? null : (first[column] ?? null);
    },
  ),
  proc(
    `apoc.when(${WHEN}) :: (value :: MAP)`,
    'READ',
    'This procedure will run the read-only `ifQuery` if the conditional has evaluated to true, otherwise the `elseQuery` will run.',
    ([cond, ifQ, elseQ, p], c) => conditional(c, cond === true ? ifQ! : elseQ!, p!),
  ),
  proc(
    `apoc.do.when(${WHEN}) :: (value :: MAP)`,
    'WRITE',
    'Runs the given read/write `ifQuery` if the conditional has evaluated to true, otherwise the `elseQuery` will run.',
    ([cond, ifQ, elseQ, p], c) => conditional(c, cond === true ? ifQ! : elseQ!, p!),
  ),
  proc(
    `apoc.case(${CASE}) :: (value :: MAP)`,
    'READ',
    'For each pair of conditional and read-only queries in the given `LIST<ANY>`, this procedure will run the first query for which the conditional is evaluated to true. If none of the conditionals are true, the `ELSE` query will run instead.',
    ([conds, elseQ, p], c) => conditional(c, chooseCase(conds!, elseQ!), p!),
  ),
  proc(
    `apoc.do.case(${CASE}) :: (value :: MAP)`,
    'WRITE',
    'For each pair of conditional queries in the given `LIST<ANY>`, this procedure will run the first query for which the conditional is evaluated to true. If none of the conditionals are true, the `ELSE` query will run instead.',
    ([conds, elseQ, p], c) => conditional(c, chooseCase(conds!, elseQ!), p!),
  ),
];
