/**
 * Token dictionaries: labels, relationship types and property keys get small integer ids that
 * the store uses in rows, indexes and encoded property records.
 *
 * A dictionary is shared by every transaction of a database. Tokens created by a write
 * transaction are written to SQLite in that transaction and remembered as *pending*, so a
 * rollback (of the transaction or of a savepoint) removes them from memory too.
 */
import { invariant } from '../errors/index.js';
import type { Connection } from '../storage/sqlite/connection.js';

/** Which dictionary table. */
export type TokenKind = 'label' | 'type' | 'key';

const TABLES: Record<TokenKind, string> = {
  label: 'label_tokens',
  type: 'type_tokens',
  key: 'key_tokens',
};

/** One dictionary (name <-> id). */
export class TokenDictionary {
  private readonly ids = new Map<string, number>();
  private readonly names: string[] = [];
  private readonly pending: number[] = [];
  private readonly insertSql: string;

  constructor(readonly kind: TokenKind) {
    this.insertSql = `INSERT INTO ${TABLES[kind]} (id, name) VALUES (?, ?)`;
  }

  /** Loads every committed token through `connection`. */
  load(connection: Connection): void {
    this.ids.clear();
    this.names.length = 0;
    this.pending.length = 0;
    const rows = connection.raw(`SELECT id, name FROM ${TABLES[this.kind]} ORDER BY id`).all() as [bigint, string][];
    for (const [id, name] of rows) {
      this.ids.set(name, Number(id));
      this.names[Number(id)] = name;
    }
  }

  /** The id of `name`, or undefined if no such token exists. */
  idOf(name: string): number | undefined {
    return this.ids.get(name);
  }

  /** The name of a token id. */
  nameOf(id: number): string {
    const name = this.names[id];
    invariant(name !== undefined, `unknown ${this.kind} token ${id}`);
    return name;
  }

  /** The id of `name`, creating the token through the writer connection if needed. */
  getOrCreate(name: string, writer: Connection): number {
    const existing = this.ids.get(name);
    if (existing !== undefined) return existing;
    const id = this.names.length;
    writer.stmt(this.insertSql).run(BigInt(id), name);
    this.ids.set(name, id);
    this.names[id] = name;
    this.pending.push(id);
    return id;
  }

  /** Marks the pending tokens as committed. */
  commit(): void {
    this.pending.length = 0;
  }

  /** Number of pending tokens, a mark for `rollbackTo`. */
  mark(): number {
    return this.pending.length;
  }

  /** Forgets tokens created after `mark` (0 forgets every pending token). */
  rollbackTo(mark: number): void {
    while (this.pending.length > mark) {
      const id = this.pending.pop()!;
      const name = this.names[id]!;
      this.ids.delete(name);
      this.names.length = id;
    }
  }

  /** Every token name, by id. */
  allNames(): readonly string[] {
    return this.names.filter((n) => n !== undefined);
  }
}

/** The three dictionaries of one database. */
export class Tokens {
  readonly labels = new TokenDictionary('label');
  readonly types = new TokenDictionary('type');
  readonly keys = new TokenDictionary('key');

  load(connection: Connection): void {
    this.labels.load(connection);
    this.types.load(connection);
    this.keys.load(connection);
  }

  commit(): void {
    this.labels.commit();
    this.types.commit();
    this.keys.commit();
  }

  mark(): [number, number, number] {
    return [this.labels.mark(), this.types.mark(), this.keys.mark()];
  }

  rollbackTo(mark: readonly [number, number, number]): void {
    this.labels.rollbackTo(mark[0]);
    this.types.rollbackTo(mark[1]);
    this.keys.rollbackTo(mark[2]);
  }
}
