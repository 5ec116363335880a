/**
 * What the shell needs from a database connection, and its embedded implementation over a
 * GraphDB opened on a data directory.
 */
import type { GraphDB, DatabaseSession, ResultSummary, Transaction, CypherValue } from '../../engine/index.js';

/** A fully consumed statement result. */
export interface ShellResult {
  readonly keys: readonly string[];
  readonly records: readonly (readonly CypherValue[])[];
  readonly summary: ResultSummary;
}

/** A statement's result, read batch by batch as the database produces it. */
export interface ShellStream {
  readonly keys: readonly string[];
  /** The next records; `done` with the last (possibly empty) batch. */
  next(): Promise<ShellBatch>;
  /** The summary, once `next` reported `done`. */
  summary(): ResultSummary;
}

/** One batch of a ShellStream. */
export interface ShellBatch {
  readonly records: readonly (readonly CypherValue[])[];
  readonly done: boolean;
}

/** Reads a stream to its end. */
export async function collect(stream: ShellStream): Promise<ShellResult> {
  const records: (readonly CypherValue[])[] = [];
  for (;;) {
    const batch = await stream.next();
    for (const record of batch.records) records.push(record);
    if (batch.done) break;
  }
  return { keys: stream.keys, records, summary: stream.summary() };
}

/** Records pulled at a time from the engine (and the most a remote batch gathers). */
export const BATCH_ROWS = 1000;

/** Names offered by completion. */
export interface Vocabulary {
  readonly labels: readonly string[];
  readonly types: readonly string[];
  readonly propertyKeys: readonly string[];
  readonly procedures: readonly string[];
  readonly functions: readonly string[];
}

/** A connection the shell drives (embedded engine or remote server). */
export interface ShellClient {
  readonly database: string;
  readonly inTransaction: boolean;
  /** Runs a statement and reads its whole result. */
  run(query: string, parameters: ReadonlyMap<string, CypherValue>): Promise<ShellResult>;
  /** Runs a statement; its records are read as they are produced. */
  stream(query: string, parameters: ReadonlyMap<string, CypherValue>): Promise<ShellStream>;
  begin(): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  /** Switches database (fails inside an open transaction). */
  use(database: string): Promise<void>;
  vocabulary(): Promise<Vocabulary>;
  /** Terminates the statement now running (and its transaction); resolves when the request is sent. */
  cancel(): Promise<void>;
  close(): Promise<void>;
}

/** The shell over an in-process engine. */
export class EmbeddedClient implements ShellClient {
  private session: DatabaseSession;
  private tx: Transaction | null = null;

  constructor(
    private readonly db: GraphDB,
    database?: string,
  ) {
    this.session = db.session(database === undefined ? {} : { database });
  }

  get database(): string {
    return this.session.database;
  }

  get inTransaction(): boolean {
    return this.tx !== null && this.tx.isOpen;
  }

  async run(query: string, parameters: ReadonlyMap<string, CypherValue>): Promise<ShellResult> {
    return collect(await this.stream(query, parameters));
  }

  async stream(query: string, parameters: ReadonlyMap<string, CypherValue>): Promise<ShellStream> {
    const result = this.tx !== null ? await this.tx.run(query, parameters) : await this.session.run(query, parameters);
    return {
      keys: result.keys,
      next: async () => {
        const batch = await result.pull(BATCH_ROWS);
        return { records: batch.records, done: !batch.hasMore };
      },
      summary: () => result.summary(),
    };
  }

  async begin(): Promise<void> {
    if (this.inTransaction) throw new Error('There is already an open transaction');
    this.tx = await this.session.beginTransaction();
  }

  async commit(): Promise<void> {
    if (!this.inTransaction) throw new Error('There is no open transaction to commit');
    const tx = this.tx!;
    this.tx = null;
    await tx.commit();
  }

  async rollback(): Promise<void> {
    if (!this.inTransaction) throw new Error('There is no open transaction to rollback');
    const tx = this.tx!;
    this.tx = null;
    await tx.rollback();
  }

  async use(database: string): Promise<void> {
    if (this.inTransaction) throw new Error('There is an open transaction. You need to close it before switching database');
    this.db.databaseServices.require(database);
    await this.session.close();
    this.session = this.db.session({ database });
  }

  async vocabulary(): Promise<Vocabulary> {
    const { labels, relationshipTypes, propertyKeys } = this.db.databaseServices.vocabulary(this.database);
    return {
      labels,
      types: relationshipTypes,
      propertyKeys,
      procedures: this.db.procedures.list().map((p) => p.name),
      functions: this.db.functions.list().map((f) => f.name),
    };
  }

  async cancel(): Promise<void> {
    this.session.terminate();
  }

  async close(): Promise<void> {
    if (this.inTransaction) await this.tx!.rollback();
    await this.session.close();
  }
}
