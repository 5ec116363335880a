/**
 * apoc.periodic: iterate and commit run their work in batches, each batch in its own
 * transaction when the calling statement is an auto-commit one (a COMMIT signal after every
 * batch; in an explicit transaction the batches commit with it). A failing batch is rolled back
 * alone and reported (errorMessages, failedBatches, failedParams). submit/repeat/countdown run
 * on the engine's scheduler; list/cancel manage it; truncate empties the database in batches.
 */
import type { CypherMap, CypherValue } from '../../../values/types.js';
import { LockWaitRequired } from '../../../mvcc/entity-locks.js';
import { COMMIT, isSignal, type Row, type Signal } from '../../runtime/row.js';
import { apocFailure, proc, type ApocContext, type ProcedureRows } from './define.js';
import { counters, statsDelta, withParamMapping } from './cypher.js';
import { quoteName } from './merge.js';
import { nestedQuery, rowMap } from './run-cypher.js';
import type { ApocScheduler, JobInfo } from './scheduler.js';
import { cfgBoolean, cfgNumber, mapArg, mapOf } from './values.js';
import { valueText } from '../../../values/to-string.js';

interface BatchOutcome {
  ok: boolean;
  error: string | null;
}

/** Runs one batch of `text` under a savepoint: rolled back alone on failure, retried `retries` times. */
function* runBatch(
  c: ApocContext,
  text: string,
  params: CypherMap,
  retries: number,
  stats: { retries: number },
): Generator<Signal, BatchOutcome, undefined> {
  let lastError = '';
  for (let attempt = 0; attempt <= retries; attempt++) {
    const savepoint = c.writer().savepoint();
    try {
      for (const e of nestedQuery(c.exec, text, params.keys()).run(params)) if (isSignal(e)) yield e;
      savepoint.release();
      return { ok: true, error: null };
    } catch (error) {
      if (error instanceof LockWaitRequired) throw error; // the statement waits for the lock and runs again
      savepoint.rollbackTo();
      lastError = error instanceof Error ? error.message : String(error);
      if (attempt < retries) stats.retries++;
    }
  }
  return { ok: false, error: lastError };
}

function countError(errors: Map<string, CypherValue>, message: string, by: number): void {
  errors.set(message, ((errors.get(message) as bigint | undefined) ?? 0n) + BigInt(by));
}

