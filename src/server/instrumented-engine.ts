/**
 * Query metrics for every edge: wraps an engine's sessions so each statement records
 * `graphdb_queries_total{type,status}` and `graphdb_query_duration_seconds{type}` once it has
 * finished (all records pulled, or discarded) or failed. HTTP and Bolt share this wrapper.
 *
 * The wrappers are classes, not object literals of closures: one is created per session and per
 * statement, and prototype methods cost nothing per instance.
 */
import type {
  QueryParameters,
  ResultStream,
  ResultSummary,
  Session,
  SessionOptions,
  Transaction,
  TransactionOptions,
} from '../engine/index.js';
import type { DatabaseFigures, ServerEngine } from './engine-port.js';
import type { GraphdbMetrics } from './metrics.js';
import { queryTypeLabel } from './query-labels.js';

type PullResult = Awaited<ReturnType<ResultStream['pull']>>;

/** A result stream that records its statement's outcome once. */
class InstrumentedStream implements ResultStream {
  private recorded = false;

  constructor(
    private readonly stream: ResultStream,
    private readonly started: number,
    private readonly metrics: GraphdbMetrics,
  ) {}

  get keys(): readonly string[] {
    return this.stream.keys;
  }

  get bookmark(): string | undefined {
    return this.stream.bookmark;
  }

  async pull(n: number): Promise<PullResult> {
    try {
      const batch = await this.stream.pull(n);
      if (!batch.hasMore) this.record('success', this.stream.summary());
      return batch;
    } catch (error) {
      this.record('error');
      throw error;
    }
  }

  async discard(): Promise<ResultSummary> {
    try {
      const summary = await this.stream.discard();
      this.record('success', summary);
      return summary;
    } catch (error) {
      this.record('error');
      throw error;
    }
  }

  summary(): ResultSummary {
    return this.stream.summary();
  }

  private record(status: 'success' | 'error', summary?: ResultSummary): void {
    if (this.recorded) return;
    this.recorded = true;
    const type = summary === undefined ? 'unknown' : queryTypeLabel(summary.queryType);
    this.metrics.recordQuery(type, status, (performance.now() - this.started) / 1000);
  }
}

/** Wraps a started statement's stream; a statement that fails to start counts as an error. */
async function timed(metrics: GraphdbMetrics, run: Promise<ResultStream>, started: number): Promise<ResultStream> {
  try {
    return new InstrumentedStream(await run, started, metrics);
  } catch (error) {
    metrics.recordQuery('unknown', 'error', (performance.now() - started) / 1000);
    throw error;
  }
}

class InstrumentedTransaction implements Transaction {
  constructor(
    private readonly transaction: Transaction,
    private readonly metrics: GraphdbMetrics,
  ) {}

  get id(): string {
    return this.transaction.id;
  }

  get isOpen(): boolean {
    return this.transaction.isOpen;
  }

  run(query: string, parameters?: QueryParameters): Promise<ResultStream> {
    const started = performance.now();
    let running: Promise<ResultStream>;
    try {
      running = this.transaction.run(query, parameters);
    } catch (error) {
      running = Promise.reject(error);
    }
    return timed(this.metrics, running, started);
  }

  commit(): Promise<string> {
    return this.transaction.commit();
  }

  rollback(): Promise<void> {
    return this.transaction.rollback();
  }
}

class InstrumentedSession implements Session {
  constructor(
    private readonly session: Session,
    private readonly metrics: GraphdbMetrics,
  ) {}

  get database(): string {
    return this.session.database;
  }

  run(query: string, parameters?: QueryParameters, options?: TransactionOptions): Promise<ResultStream> {
    const started = performance.now();
    let running: Promise<ResultStream>;
    try {
      running = this.session.run(query, parameters, options);
    } catch (error) {
      running = Promise.reject(error);
    }
    return timed(this.metrics, running, started);
  }

  async beginTransaction(options?: TransactionOptions): Promise<Transaction> {
    return new InstrumentedTransaction(await this.session.beginTransaction(options), this.metrics);
  }

  lastBookmark(): string | null {
    return this.session.lastBookmark();
  }

  close(): Promise<void> {
    return this.session.close();
  }
}

/** A session whose statements are counted and timed. */
export function instrumentSession(session: Session, metrics: GraphdbMetrics): Session {
  return new InstrumentedSession(session, metrics);
}

class InstrumentedEngine implements ServerEngine {
  constructor(
    private readonly engine: ServerEngine,
    private readonly metrics: GraphdbMetrics,
  ) {}

  session(options: SessionOptions): Session {
    return new InstrumentedSession(this.engine.session(options), this.metrics);
  }

  hasDatabase(name: string): boolean {
    return this.engine.hasDatabase(name);
  }

  isComposite(name: string): boolean {
    return this.engine.isComposite?.(name) === true;
  }

  constrainedTokens(database: string): ReadonlySet<string> {
    return this.engine.constrainedTokens?.(database) ?? new Set();
  }

  databaseFigures(): readonly DatabaseFigures[] {
    return this.engine.databaseFigures();
  }
}

/** The engine with instrumented sessions. */
export function instrumentEngine(engine: ServerEngine, metrics: GraphdbMetrics): ServerEngine {
  return new InstrumentedEngine(engine, metrics);
}
