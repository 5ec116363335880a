/**
 * What the runtime asks of the engine facade beyond one database's graph: the database list
 * (SHOW/CREATE/DROP DATABASE) and procedures (CALL).
 */
import type { CypherValue } from '../../values/types.js';
import type { ExecutionContext } from './execution-context.js';

/** One row of SHOW DATABASES. */
export interface DatabaseInfo {
  readonly name: string;
  readonly default: boolean;
  readonly status: 'online' | 'offline';
}

/** A procedure parameter or output field. */
export interface ProcedureField {
  readonly name: string;
  /** Cypher type text, e.g. `INTEGER?`, `STRING`, `ANY?`. */
  readonly type: string;
}

/** A callable procedure. */
export interface ProcedureDefinition {
  readonly name: string;
  readonly inputs: readonly ProcedureField[];
  readonly outputs: readonly ProcedureField[];
  /** `READ`, `WRITE`, `SCHEMA` or `DBMS`. */
  readonly mode: 'READ' | 'WRITE' | 'SCHEMA' | 'DBMS';
  /** Produces the output records for the given (already type-checked) arguments. */
  call(args: readonly CypherValue[], ctx: ExecutionContext): Iterable<ReadonlyMap<string, CypherValue>>;
}

/** Engine services available to a running statement. */
export interface AdminHooks {
  listDatabases(): readonly DatabaseInfo[];
  createDatabase(name: string, ifNotExists: boolean): void;
  dropDatabase(name: string, ifExists: boolean): void;
  /** The procedure called `name` (dotted, case-insensitive), or null. */
  procedure(name: string): ProcedureDefinition | null;
}