function* iterate(c: ApocContext, iterateText: string, actionText: string, config: CypherMap): ProcedureRows {
  const started = Date.now();
  const batchSize = Math.max(1, cfgNumber(config, 'batchSize', 10000));
  const retries = Math.max(0, cfgNumber(config, 'retries', 0));
  const iterateList = cfgBoolean(config, 'iterateList', true);
  const failedParamsLimit = cfgNumber(config, 'failedParams', -1);
  const params = mapArg(config.get('params') ?? null);
  const source = nestedQuery(c.exec, iterateText, params.keys());
  const columns = source.columns;
  const bind = columns.map((col) => `_batch.${quoteName(col)} AS ${quoteName(col)}`).join(', ');
  const batchAction = iterateList
    ? `UNWIND $_batch AS _batch WITH ${bind} ${actionText}`
    : `WITH ${columns.map((col) => `$${quoteName(col)} AS ${quoteName(col)}`).join(', ')} ${actionText}`;
  const before = counters(c.exec);
  const totals = { batches: 0, total: 0, committed: 0, failed: 0, failedBatches: 0 };
  const stats = { retries: 0 };
  const errors = new Map<string, CypherValue>();
  const batchErrors = new Map<string, CypherValue>();
  const failedParams = new Map<string, CypherValue>();
  const accumulated = Object.fromEntries(Object.keys(before).map((k) => [k, 0])) as typeof before;
  let txStart = before;
  const accumulate = (): void => {
    const now = counters(c.exec);
    for (const k of Object.keys(now) as (keyof typeof now)[]) accumulated[k] += now[k] - txStart[k];
    txStart = now;
  };
  let batch: Row[] = [];

  function* flush(): Generator<Signal, void, undefined> {
    if (batch.length === 0) return;
    totals.batches++;
    const rows = batch.map((r) => rowMap(r));
    batch = [];
    let failures = 0;
    if (iterateList) {
      const outcome = yield* runBatch(
        c,
        batchAction,
        new Map([...params, ['_batch', rows], ['_count', BigInt(totals.batches - 1)]]),
        retries,
        stats,
      );
      if (!outcome.ok) {
        failures = rows.length;
        countError(errors, outcome.error!, rows.length);
        countError(batchErrors, outcome.error!, 1);
        if (failedParamsLimit !== 0)
          failedParams.set(String(totals.batches - 1), failedParamsLimit < 0 ? rows : rows.slice(0, failedParamsLimit));
      }
    } else {
      for (const row of rows) {
        const outcome = yield* runBatch(c, batchAction, new Map([...params, ...row]), retries, stats);
        if (!outcome.ok) {
          failures++;
          countError(errors, outcome.error!, 1);
        }
      }
      if (failures > 0) countError(batchErrors, 'failed operations in batch', 1);
    }
    totals.total += rows.length;
    totals.failed += failures;
    totals.committed += rows.length - failures;
    if (failures > 0) totals.failedBatches++;
    if (c.exec.batchCommits) {
      accumulate();
      yield COMMIT;
      txStart = counters(c.exec);
    }
  }

  for (const e of source.run(params)) {
    if (isSignal(e)) {
      yield e;
      continue;
    }
    const row: Record<string, CypherValue> = {};
    for (const col of columns) row[col] = e[col] ?? null;
    batch.push(row);
    if (batch.length >= batchSize) yield* flush();
  }
  yield* flush();
  accumulate();
  const zero = Object.fromEntries(Object.keys(accumulated).map((k) => [k, 0])) as typeof accumulated;
  const update = statsDelta(zero, accumulated);
  const batchMap = mapOf({
    total: BigInt(totals.batches),
    committed: BigInt(totals.batches - totals.failedBatches),
    failed: BigInt(totals.failedBatches),
    errors: batchErrors,
  });
  const operations = mapOf({ total: BigInt(totals.total), committed: BigInt(totals.committed), failed: BigInt(totals.failed), errors });
  yield [
    BigInt(totals.batches),
    BigInt(totals.total),
    BigInt(Math.round((Date.now() - started) / 1000)),
    BigInt(totals.committed),
    BigInt(totals.failed),
    BigInt(totals.failedBatches),
    BigInt(stats.retries),
    errors,
    batchMap,
    operations,
    false,
    failedParams,
    update,
  ];
}

function* commitLoop(c: ApocContext, statement: string, params: CypherMap): ProcedureRows {
  const started = Date.now();
  let updates = 0n;
  let executions = 0n;
  let failedBatches = 0n;
  const batchErrors = new Map<string, CypherValue>();
  const text = withParamMapping(statement, params);
  for (;;) {
    const savepoint = c.writer().savepoint();
    let first: CypherValue = null;
    try {
      const query = nestedQuery(c.exec, text, params.keys());
      for (const e of query.run(params)) {
        if (isSignal(e)) yield e;
        else if (first === null) first = e[query.columns[0] ?? ''] ?? null;
      }
      savepoint.release();
    } catch (error) {
      if (error instanceof LockWaitRequired) throw error; // the statement waits for the lock and runs again
      savepoint.rollbackTo();
      failedBatches++;
      countError(batchErrors, error instanceof Error ? error.message : String(error), 1);
      break;
    }
    executions++;
    const n = typeof first === 'bigint' ? first : typeof first === 'number' ? BigInt(Math.trunc(first)) : 0n;
    updates += n;
    if (c.exec.batchCommits) yield COMMIT;
    if (n <= 0n) break;
  }
  yield [
    updates,
    executions,
    BigInt(Math.round((Date.now() - started) / 1000)),
    executions,
    failedBatches,
    batchErrors,
    0n,
    new Map(),
    false,
  ];
}

function scheduler(c: ApocContext): ApocScheduler {
  const s = c.exec.admin.apocScheduler;
  if (!s) throw apocFailure('Background jobs are not available in this engine');
  return s;
}

function jobRow(job: JobInfo): CypherValue[] {
  return [job.name, BigInt(job.delay), BigInt(job.rate), job.done, job.cancelled];
}

const JOB_OUTPUTS = '(name :: STRING, delay :: INTEGER, rate :: INTEGER, done :: BOOLEAN, cancelled :: BOOLEAN)';

