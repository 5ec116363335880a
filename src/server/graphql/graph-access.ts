/**
 * What a GraphQL operation may do with the engine, for one database and one SecurityContext:
 * every read and write is parameterised Cypher through an engine session (graph-reads.ts for the
 * reads), so authorization per statement, time slicing, constraints and post-commit change
 * events apply as on Bolt; the facade's typed services answer element ids, figures and search.
 */
import {
  type GraphDB,
  type Permission,
  type QueryParameters,
  type SecurityContext,
  type Session,
  type SessionOptions,
  type Transaction,
  type CypherValue,
} from '../../engine/index.js';

/** The parts of the engine facade GraphQL uses (sessions may come from the server's instrumented port). */
export interface GraphqlEngine extends Pick<GraphDB, 'databaseServices' | 'stats' | 'onChange' | 'defaultDatabase' | 'search'> {
  session(options: SessionOptions): Session;
  /** False when the engine runs without search services (`search`, `similar` are then unavailable). */
  readonly searchEnabled: boolean;
}

/** Rows of a Cypher statement. */
export interface StatementRows {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly CypherValue[])[];
}

/** Engine access of one GraphQL operation. */
export class GraphAccess {
  constructor(
    readonly engine: GraphqlEngine,
    readonly database: string,
    readonly security: SecurityContext,
  ) {}

  /** Throws Forbidden when the principal lacks `permission` on the database. */
  authorize(permission: Permission): void {
    this.security.authorize?.(this.database, permission);
  }

  /** The internal id of a node or relationship element id of this database, or null. */
  internalId(elementId: string, kind: 'node' | 'relationship'): bigint | null {
    return this.engine.databaseServices.idOfElementId(this.database, elementId, kind);
  }

  /** Runs one auto-commit statement and returns all its rows. */
  async run(statement: string, parameters: QueryParameters = {}): Promise<StatementRows> {
    const session = this.engine.session({ database: this.database, security: this.security });
    try {
      const result = await session.run(statement, parameters);
      const { records } = await result.pull(-1);
      return { columns: result.keys, rows: records };
    } finally {
      await session.close();
    }
  }

  /** Runs `work` in one explicit transaction: committed when it resolves, rolled back when it throws. */
  async transaction<T>(work: (run: (statement: string, parameters?: QueryParameters) => Promise<StatementRows>) => Promise<T>): Promise<T> {
    const session = this.engine.session({ database: this.database, security: this.security });
    let transaction: Transaction | null = null;
    try {
      transaction = await session.beginTransaction();
      const open = transaction;
      const value = await work(async (statement, parameters = {}) => {
        const result = await open.run(statement, parameters);
        const { records } = await result.pull(-1);
        return { columns: result.keys, rows: records };
      });
      await open.commit();
      return value;
    } catch (error) {
      if (transaction?.isOpen) await transaction.rollback();
      throw error;
    } finally {
      await session.close();
    }
  }
}

/** Quotes a label, type or property key as a Cypher identifier (backticks doubled). */
export function quoteIdentifier(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}
