/**
 * What a GraphQL operation may do with the engine, for one database and one SecurityContext:
 * snapshot reads through the facade's read-only snapshot service
 * (`GraphDB.databaseServices.snapshot(db)`, after an explicit
 * `authorize(db, 'read')`), and every write as parameterised Cypher through an engine session,
 * so constraints, authorization per statement and post-commit change events apply as on Bolt.
 */
import {
  type GraphDB,
  type Permission,
  type QueryParameters,
  type SecurityContext,
  type Session,
  type SessionOptions,
  type Transaction,
  type GraphReader,
  type NodeRecord,
  type RelationshipRecord,
  Node,
  Relationship,
  type CypherValue,
} from '../../engine/index.js';

/** The parts of the engine facade GraphQL uses (sessions may come from the server's instrumented port). */
export interface GraphqlEngine extends Pick<GraphDB, 'databaseServices' | 'stats' | 'onChange' | 'defaultDatabase'> {
  session(options: SessionOptions): Session;
}

/** Rows of a Cypher statement. */
export interface StatementRows {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly CypherValue[])[];
}

/** Materializes a stored node (element id from the reader). */
export function nodeFromRecord(reader: GraphReader, record: NodeRecord): Node {
  return new Node(record.id, reader.nodeElementId(record.id), record.labels, record.properties);
}

/** Materializes a stored relationship. */
export function relationshipFromRecord(reader: GraphReader, record: RelationshipRecord): Relationship {
  return new Relationship(
    record.id,
    reader.relationshipElementId(record.id),
    record.type,
    record.startId,
    record.endId,
    reader.nodeElementId(record.startId),
    reader.nodeElementId(record.endId),
    record.properties,
  );
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

  /** Runs `read` on one committed snapshot. */
  read<T>(read: (reader: GraphReader) => T): T {
    const reader = this.engine.databaseServices.snapshot(this.database);
    try {
      return read(reader);
    } finally {
      reader.close();
    }
  }

  /** Like `read`, for a body that yields to the event loop: one snapshot stays open across its awaits. */
  async readAsync<T>(read: (reader: GraphReader) => Promise<T>): Promise<T> {
    const reader = this.engine.databaseServices.snapshot(this.database);
    try {
      return await read(reader);
    } finally {
      reader.close();
    }
  }

  /** The internal id of a node or relationship element id of this database, or null. */
  internalId(elementId: string, kind: 'node' | 'relationship'): bigint | null {
    const prefix = kind === 'node' ? '4:' : '5:';
    if (!elementId.startsWith(prefix)) return null;
    return this.read((reader) => reader.idFromElementId(elementId));
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
