/**
 * Runs one parsed statement against a reader (and writer): planning, mapping to physical
 * operators, and the execution context operators share.
 */
import type { ImportFiles } from '../files/import-files.js';
import type { GraphReader, GraphWriter } from '../storage/graph-store.js';
import type { CypherValue, EntityAccessor } from '../values/types.js';
import type { Statement } from '../cypher/ast/index.js';
import type { FunctionRegistry } from '../cypher/functions/registry.js';
import type { LogicalOperator } from '../cypher/planner/logical/logical-operator.js';
import type { StatementPlan } from '../cypher/planner/plan-statement.js';
import type { AdminHooks } from '../cypher/runtime/admin-hooks.js';
import { createCompileEnv } from '../cypher/runtime/compile-env.js';
import { accessorFor } from '../cypher/runtime/execution-context.js';
import type { ExecutionContext } from '../cypher/runtime/execution-context.js';
import { mapPlan } from '../cypher/runtime/map-plan.js';
import type { OperatorStats } from '../cypher/runtime/map-plan.js';
import { EMPTY_ROW } from '../cypher/runtime/row.js';
import type { RowStream } from '../cypher/runtime/row.js';
import { single } from '../cypher/runtime/operators/physical-operator.js';
import { cachedPlan } from './plan-cache.js';
import type { PlannedStatement } from './plan-cache.js';
import type { StatementClock } from '../cypher/runtime/statement-clock.js';
import { unlimitedTracker, type MemoryPool, type MemoryTracker } from '../cypher/memory/memory-tracker.js';
import { prepareNestedQuery, type NestedQuery } from '../cypher/runtime/nested-query.js';
import type { GraphSource } from '../cypher/runtime/graph-source.js';

/** Engine-wide services a statement uses. */
export interface EngineServices {
  readonly admin: AdminHooks;
  readonly functions: FunctionRegistry;
  readonly defaultTimeZone: string;
  /** File and URL access of statements (bound to the session's LOAD privilege per session). */
  readonly files: ImportFiles;
  /**
   * Admits a statement on a database under its query limits (max_concurrent_queries,
   * max_query_time through `clock`); returns the release to call when it ends. Throws a
   * transient error when the database is at its concurrency limit.
   */
  readonly admitQuery?: (database: string, clock: StatementClock) => () => void;
  /** Memory limits of statements: the server-wide pool and the per-transaction maximum. */
  readonly memory?: { readonly pool: MemoryPool; readonly transactionMax: number };
}

/** A statement ready to pull rows from. */
export interface Execution {
  readonly plan: StatementPlan;
  readonly ctx: ExecutionContext;
  readonly rows: RowStream;
  readonly profile: Map<LogicalOperator, OperatorStats> | null;
}

/** Plans a statement against the catalog `reader` sees (a cached plan when it is still valid). */
export function planFor(statement: Statement, reader: GraphReader, services: EngineServices): PlannedStatement {
  return cachedPlan(statement, reader, (name) => services.admin.procedures.plannerSignature(name));
}

function epochInstant(ms: number): { epochSecond: number; nano: number } {
  const epochSecond = Math.floor(ms / 1000);
  return { epochSecond, nano: Math.round((ms - epochSecond * 1000) * 1e6) };
}

/**
 * The execution context of one statement: a class, so starting a statement allocates one object
 * (methods live on the prototype). `reader`/`writer`/`accessor` are re-pointed between batches
 * of `CALL { } IN TRANSACTIONS`.
 */
class StatementContext implements ExecutionContext {
  accessor: EntityAccessor;
  readonly stats = { dbHits: 0 };
  readonly admin: AdminHooks;
  readonly defaultTimeZone: string;
  readonly files: ImportFiles;
  readonly memory: MemoryTracker;
  private readonly statementStart = Date.now();

  constructor(
    readonly database: string,
    public reader: GraphReader,
    public writer: GraphWriter | null,
    readonly parameters: ReadonlyMap<string, CypherValue>,
    readonly scheduler: StatementClock,
    services: EngineServices,
    private readonly transactionStart: number,
    readonly batchCommits: boolean,
    readonly graphs: GraphSource | undefined,
  ) {
    this.accessor = accessorFor(reader);
    this.admin = services.admin;
    this.defaultTimeZone = services.defaultTimeZone;
    this.files = services.files;
    this.memory = services.memory ? services.memory.pool.tracker(services.memory.transactionMax) : unlimitedTracker();
  }

  clock(kind: 'transaction' | 'statement' | 'realtime'): { epochSecond: number; nano: number } {
    return epochInstant(kind === 'realtime' ? Date.now() : kind === 'transaction' ? this.transactionStart : this.statementStart);
  }

  random(): number {
    return Math.random();
  }

  prepareNested(text: string, parameterNames: ReadonlySet<string>): NestedQuery {
    return prepareNestedQuery(this, text, parameterNames);
  }
}

/** Builds the execution context of one statement. */
export function createContext(
  database: string,
  reader: GraphReader,
  writer: GraphWriter | null,
  parameters: ReadonlyMap<string, CypherValue>,
  scheduler: StatementClock,
  services: EngineServices,
  transactionStart: number,
  batchCommits = false,
  graphs?: GraphSource,
): ExecutionContext {
  return new StatementContext(database, reader, writer, parameters, scheduler, services, transactionStart, batchCommits, graphs);
}

/**
 * Maps the plan to physical operators (or reuses those mapped for an earlier execution of the
 * same cached plan) and starts (lazily) pulling rows.
 */
export function execute(plan: StatementPlan | PlannedStatement, ctx: ExecutionContext, services: EngineServices): Execution {
  const profile = plan.explain === 'PROFILE' ? new Map<LogicalOperator, OperatorStats>() : null;
  const slot = 'slot' in plan && profile === null ? plan.slot : null;
  let physical = slot?.physical;
  if (!physical) {
    let nested = false;
    physical = mapPlan(
      plan.plan,
      createCompileEnv(plan.context, services.functions, () => (nested = true)),
      profile,
    );
    if (slot && slot.physical === undefined) slot.physical = nested ? null : physical;
  }
  return { plan, ctx, rows: physical(ctx, single(EMPTY_ROW)), profile };
}
