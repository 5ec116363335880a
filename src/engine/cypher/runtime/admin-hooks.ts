/**
 * What the runtime asks of the engine facade beyond one database's graph: the database list
 * (SHOW/CREATE/DROP DATABASE) and the procedure and function registries (CALL).
 */
import type { FunctionRegistry } from '../functions/registry.js';
import type { ProcedureRegistry } from '../procedures/registry.js';
import type { DatabaseDirectory } from '../../catalog/database-directory.js';
import type { TerminationOutcome, TransactionInfo } from '../../session/transaction-registry.js';
import type { SettingInfo } from '../../config/setting-rows.js';
import type { ChangeLog } from '../../storage/database-store.js';
import type { ListedVersion } from '../procedures/history-procedures.js';
import type { EmbeddingService } from '../procedures/genai-procedures.js';
import type { ApocScheduler } from '../procedures/apoc/scheduler.js';
import type { SecurityContext } from '../../session/types.js';
import type { SecurityAdmin } from './security-admin.js';
import type { VectorTopKSource } from './vector-top-k-source.js';

/** One row of SHOW DATABASES. */
export interface DatabaseInfo {
  readonly name: string;
  readonly default: boolean;
  readonly status: 'online' | 'offline';
  /** `composite` for a composite database (absent: `system` or `standard` by name). */
  readonly type?: 'composite';
  /** A composite's constituents (`composite.alias`), ordered. */
  readonly constituents?: readonly string[];
}

/** Engine services available to a running statement. */
export interface AdminHooks {
  listDatabases(): readonly DatabaseInfo[];
  createDatabase(name: string, ifNotExists: boolean): Promise<void>;
  dropDatabase(name: string, ifExists: boolean, cascadeAliases?: boolean): Promise<void>;
  /** Database aliases and per-database limits (CREATE/ALTER/DROP ALIAS, SET LIMIT, SHOW ALIASES/LIMITS). */
  readonly directory?: DatabaseDirectory;
  readonly procedures: ProcedureRegistry;
  readonly functions: FunctionRegistry;
  /** Background jobs of apoc.periodic.submit/repeat/countdown (absent: refused). */
  readonly apocScheduler?: ApocScheduler;
  /** SHOW/TERMINATE TRANSACTIONS, bound to the user running the statement (absent: not available). */
  readonly transactions?: TransactionAdmin;
  /** SHOW SETTINGS: the effective configuration, secrets redacted (absent: no configuration installed). */
  readonly settings?: () => readonly SettingInfo[];
  /** The user running the statement (`dbms.showCurrentUser`); absent in embedded use without security. */
  readonly currentUser?: { readonly username: string | null; readonly roles: readonly string[] };
  /** Whether the user running the statement has the admin permission (absent: embedded, full access). */
  readonly isAdmin?: () => boolean;
  /** Empties the compiled-query cache; returns how many entries it held (`db.clearQueryCaches`). */
  readonly clearQueryCaches?: () => number;
  /** The configured embedding provider (`genai.vector.encodeBatch`); null when none is configured. */
  readonly embeddings?: () => EmbeddingService | null;
  /** The retained versions of a node or relationship as a reader at `upTo` sees them (`db.temporal.*Versions`). */
  readonly entityVersions?: (database: string, kind: 'node' | 'relationship', id: bigint, upTo: bigint) => readonly ListedVersion[];
  /** Change data capture of a database (`db.cdc.*`). */
  readonly changeLog?: (database: string) => ChangeLog;
  /** Identity of this DBMS (`dbms.info`): the system database's id and when it was created. */
  readonly dbmsInfo?: () => { readonly id: string; readonly name: string; readonly creationDate: string };
  /** User, role and privilege administration for a session's user (absent: authentication is off). */
  readonly securityFor?: (security: SecurityContext | undefined) => SecurityAdmin | undefined;
  /** The same, bound to the user running the statement (set per session). */
  readonly security?: SecurityAdmin;
  /** The exact-kNN plan's candidate scans over VECTOR indexes (absent: search disabled, the plan runs row by row). */
  readonly exactVectorScan?: VectorTopKSource;
  /**
   * Why the FULLTEXT/VECTOR index `name` failed (released over `dbms.memory.search_index.max_size`),
   * or null when it is online (SHOW INDEXES `state` and `failureMessage`; absent: search disabled).
   */
  readonly searchIndexFailure?: (database: string, name: string) => string | null;
}

/** The running transactions as the user running the statement may see and terminate them. */
export interface TransactionAdmin {
  /** Visible transactions (only `ids` when given). */
  list(ids: readonly string[] | null): readonly TransactionInfo[];
  /** Terminates visible transactions; one outcome per distinct id. */
  terminate(ids: readonly string[]): readonly TerminationOutcome[];
}
