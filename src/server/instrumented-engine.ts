/**
 * Query metrics for every edge: wraps an engine's sessions so each statement records
 * `graphdb_queries_total{type,status}` and `graphdb_query_duration_seconds{type}` once it has
 * finished (all records pulled, or discarded) or failed. HTTP and Bolt share this wrapper.
 */
import type { QueryParameters, ResultStream, Session, Transaction, TransactionOptions } from '../engine/session/types.js';
import type { ServerEngine } from './engine-port.js';
import { queryTypeLabel, type GraphdbMetrics } from './metrics.js';

function instrumentStream(stream: ResultStream, started: number, metrics: GraphdbMetrics): ResultStream {
  let recorded = false;
  const record = (status: 'success' | 'error', summaryType?: Parameters<typeof queryTypeLabel>[0]): void => {
    if (recorded) return;
    recorded = true;
    metrics.recordQuery(summaryType === undefined ? 'unknown' : queryTypeLabel(summaryType), status, (performance.now() - started) / 1000);
  };
  return {
    get keys() {
      return stream.keys;
    },
    get bookmark() {
      return stream.bookmark;
    },
    async pull(n: number) {
      try {
        const batch = await stream.pull(n);
        if (!batch.hasMore) record('success', stream.summary().queryType);
        return batch;
      } catch (error) {
        record('error');
        throw error;
      }
    },
    async discard() {
      try {
        const summary = await stream.discard();
        record('success', summary.queryType);
        return summary;
      } catch (error) {
        record('error');
        throw error;
      }
    },
    summary: () => stream.summary(),
  };
}

async function timed(metrics: GraphdbMetrics, run: () => Promise<ResultStream>): Promise<ResultStream> {
  const started = performance.now();
  try {
    return instrumentStream(await run(), started, metrics);
  } catch (error) {
    metrics.recordQuery('unknown', 'error', (performance.now() - started) / 1000);
    throw error;
  }
}

function instrumentTransaction(transaction: Transaction, metrics: GraphdbMetrics): Transaction {
  return {
    get id() {
      return transaction.id;
    },
    get isOpen() {
      return transaction.isOpen;
    },
    run: (query: string, parameters?: QueryParameters) => timed(metrics, () => transaction.run(query, parameters)),
    commit: () => transaction.commit(),
    rollback: () => transaction.rollback(),
  };
}

/** A session whose statements are counted and timed. */
export function instrumentSession(session: Session, metrics: GraphdbMetrics): Session {
  return {
    get database() {
      return session.database;
    },
    run: (query: string, parameters?: QueryParameters, options?: TransactionOptions) =>
      timed(metrics, () => session.run(query, parameters, options)),
    beginTransaction: async (options?: TransactionOptions) => instrumentTransaction(await session.beginTransaction(options), metrics),
    lastBookmark: () => session.lastBookmark(),
    close: () => session.close(),
  };
}

/** The engine with instrumented sessions. */
export function instrumentEngine(engine: ServerEngine, metrics: GraphdbMetrics): ServerEngine {
  return {
    session: (options) => instrumentSession(engine.session(options), metrics),
    hasDatabase: (name) => engine.hasDatabase(name),
    databaseFigures: () => engine.databaseFigures(),
  };
}
