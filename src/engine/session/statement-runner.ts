/**
 * Runs statements inside a storage transaction: shared by auto-commit statements and explicit
 * transactions, so both produce identical results.
 */
import type { GraphReader, GraphWriter, WriteCounters } from '../storage/graph-store.js';
import type { CypherValue } from '../values/types.js';
import type { Statement } from '../cypher/ast/index.js';
import { describePlan } from '../cypher/planner/print-plan.js';
import type { StatementPlan } from '../cypher/planner/plan-statement.js';
import { runAdminCommand } from '../cypher/runtime/operators/command-call.js';
import { COMMIT, isSignal } from '../cypher/runtime/row.js';
import { accessorFor } from '../cypher/runtime/execution-context.js';
import type { ExecutionContext } from '../cypher/runtime/execution-context.js';
import { StatusCodes, graphError } from '../errors/index.js';
import type { StatementClock } from '../cypher/runtime/statement-clock.js';
import { materialize } from './materialize.js';
import { estimateRowBytes } from '../cypher/memory/estimate.js';
import { StatementResult, ZERO_COUNTERS, counterDelta } from './result-stream.js';
import type { StatementResultOptions } from './result-stream.js';
import { createContext, execute } from './statement-execution.js';
import type { EngineServices, Execution } from './statement-execution.js';
import type { GraphSource } from '../cypher/runtime/graph-source.js';

/** The storage side of a statement run. */
export interface RunTarget {
  readonly database: string;
  readonly reader: GraphReader;
  readonly writer: GraphWriter | null;
  readonly transactionStart: number;
  /**
   * Commits the current write transaction and returns the next one (`CALL { } IN TRANSACTIONS`);
   * absent in explicit transactions, where such batching is refused.
   */
  readonly nextBatch?: () => Promise<GraphWriter>;
  /** Run reads to completion too (an explicit transaction with a write set: nothing stays open on the writer). */
  readonly runToCompletion?: boolean;
  /** The constituent graphs, when the statement runs on a composite database. */
  readonly graphs?: GraphSource;
}

/** How the statement ends: commit/close the transaction, or roll back on error. */
export type Finisher = (error: unknown) => Promise<void>;

function planDescriptions(
  plan: StatementPlan,
  execution: Execution | null,
): { plan?: ReturnType<typeof describePlan>; profile?: ReturnType<typeof describePlan> } {
  if (plan.explain === 'EXPLAIN') return { plan: describePlan(plan.plan) };
  if (plan.explain === 'PROFILE' && execution?.profile) {
    const profile = describePlan(plan.plan, execution.profile);
    return { plan: profile, profile };
  }
  return {};
}

function counterSum(a: WriteCounters, b: WriteCounters): WriteCounters {
  const out = { ...ZERO_COUNTERS };
  for (const key of Object.keys(out) as (keyof WriteCounters)[]) out[key] = a[key] + b[key];
  return out;
}

/** Points a running statement at the next batch's transaction. */
function rebind(ctx: ExecutionContext, writer: GraphWriter): void {
  const mutable = ctx as { -readonly [K in keyof ExecutionContext]: ExecutionContext[K] };
  mutable.reader = writer;
  mutable.writer = writer;
  mutable.accessor = accessorFor(writer);
}

/** The summary parts of a streaming read (it writes nothing). */
function describeRead(): { counters: WriteCounters } {
  return { counters: ZERO_COUNTERS };
}

/**
 * Runs an administration command (CREATE/DROP DATABASE, aliases, limits). With `execute` false it
 * only returns the command's empty result: an explicit transaction runs its commands at commit.
 */
export async function runAdmin(
  plan: StatementPlan,
  target: RunTarget,
  parameters: ReadonlyMap<string, CypherValue>,
  clock: StatementClock,
  services: EngineServices,
  finish: Finisher,
  execute = true,
): Promise<StatementResult> {
  const ctx = createContext(target.database, target.reader, null, parameters, clock, services, target.transactionStart);
  const startedAt = Date.now();
  const systemUpdates = execute && plan.plan.op === 'CommandCall' ? await runAdminCommand(plan.plan, ctx) : 0;
  return new StatementResult({
    keys: [],
    database: target.database,
    queryType: plan.queryType,
    rows: null,
    buffered: [],
    ctx,
    reader: null,
    startedAt,
    resultAvailableAfter: 0,
    finish,
    describe: () => ({ counters: ZERO_COUNTERS, systemUpdates }),
  });
}

/**
 * Runs a planned statement. Updating statements run to completion (rows buffered and
 * materialized) before this resolves; reads stream lazily from the returned result. The
 * statement holds a place under its database's query limits until it finishes.
 */
export async function runPlanned(
  plan: StatementPlan,
  target: RunTarget,
  parameters: ReadonlyMap<string, CypherValue>,
  clock: StatementClock,
  services: EngineServices,
  finish: Finisher,
  bookmark?: () => string | undefined,
): Promise<StatementResult> {
  const release = services.admitQuery?.(target.database, clock);
  if (release === undefined) return runStatement(plan, target, parameters, clock, services, finish, bookmark);
  try {
    return await runStatement(plan, target, parameters, clock, services, releasing(release, finish), bookmark);
  } catch (error) {
    release();
    throw error;
  }
}

