/**
 * What the runtime asks of the engine facade beyond one database's graph: the database list
 * (SHOW/CREATE/DROP DATABASE) and the procedure and function registries (CALL).
 */
import type { FunctionRegistry } from '../functions/registry.js';
import type { ProcedureRegistry } from '../procedures/registry.js';
import type { DatabaseDirectory } from '../../catalog/database-directory.js';

/** One row of SHOW DATABASES. */
export interface DatabaseInfo {
  readonly name: string;
  readonly default: boolean;
  readonly status: 'online' | 'offline';
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
}
