/**
 * The contract between the engine and every edge (Bolt, HTTP, GraphQL, CLI, embedded use).
 * Edges only ever see materialized values (`Node`, `Relationship`, `Path`, never refs).
 */
import type { CypherValue } from '../values/types.js';
import type { WriteCounters } from '../storage/graph-store.js';
import type { ClientInfo } from './transaction-registry.js';
import type { StatementAccess } from '../cypher/semantic/access-types.js';
import type { AsOf } from './temporal-reads.js';

/** Query parameters as they arrive from an edge, already converted to Cypher values. */
export type QueryParameters = ReadonlyMap<string, CypherValue> | Readonly<Record<string, CypherValue>>;

/** Access mode requested by the client (Bolt `mode`, driver `executeRead`). */
export type AccessMode = 'READ' | 'WRITE';

/** Who is running the query, resolved once per request by the server's auth layer. */
export interface SecurityContext {
  readonly username: string | null;
  readonly roles: readonly string[];
  /** Permission check for a statement kind on a database; throws Forbidden when denied. */
  authorize?(database: string, permission: Permission): void;
  /**
   * Neo4j's LOAD privilege (`LOAD ON ALL DATA`, `LOAD ON URL`, `LOAD ON CIDR`): asked with the
   * URL before LOAD CSV or a procedure opens a file or URL; throws Forbidden when denied.
   * Absent: loading is allowed (embedded use, or no privilege model installed).
   */
  authorizeLoad?(url: string): void;
  /** Privilege check of everything a statement reads and writes on a database; throws Forbidden when denied. */
  authorizeAccess?(database: string, access: StatementAccess): void;
}

/** Permission required by a statement (spec rule 6). */
export type Permission = 'read' | 'write' | 'delete' | 'schema' | 'admin';

/** Options for a transaction (auto-commit or explicit). */
export interface TransactionOptions {
  readonly mode?: AccessMode;
  /** Milliseconds; 0 or undefined uses the configured default. */
  readonly timeoutMs?: number;
  readonly metadata?: ReadonlyMap<string, CypherValue>;
  /** Bookmarks the transaction must observe before starting. */
  readonly bookmarks?: readonly string[];
  /**
   * Read the database as it was at this version or time (read-only); see
   * session/temporal-reads.ts. Absent: the metadata keys `graphdb.asOfVersion` / `graphdb.asOfTime` decide.
   */
  readonly asOf?: AsOf;
}

/** Neo4j summary query types: read, write, read-write, schema. */
export type QueryType = 'r' | 'w' | 'rw' | 's';

/** One operator of an EXPLAIN/PROFILE plan (shape of Neo4j's plan description). */
export interface PlanDescription {
  readonly operatorType: string;
  readonly identifiers: readonly string[];
  readonly arguments: Readonly<Record<string, CypherValue>>;
  readonly children: readonly PlanDescription[];
  /** PROFILE only. */
  readonly rows?: number;
  readonly dbHits?: number;
}

/** A notification (warning/information) attached to a result. */
export interface Notification {
  readonly code: string;
  readonly title: string;
  readonly description: string;
  readonly severity: 'WARNING' | 'INFORMATION';
  readonly position?: { readonly offset: number; readonly line: number; readonly column: number };
}

/** What a finished statement reports. */
export interface ResultSummary {
  readonly database: string;
  readonly queryType: QueryType;
  readonly counters: WriteCounters & { readonly systemUpdates: number; readonly containsUpdates: boolean };
  readonly plan?: PlanDescription;
  readonly profile?: PlanDescription;
  readonly notifications: readonly Notification[];
  /** Milliseconds until the first record was available, and until the last was consumed. */
  readonly resultAvailableAfter: number;
  readonly resultConsumedAfter: number;
}

/**
 * A statement's result, pulled in batches. Reads are produced lazily: `LIMIT 10` on a huge scan
 * costs ten rows. Writes in auto-commit run to completion before the first record.
 */
export interface ResultStream {
  readonly keys: readonly string[];
  /** Pulls up to `n` records (n < 0 means all). `hasMore` is false once exhausted. */
  pull(n: number): Promise<{ readonly records: readonly (readonly CypherValue[])[]; readonly hasMore: boolean }>;
  /** Drops remaining records and finishes the statement. */
  discard(): Promise<ResultSummary>;
  /** The summary; only valid once `hasMore` was false or `discard()` resolved. */
  summary(): ResultSummary;
  /** Bookmark of the commit, for auto-commit statements that wrote. */
  readonly bookmark?: string;
}

/** An explicit transaction. */
export interface Transaction {
  readonly id: string;
  run(query: string, parameters?: QueryParameters): Promise<ResultStream>;
  /** Commits; resolves to the new bookmark. */
  commit(): Promise<string>;
  rollback(): Promise<void>;
  readonly isOpen: boolean;
}

/** A logical connection to one database, like a driver session. */
export interface Session {
  readonly database: string;
  /** Auto-commit statement. */
  run(query: string, parameters?: QueryParameters, options?: TransactionOptions): Promise<ResultStream>;
  beginTransaction(options?: TransactionOptions): Promise<Transaction>;
  /** Bookmark of this session's last commit. */
  lastBookmark(): string | null;
  close(): Promise<void>;
}

/** Options to open a session. */
export interface SessionOptions {
  /** Database name; the default database when omitted. `USE` inside a query overrides it. */
  readonly database?: string;
  readonly security?: SecurityContext;
  readonly bookmarks?: readonly string[];
  /** Where the session's statements come from (SHOW TRANSACTIONS); embedded when omitted. */
  readonly client?: ClientInfo;
}
