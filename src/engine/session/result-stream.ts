/**
 * The ResultStream of one statement. Rows are pulled from the physical plan on demand; when an
 * operator emits PAUSE the stream yields the event loop (setImmediate) before continuing, so a
 * long statement never blocks other sessions for more than one time slice.
 */
import { setImmediate as yieldEventLoop } from 'node:timers/promises';
import type { GraphReader, WriteCounters } from '../storage/graph-store.js';
import type { CypherValue } from '../values/types.js';
import type { ExecutionContext } from '../cypher/runtime/execution-context.js';
import { isSignal } from '../cypher/runtime/row.js';
import type { Row, RowStream } from '../cypher/runtime/row.js';
import { materialize } from './materialize.js';
import { emptyCounters } from '../storage/tx-state.js';
import type { PlanDescription, QueryType, ResultStream, ResultSummary } from './types.js';

/** Counters of a statement that wrote nothing. */
export const ZERO_COUNTERS: WriteCounters = Object.freeze(emptyCounters());

/** Difference of two counter snapshots (the statement's own effects inside a transaction). */
export function counterDelta(after: WriteCounters, before: WriteCounters): WriteCounters {
  const out = { ...ZERO_COUNTERS };
  for (const key of Object.keys(out) as (keyof WriteCounters)[]) out[key] = after[key] - before[key];
  return out;
}

/** Everything a StatementResult needs. */
export interface StatementResultOptions {
  readonly keys: readonly string[];
  readonly database: string;
  readonly queryType: QueryType;
  /** Rows still to be produced (null when the statement ran to completion already). */
  readonly rows: RowStream | null;
  /** Already materialized records (statements that ran eagerly); the result takes the array over. */
  readonly buffered: (readonly CypherValue[])[];
  readonly ctx: ExecutionContext | null;
  readonly reader: GraphReader | null;
  readonly startedAt: number;
  readonly resultAvailableAfter: number;
  readonly bookmark?: string;
  /** Called once when the rows are exhausted or discarded (success) or on error. */
  readonly finish: (error: unknown) => Promise<void>;
  /** Counters and plan, computed when the statement finishes. */
  readonly describe: () => { counters: WriteCounters; systemUpdates?: number; plan?: PlanDescription; profile?: PlanDescription };
}

/** Pulls and materializes the rows of one statement. */
export class StatementResult implements ResultStream {
  readonly keys: readonly string[];
  readonly bookmark?: string;
  private done = false;
  private failed: { readonly error: unknown } | null = null;
  /** What `describe` returned when the statement completed, and when (summary built on demand). */
  private completion: { described: ReturnType<StatementResultOptions['describe']>; consumedAt: number } | null = null;
  private finalSummary: ResultSummary | null = null;
  private buffered: (readonly CypherValue[])[];

  constructor(private readonly options: StatementResultOptions) {
    this.keys = options.keys;
    this.buffered = options.buffered;
    if (options.bookmark !== undefined) this.bookmark = options.bookmark;
    if (options.rows === null) this.done = this.buffered.length === 0;
  }

  /** Converts an engine row to a record in key order. */
  private record(row: Row): CypherValue[] {
    const reader = this.options.reader;
    const keys = this.keys;
    const record = new Array<CypherValue>(keys.length);
    for (let i = 0; i < keys.length; i++) {
      const v = row[keys[i]!] ?? null;
      record[i] = reader !== null && v !== null && typeof v === 'object' ? materialize(v, reader) : v;
    }
    return record;
  }

  async pull(n: number): Promise<{ records: readonly (readonly CypherValue[])[]; hasMore: boolean }> {
    if (this.failed !== null) throw this.failed.error;
    const limit = n < 0 ? Infinity : n;
    let records: (readonly CypherValue[])[];
    if (this.buffered.length === 0) records = [];
    else if (limit >= this.buffered.length) {
      records = this.buffered;
      this.buffered = [];
    } else records = this.buffered.splice(0, limit);
    const rows = this.options.rows;
    if (rows && !this.done) {
      try {
        while (records.length < limit) {
          const next = rows.next();
          if (next.done) {
            this.done = true;
            break;
          }
          if (isSignal(next.value)) {
            await (this.options.ctx?.scheduler.yieldTurn() ?? yieldEventLoop());
            continue;
          }
          records.push(this.record(next.value));
        }
      } catch (error) {
        await this.fail(error);
        throw error;
      }
    }
    if (!rows && this.buffered.length === 0) this.done = true;
    if (this.done) await this.complete();
    return { records, hasMore: !this.done };
  }

  async discard(): Promise<ResultSummary> {
    if (this.failed !== null) throw this.failed.error;
    this.buffered = [];
    if (!this.done) {
      this.options.rows?.return(undefined);
      this.done = true;
    }
    await this.complete();
    return this.summary();
  }

  summary(): ResultSummary {
    if (this.finalSummary) return this.finalSummary;
    if (this.completion) {
      this.finalSummary = this.buildSummary(this.completion.described, this.completion.consumedAt);
      return this.finalSummary;
    }
    return this.buildSummary(this.options.describe(), Date.now());
  }

  /** Stops the statement with an error (used when its transaction is rolled back under it). */
  async fail(error: unknown): Promise<void> {
    if (this.failed !== null || this.completion !== null) return;
    this.failed = { error };
    this.done = true;
    await this.options.finish(error);
  }

  /** True once the statement finished (successfully or not). */
  get finished(): boolean {
    return this.completion !== null || this.failed !== null;
  }

  private async complete(): Promise<void> {
    if (this.completion !== null) return;
    const described = this.options.describe();
    await this.options.finish(null);
    this.completion = { described, consumedAt: Date.now() };
  }

  private buildSummary(
    described: { counters: WriteCounters; systemUpdates?: number; plan?: PlanDescription; profile?: PlanDescription },
    consumedAt: number,
  ): ResultSummary {
    const c = described.counters;
    const containsUpdates =
      c.nodesCreated +
        c.nodesDeleted +
        c.relationshipsCreated +
        c.relationshipsDeleted +
        c.propertiesSet +
        c.labelsAdded +
        c.labelsRemoved +
        c.indexesAdded +
        c.indexesRemoved +
        c.constraintsAdded +
        c.constraintsRemoved >
      0;
    return {
      database: this.options.database,
      queryType: this.options.queryType,
      counters: { ...c, systemUpdates: described.systemUpdates ?? 0, containsUpdates },
      ...(described.plan ? { plan: described.plan } : {}),
      ...(described.profile ? { profile: described.profile } : {}),
      notifications: [],
      resultAvailableAfter: this.options.resultAvailableAfter,
      resultConsumedAfter: consumedAt - this.options.startedAt,
    };
  }
}
