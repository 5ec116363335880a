/**
 * Running one statement as a temporal read (session/temporal-reads.ts): evaluating the point a
 * `USE ... AT` clause names, and running a read on a history reader of that point. Shared by
 * auto-commit statements (engine-session.ts) and statements of explicit transactions
 * (engine-transaction.ts), so both give the same results.
 */
import type { Expression, Statement, Use } from '../cypher/ast/index.js';
import { print } from '../cypher/ast/printer.js';
import type { StatementClock } from '../cypher/runtime/statement-clock.js';
import type { DatabaseStore } from '../storage/database-store.js';
import type { CypherValue } from '../values/types.js';
import { authorizeStatement } from './authorize-statement.js';
import type { StatementResult } from './result-stream.js';
import { planFor, type EngineServices } from './statement-execution.js';
import { runPlanned, type Finisher } from './statement-runner.js';
import { asOfFromUse, openTemporalReader, temporalWriteRefused, type AsOf } from './temporal-reads.js';
import type { SecurityContext } from './types.js';

/** What running a temporal statement needs from its session or transaction. */
export interface TemporalRunContext {
  readonly services: EngineServices;
  readonly security: SecurityContext | undefined;
  compile(query: string, parameterNames: ReadonlySet<string>): Statement;
}

/** Evaluates an expression that depends only on parameters (`RETURN expr`, on a short snapshot). */
async function evaluateConstant(
  run: TemporalRunContext,
  expression: Expression,
  store: DatabaseStore,
  params: ReadonlyMap<string, CypherValue>,
  clock: StatementClock,
): Promise<CypherValue> {
  const statement = run.compile(`RETURN ${print(expression)} AS value`, new Set(params.keys()));
  const reader = store.beginRead();
  let result: StatementResult;
  try {
    const plan = planFor(statement, reader, run.services);
    const target = { database: store.name, reader, writer: null, transactionStart: Date.now() };
    result = await runPlanned(plan, target, params, clock, run.services, async () => reader.close());
  } catch (error) {
    reader.close();
    throw error;
  }
  const { records } = await result.pull(-1);
  return records[0]?.[0] ?? null;
}

/** The point `USE ... AT VERSION expr` / `AT TIME expr` names, its expression evaluated with the statement's parameters. */
export async function pointOfUse(
  run: TemporalRunContext,
  at: NonNullable<Use['at']>,
  store: DatabaseStore,
  params: ReadonlyMap<string, CypherValue>,
  clock: StatementClock,
): Promise<AsOf> {
  return asOfFromUse(at, await evaluateConstant(run, at.value, store, params, clock));
}

/**
 * Runs a read-only statement on a history reader of `store` at `asOf`; a statement that writes
 * (or an administration command) fails with the temporal write error. `finish` runs after the
 * reader closed.
 */
export async function runTemporalStatement(
  run: TemporalRunContext,
  statement: Statement,
  store: DatabaseStore,
  params: ReadonlyMap<string, CypherValue>,
  clock: StatementClock,
  asOf: AsOf,
  finish: Finisher,
): Promise<StatementResult> {
  const reader = openTemporalReader(store, asOf);
  let plan;
  try {
    authorizeStatement(run.security, store.name, statement, run.services.admin.procedures);
    plan = planFor(statement, reader, run.services);
    if (plan.admin || (plan.writes && plan.explain !== 'EXPLAIN')) throw temporalWriteRefused(asOf);
  } catch (error) {
    reader.close();
    throw error;
  }
  reader.onCancel((error) => clock.terminate(error.message, error.code));
  const target = { database: store.name, reader, writer: null, transactionStart: Date.now() };
  return runPlanned(plan, target, params, clock, run.services, async (error) => {
    reader.close();
    await finish(error);
  });
}
