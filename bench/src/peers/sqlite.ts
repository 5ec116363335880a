/**
 * The storage limit: the same work graphdb's storage does, hand-written on better-sqlite3 with
 * prepared statements: an indexed email lookup, edge rows with covering indexes both ways, a
 * covering (city, age) index for aggregation. The same pragmas as graphdb's storage connection.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import type { SocialGraph } from '../gen/social.js';
import type { CityStats, GraphSubject, NameAge, NewPerson } from '../subject.js';

type Row = Record<string, unknown>;

/** Raw better-sqlite3 doing graphdb's storage work by hand. */
export class SqliteSubject implements GraphSubject {
  readonly name = 'raw SQLite';
  readonly role = 'limit' as const;
  readonly note = 'better-sqlite3, WAL, synchronous=NORMAL, 64 MiB cache (graphdb storage pragmas), prepared statements';
  private readonly db: Database.Database;
  private stmts!: ReturnType<SqliteSubject['prepare']>;

  constructor(dir: string) {
    this.db = new Database(join(dir, 'raw.sqlite'));
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('cache_size = -65536');
    this.db.pragma('temp_store = MEMORY');
    this.db.exec(`
      CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT, age INTEGER, city TEXT, email TEXT, bio TEXT);
      CREATE TABLE knows (src INTEGER NOT NULL, dst INTEGER NOT NULL, PRIMARY KEY (src, dst)) WITHOUT ROWID;
    `);
  }

  async load(graph: SocialGraph): Promise<void> {
    const insertPerson = this.db.prepare('INSERT INTO person VALUES (?, ?, ?, ?, ?, ?)');
    const insertEdge = this.db.prepare('INSERT INTO knows VALUES (?, ?)');
    this.db.transaction(() => {
      for (let i = 0; i < graph.persons; i++) {
        const p = graph.person(i);
        insertPerson.run(p.id, p.name, p.age, p.city, p.email, p.bio);
      }
      for (let i = 0; i < graph.src.length; i++) insertEdge.run(graph.src[i], graph.dst[i]);
    })();
    this.db.exec(`
      CREATE INDEX person_email ON person (email);
      CREATE INDEX person_city_age ON person (city, age);
      CREATE INDEX knows_dst ON knows (dst, src);
      ANALYZE;
    `);
    this.stmts = this.prepare();
  }

  private prepare() {
    const db = this.db;
    return {
      lookup: db.prepare('SELECT id FROM person WHERE email = ?').pluck(),
      oneHopCount: db.prepare('SELECT count(*) FROM knows WHERE src = ?').pluck(),
      oneHopExpand: db.prepare('SELECT p.name, p.age FROM knows k JOIN person p ON p.id = k.dst WHERE k.src = ?').raw(),
      twoHop: db
        .prepare('SELECT count(DISTINCT k2.dst) FROM knows k1 JOIN knows k2 ON k2.src = k1.dst WHERE k1.src = ? AND k2.dst <> ?')
        .pluck(),
      cities: db.prepare('SELECT city, count(*), avg(age) FROM person GROUP BY city').raw(),
      countNodes: db.prepare('SELECT count(*) FROM person').pluck(),
      countRels: db.prepare('SELECT count(*) FROM knows').pluck(),
      scan: db.prepare('SELECT id FROM person LIMIT 100').pluck(),
      insertPerson: db.prepare('INSERT INTO person (id, name, age, email) VALUES (?, ?, ?, ?)'),
      insertEdge: db.prepare('INSERT OR IGNORE INTO knows VALUES (?, ?)'),
      plan: db.prepare('EXPLAIN QUERY PLAN SELECT id FROM person WHERE email = ?'),
    };
  }

  async explain(): Promise<string> {
    return (this.stmts.plan.all('x') as Row[]).map((r) => String(r['detail'])).join('; ');
  }

  lookupByEmail(email: string): number | null {
    const id = this.stmts.lookup.get(email);
    return id === undefined ? null : Number(id);
  }

  oneHopCount(id: number): number {
    return Number(this.stmts.oneHopCount.get(id));
  }

  oneHopExpand(id: number): NameAge[] {
    return (this.stmts.oneHopExpand.all(id) as [string, number][]).map(([n, a]) => [n, Number(a)] as const);
  }

  twoHopDistinct(id: number): number {
    return Number(this.stmts.twoHop.get(id, id));
  }

  cityAggregate(): CityStats[] {
    return (this.stmts.cities.all() as [string, number, number][]).map(([c, n, a]) => [c, Number(n), Number(a)] as const);
  }

  countNodes(): number {
    return Number(this.stmts.countNodes.get());
  }

  countRelationships(): number {
    return Number(this.stmts.countRels.get());
  }

  labelScan100(): number[] {
    return (this.stmts.scan.all() as number[]).map(Number);
  }

  createNode(p: NewPerson): void {
    this.stmts.insertPerson.run(p.id, p.name, p.age, p.email);
  }

  createRelationship(from: number, to: number): void {
    this.stmts.insertEdge.run(from, to);
  }

  createInTransaction(rows: readonly NewPerson[]): void {
    this.createBatch(rows);
  }

  createBatch(rows: readonly NewPerson[]): void {
    const insert = this.stmts.insertPerson;
    this.db.transaction(() => {
      for (const p of rows) insert.run(p.id, p.name, p.age, p.email);
    })();
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