/** A finisher that also gives back everything the statement charged to its memory tracker. */
function releasingMemory(ctx: ExecutionContext, finish: Finisher): Finisher {
  return async (error) => {
    try {
      await finish(error);
    } finally {
      ctx.memory.close();
    }
  };
}

/** A finisher that first gives the statement's place under its database's query limits back. */
function releasing(release: () => void, finish: Finisher): Finisher {
  return (error) => {
    release();
    return finish(error);
  };
}

/** Starts a statement: EXPLAIN and streaming reads return at once, the rest runs to completion. */
function runStatement(
  plan: StatementPlan,
  target: RunTarget,
  parameters: ReadonlyMap<string, CypherValue>,
  clock: StatementClock,
  services: EngineServices,
  finish: Finisher,
  bookmark?: () => string | undefined,
): Promise<StatementResult> | StatementResult {
  const startedAt = Date.now();
  const ctx = createContext(
    target.database,
    target.reader,
    target.writer,
    parameters,
    clock,
    services,
    target.transactionStart,
    target.nextBatch !== undefined,
    target.graphs,
  );
  finish = releasingMemory(ctx, finish);
  if (plan.explain === 'EXPLAIN') {
    return new StatementResult(resultOptions(plan, target, ctx, startedAt, null, [], 0, finish, describeExplain(plan)));
  }
  const execution = execute(plan, ctx, services);
  if (!plan.writes && plan.explain !== 'PROFILE' && target.runToCompletion !== true) {
    return new StatementResult(
      resultOptions(plan, target, ctx, startedAt, execution.rows, [], Date.now() - startedAt, finish, describeRead),
    );
  }
  return runToCompletion(plan, target, ctx, clock, execution, startedAt, finish, bookmark);
}

/** The summary parts of EXPLAIN (the plan, described when asked for). */
function describeExplain(plan: StatementPlan): StatementResultOptions['describe'] {
  return () => ({ counters: ZERO_COUNTERS, ...planDescriptions(plan, null) });
}

/** The options of a StatementResult (one object literal of a fixed shape). */
function resultOptions(
  plan: StatementPlan,
  target: RunTarget,
  ctx: ExecutionContext,
  startedAt: number,
  rows: StatementResultOptions['rows'],
  buffered: (readonly CypherValue[])[],
  resultAvailableAfter: number,
  finish: Finisher,
  describe: StatementResultOptions['describe'],
): StatementResultOptions {
  return {
    keys: plan.columns,
    database: target.database,
    queryType: plan.queryType,
    rows,
    buffered,
    ctx,
    reader: rows === null ? null : target.reader,
    startedAt,
    resultAvailableAfter,
    finish,
    describe,
  };
}

/** Runs an updating (or profiled) statement to the end, buffering its materialized rows. */
async function runToCompletion(
  plan: StatementPlan,
  target: RunTarget,
  ctx: ExecutionContext,
  clock: StatementClock,
  execution: Execution,
  startedAt: number,
  finish: Finisher,
  bookmark?: () => string | undefined,
): Promise<StatementResult> {
  let writer = target.writer;
  let before: WriteCounters = writer ? { ...writer.counters } : ZERO_COUNTERS;
  let committed: WriteCounters = ZERO_COUNTERS;
  const counters = (): WriteCounters => (writer ? counterSum(committed, counterDelta(writer.counters, before)) : ZERO_COUNTERS);
  const commitBatch = async (): Promise<void> => {
    if (!target.nextBatch) {
      throw graphError(
        StatusCodes.InvalidRequest,
        "A query with 'CALL { ... } IN TRANSACTIONS' can only be executed in an implicit transaction, but tried to execute in an explicit transaction.",
      );
    }
    committed = counters();
    writer = await target.nextBatch();
    before = { ...writer.counters };
    rebind(ctx, writer);
  };
  const buffered: (readonly CypherValue[])[] = [];
  try {
    for (let next = execution.rows.next(); !next.done; next = execution.rows.next()) {
      if (next.value === COMMIT) await commitBatch();
      if (isSignal(next.value)) {
        await clock.yieldTurn();
        continue;
      }
      const row = next.value;
      const values = plan.columns.map((k) => materialize(row[k] ?? null, ctx.reader));
      ctx.memory.charge(estimateRowBytes(values as unknown as Record<string, CypherValue>));
      buffered.push(values);
    }
  } catch (error) {
    await finish(error);
    throw error;
  }
  const finalCounters = counters();
  const described = { counters: finalCounters, ...planDescriptions(plan, execution) };
  await finish(null);
  const mark = bookmark?.();
  const options = resultOptions(
    plan,
    target,
    ctx,
    startedAt,
    null,
    buffered,
    Date.now() - startedAt,
    async () => {},
    () => described,
  );
  return new StatementResult(mark === undefined ? options : { ...options, bookmark: mark });
}

/** Re-exported for sessions: the parsed statement type. */
export type { Statement };