/** The apoc.periodic procedures. */
export const periodicEntries = [
  proc(
    'apoc.periodic.iterate(cypherIterate :: STRING, cypherAction :: STRING, config :: MAP) :: (batches :: INTEGER, total :: INTEGER, timeTaken :: INTEGER, committedOperations :: INTEGER, failedOperations :: INTEGER, failedBatches :: INTEGER, retries :: INTEGER, errorMessages :: MAP, batch :: MAP, operations :: MAP, wasTerminated :: BOOLEAN, failedParams :: MAP, updateStatistics :: MAP)',
    'WRITE',
    'Runs the second statement for each item returned by the first statement. This procedure returns the number of batches and the total number of processed rows.',
    ([it, action, config], c) => iterate(c, valueText(it ?? ''), valueText(action ?? ''), mapArg(config)),
  ),
  proc(
    'apoc.periodic.commit(statement :: STRING, params = {} :: MAP) :: (updates :: INTEGER, executions :: INTEGER, runtime :: INTEGER, batches :: INTEGER, failedBatches :: INTEGER, batchErrors :: MAP, failedCommits :: INTEGER, commitErrors :: MAP, wasTerminated :: BOOLEAN)',
    'WRITE',
    'Runs the given statement in separate batched transactions.',
    ([statement, params], c) => {
      if (!/\bLIMIT\b/i.test(valueText(statement ?? '')))
        throw apocFailure('the statement sent to apoc.periodic.commit must contain a `limit`');
      return commitLoop(c, valueText(statement), mapArg(params));
    },
  ),
  proc(
    `apoc.periodic.submit(name :: STRING, statement :: STRING, params = {} :: MAP) :: ${JOB_OUTPUTS}`,
    'WRITE',
    'Creates a background job which runs the given Cypher statement once.',
    function* ([name, statement, params], c) {
      yield jobRow(scheduler(c).submit(c.exec.database, valueText(name), valueText(statement), mapArg(params)));
    },
  ),
  proc(
    `apoc.periodic.repeat(name :: STRING, statement :: STRING, rate :: INTEGER, config = {} :: MAP) :: ${JOB_OUTPUTS}`,
    'WRITE',
    'Runs a repeatedly called background job. To stop this procedure, use `apoc.periodic.cancel`.',
    function* ([name, statement, rate, config], c) {
      yield jobRow(
        scheduler(c).repeat(
          c.exec.database,
          valueText(name),
          valueText(statement),
          Number(rate ?? 0n),
          mapArg(mapArg(config).get('params') ?? null),
        ),
      );
    },
  ),
  proc(
    `apoc.periodic.countdown(name :: STRING, statement :: STRING, delay :: INTEGER) :: ${JOB_OUTPUTS}`,
    'WRITE',
    'Runs a repeatedly called background statement until it returns 0.',
    function* ([name, statement, delay], c) {
      yield jobRow(scheduler(c).countdown(c.exec.database, valueText(name), valueText(statement), Number(delay ?? 0n)));
    },
  ),
  proc(`apoc.periodic.list() :: ${JOB_OUTPUTS}`, 'READ', 'Returns a `LIST<ANY>` of all background jobs.', function* (_args, c) {
    for (const job of scheduler(c).list()) yield jobRow(job);
  }),
  proc(`apoc.periodic.cancel(name :: STRING) :: ${JOB_OUTPUTS}`, 'READ', 'Cancels the given background job.', function* ([name], c) {
    const job = scheduler(c).cancel(valueText(name));
    if (job) yield jobRow(job);
  }),
  proc(
    'apoc.periodic.truncate(config = {} :: MAP) :: VOID',
    'SCHEMA',
    'Removes all entities (and optionally indexes and constraints) from the database using the `apoc.periodic.iterate` procedure.',
    function* ([config], c) {
      const cfg = mapArg(config);
      yield* iterate(
        c,
        'MATCH ()-[r]->() RETURN id(r) AS id',
        'MATCH ()-[r]->() WHERE id(r) = id DELETE r',
        new Map([['batchSize', cfg.get('batchSize') ?? 10000n]]),
      );
      yield* iterate(
        c,
        'MATCH (n) RETURN id(n) AS id',
        'MATCH (n) WHERE id(n) = id DETACH DELETE n',
        new Map([['batchSize', cfg.get('batchSize') ?? 10000n]]),
      );
      if (cfgBoolean(cfg, 'dropSchema', true)) {
        const writer = c.writer();
        for (const constraint of writer.constraints()) writer.dropConstraint(constraint.name, true);
        for (const index of writer.indexes()) if (index.type !== 'LOOKUP') writer.dropIndex(index.name, true);
      }
    },
  ),
];
