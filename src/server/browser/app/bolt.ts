/**
 * The Bolt side of the app: neo4j-driver's browser build over WebSocket to the server's Bolt
 * listener, authenticated with the session's JWT (`bearer`), as a browser client of a Neo4j
 * server connects. Every query the user runs carries transaction metadata naming its run, so a
 * cancel can find it with SHOW TRANSACTIONS and end it with TERMINATE TRANSACTIONS.
 */
import neo4j, { type Driver, type QueryResult, type RecordShape } from 'neo4j-driver';
import type { Principal, ServerInfo } from './api.js';

/** One finished statement. */
export interface StatementResult {
  readonly keys: readonly string[];
  readonly result: QueryResult<RecordShape>;
  readonly ms: number;
}

const APP_NAME = 'graphdb-browser';
let runCounter = 0;

/** A fresh id for the metadata of one run. */
export function newRunId(): string {
  runCounter += 1;
  return `${Date.now().toString(36)}-${runCounter}-${Math.random().toString(36).slice(2, 8)}`;
}

/** The Bolt URL of the server this page came from. */
export function boltUrl(info: ServerInfo): string {
  if (info.bolt === null) throw new Error('The server has no Bolt listener (server.bolt_enabled is false).');
  const secure = location.protocol === 'https:' || info.bolt.encrypted;
  const host = location.hostname.includes(':') ? `[${location.hostname}]` : location.hostname;
  return `${secure ? 'bolt+s' : 'bolt'}://${host}:${info.bolt.port}`;
}

/** The driver of one logged-in principal. */
export class Bolt {
  readonly driver: Driver;

  constructor(info: ServerInfo, principal: Principal) {
    const auth = principal.token === null ? neo4j.auth.basic('', '') : neo4j.auth.bearer(principal.token);
    this.driver = neo4j.driver(boltUrl(info), auth, {
      userAgent: `${APP_NAME}/${info.version}`,
      maxConnectionPoolSize: 8,
      connectionAcquisitionTimeout: 30_000,
      logging: { level: 'error', logger: () => undefined },
    });
  }

  /** Runs one statement in an auto-commit transaction on `database`. */
  async run(database: string, query: string, parameters: Record<string, unknown> = {}, runId = newRunId()): Promise<StatementResult> {
    const session = this.driver.session({ database, defaultAccessMode: neo4j.session.WRITE });
    const started = performance.now();
    try {
      const pending = session.run(query, parameters, { metadata: { app: APP_NAME, runId } });
      const keys = await pending.keys();
      const result = await pending;
      return { keys, result, ms: performance.now() - started };
    } finally {
      await session.close();
    }
  }

  /** The rows of a statement as plain objects keyed by column. */
  async rows(database: string, query: string, parameters: Record<string, unknown> = {}): Promise<Record<string, unknown>[]> {
    const { result } = await this.run(database, query, parameters);
    return result.records.map((record) => record.toObject());
  }

  /** Terminates the transaction of a run started with `runId` (no-op when it already ended). */
  async cancel(database: string, runId: string): Promise<number> {
    const found = await this.rows(
      database,
      'SHOW TRANSACTIONS YIELD transactionId, metaData WHERE metaData.runId = $runId RETURN transactionId',
      { runId },
    );
    const ids = found.map((row) => row.transactionId as string);
    if (ids.length > 0) await this.run(database, 'TERMINATE TRANSACTIONS $ids', { ids });
    return ids.length;
  }

  async close(): Promise<void> {
    await this.driver.close();
  }
}
