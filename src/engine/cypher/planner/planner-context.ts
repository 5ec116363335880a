/**
 * State shared while planning one statement.
 *
 * Terminology:
 * - The *scope* is the ordered list of user variables bound at a point of the query.
 * - *Anonymous* variables get generated names starting with two spaces, which no user variable
 *   can have; they never reach a result.
 */
import type { GraphReader } from '../../storage/graph-store.js';
import type { LogicalOperator } from './logical/logical-operator.js';

/** Catalog access the planner uses: index lookup and counts. */
export type PlannerCatalog = Pick<GraphReader, 'findIndex' | 'countNodes' | 'countRelationships'>;

/** The parts of a procedure's signature the planner checks. */
export interface ProcedureSignature {
  readonly inputs: readonly string[];
  /** Inputs without a default (trailing inputs with defaults may be omitted); all when absent. */
  readonly required?: number;
  readonly outputs: readonly string[];
  /** WRITE and SCHEMA procedures make the statement an updating one (write transaction); READ when absent. */
  readonly mode?: 'READ' | 'WRITE' | 'SCHEMA' | 'DBMS';
}

/** Planning state for one statement. */
export class PlannerContext {
  /**
   * @param procedure input and output field names of a procedure (arity checks, `CALL p`,
   *   `YIELD *`); throws ProcedureNotFound for unknown names.
   * @param counter first anonymous-name number (a context that continues a cached plan starts
   *   after the names that plan already uses).
   */
  constructor(
    readonly catalog: PlannerCatalog,
    readonly procedure: (name: string) => ProcedureSignature,
    private counter = 0,
  ) {}

  /** The number the next anonymous name will get. */
  get nextAnonymous(): number {
    return this.counter;
  }

  /** A fresh anonymous variable name. */
  anon(prefix = 'anon'): string {
    return `  ${prefix}_${this.counter++}`;
  }
}

/** True for planner-generated names. */
export function isAnonymous(name: string): boolean {
  return name.startsWith('  ');
}

/** The plan built so far plus the variables in scope. */
export interface PlanState {
  readonly plan: LogicalOperator;
  readonly scope: readonly string[];
  /** True once an updating clause was planned (for Eager placement and query type). */
  readonly updated: boolean;
  /** True when rows came from reading the graph since the last write (Eager before writes). */
  readonly readGraph: boolean;
}

/** The leaf of a (sub)plan whose outer scope is `scope`. */
export function argument(scope: readonly string[]): LogicalOperator {
  return { op: 'Argument', variables: scope };
}
