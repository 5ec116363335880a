/**
 * graphdb as a GraphSubject, over any Cypher connection (the embedded Session or the Bolt driver):
 * the same Cypher text on every path, so the embedded and Bolt figures differ only by the edge.
 */
import type { SocialGraph } from '../gen/social.js';
import type { CityStats, GraphSubject, NameAge, NewPerson, PlannedQuery, Role } from '../subject.js';

/** Parameter values as a connection accepts them (integers as bigint). */
export type Params = Record<string, unknown>;

/** A Cypher connection: rows as arrays of plain values (integers may come back as bigint). */
export interface CypherConnection {
  run(query: string, params?: Params): Promise<unknown[][]>;
  /** Runs the statements in one explicit transaction and commits. */
  inTransaction(statements: readonly (readonly [string, Params])[]): Promise<void>;
  /** Operator names of the EXPLAIN plan, outermost first. */
  explain?(query: string, params?: Params): Promise<string[]>;
  close(): Promise<void>;
}

/** Rows per import transaction when loading through Cypher. */
const IMPORT_BATCH = 2000;

export const QUERIES = {
  indexEmail: 'CREATE INDEX person_email IF NOT EXISTS FOR (p:Person) ON (p.email)',
  indexId: 'CREATE INDEX person_id IF NOT EXISTS FOR (p:Person) ON (p.id)',
  importNodes: 'UNWIND $rows AS r CREATE (:Person {id: r.id, name: r.name, age: r.age, city: r.city, email: r.email, bio: r.bio})',
  importEdges: 'UNWIND $rows AS r MATCH (a:Person {id: r.s}), (b:Person {id: r.d}) CREATE (a)-[:KNOWS]->(b)',
  lookup: 'MATCH (p:Person {email: $e}) RETURN p.id AS id',
  oneHopCount: 'MATCH (a:Person {id: $id})-[:KNOWS]->(b) RETURN count(b) AS c',
  oneHopExpand: 'MATCH (a:Person {id: $id})-[:KNOWS]->(b) RETURN b.name AS name, b.age AS age',
  twoHop: 'MATCH (a:Person {id: $id})-[:KNOWS]->()-[:KNOWS]->(c) WHERE c <> a RETURN count(DISTINCT c) AS c',
  shortestPath: (maxHops: number) =>
    `MATCH (a:Person {id: $a}), (b:Person {id: $b}) MATCH p = shortestPath((a)-[:KNOWS*..${maxHops}]-(b)) RETURN length(p) AS l`,
  cities: 'MATCH (p:Person) RETURN p.city AS city, count(*) AS n, avg(p.age) AS a',
  countNodes: 'MATCH (n) RETURN count(n) AS c',
  countRels: 'MATCH ()-[r]->() RETURN count(r) AS c',
  scan: 'MATCH (p:Person) RETURN p.id AS id LIMIT 100',
  createNode: 'CREATE (:Person {id: $id, name: $name, age: $age, email: $email})',
  createRel: 'MATCH (a:Person {id: $a}), (b:Person {id: $b}) CREATE (a)-[:KNOWS]->(b)',
  createBatch: 'UNWIND $rows AS r CREATE (:Person {id: r.id, name: r.name, age: r.age, email: r.email})',
} as const;

function int(n: number): bigint {
  return BigInt(n);
}

function personRow(p: NewPerson): Map<string, unknown> {
  return new Map<string, unknown>([
    ['id', int(p.id)],
    ['name', p.name],
    ['age', int(p.age)],
    ['email', p.email],
  ]);
}

/** graphdb through a Cypher connection. */
export class CypherSubject implements GraphSubject {
  serveBolt?: GraphSubject['serveBolt'];

  constructor(
    readonly name: string,
    readonly role: Role,
    private readonly conn: CypherConnection,
    readonly note: string,
    /** Wraps list-of-map parameters the way the connection wants them (Map for embedded, object for Bolt). */
    private readonly mapOf: (entries: Map<string, unknown>) => unknown = (m) => m,
  ) {}

  /** Runs one statement (for subclasses that load differently). */
  protected async run(query: string, params?: Params): Promise<unknown[][]> {
    return this.conn.run(query, params);
  }

  async load(graph: SocialGraph): Promise<void> {
    await this.conn.run(QUERIES.indexEmail);
    await this.conn.run(QUERIES.indexId);
    for (let start = 0; start < graph.persons; start += IMPORT_BATCH) {
      const rows: unknown[] = [];
      for (let i = start; i < Math.min(graph.persons, start + IMPORT_BATCH); i++) {
        const p = graph.person(i);
        rows.push(
          this.mapOf(
            new Map<string, unknown>([
              ['id', int(p.id)],
              ['name', p.name],
              ['age', int(p.age)],
              ['city', p.city],
              ['email', p.email],
              ['bio', p.bio],
            ]),
          ),
        );
      }
      await this.conn.inTransaction([[QUERIES.importNodes, { rows }]]);
    }
    for (let start = 0; start < graph.src.length; start += IMPORT_BATCH) {
      const rows: unknown[] = [];
      for (let i = start; i < Math.min(graph.src.length, start + IMPORT_BATCH); i++) {
        rows.push(
          this.mapOf(
            new Map<string, unknown>([
              ['s', int(graph.src[i])],
              ['d', int(graph.dst[i])],
            ]),
          ),
        );
      }
      await this.conn.inTransaction([[QUERIES.importEdges, { rows }]]);
    }
  }

  async explain(query: PlannedQuery): Promise<string> {
    if (!this.conn.explain) return 'EXPLAIN not available on this connection';
    const text = query === 'shortestPath' ? QUERIES.shortestPath(6) : QUERIES[query];
    return (await this.conn.explain(text, { e: 'x', id: 0n, a: 0n, b: 1n })).join(' <- ');
  }

  async lookupByEmail(email: string): Promise<number | null> {
    const rows = await this.conn.run(QUERIES.lookup, { e: email });
    return rows.length ? Number(rows[0][0]) : null;
  }

  async oneHopCount(id: number): Promise<number> {
    return Number((await this.conn.run(QUERIES.oneHopCount, { id: int(id) }))[0][0]);
  }

  async oneHopExpand(id: number): Promise<NameAge[]> {
    const rows = await this.conn.run(QUERIES.oneHopExpand, { id: int(id) });
    return rows.map((r) => [String(r[0]), Number(r[1])] as const);
  }

  async twoHopDistinct(id: number): Promise<number> {
    return Number((await this.conn.run(QUERIES.twoHop, { id: int(id) }))[0][0]);
  }

  async shortestPath(a: number, b: number, maxHops: number): Promise<number | null> {
    const rows = await this.conn.run(QUERIES.shortestPath(maxHops), { a: int(a), b: int(b) });
    return rows.length ? Number(rows[0][0]) : null;
  }

  async cityAggregate(): Promise<CityStats[]> {
    const rows = await this.conn.run(QUERIES.cities);
    return rows.map((r) => [String(r[0]), Number(r[1]), Number(r[2])] as const);
  }

  async countNodes(): Promise<number> {
    return Number((await this.conn.run(QUERIES.countNodes))[0][0]);
  }

  async countRelationships(): Promise<number> {
    return Number((await this.conn.run(QUERIES.countRels))[0][0]);
  }

  async labelScan100(): Promise<number[]> {
    return (await this.conn.run(QUERIES.scan)).map((r) => Number(r[0]));
  }

  async createNode(p: NewPerson): Promise<void> {
    await this.conn.run(QUERIES.createNode, { id: int(p.id), name: p.name, age: int(p.age), email: p.email });
  }

  async createRelationship(from: number, to: number): Promise<void> {
    await this.conn.run(QUERIES.createRel, { a: int(from), b: int(to) });
  }

  async createInTransaction(rows: readonly NewPerson[]): Promise<void> {
    await this.conn.inTransaction(
      rows.map((p) => [QUERIES.createNode, { id: int(p.id), name: p.name, age: int(p.age), email: p.email }] as const),
    );
  }

  async createBatch(rows: readonly NewPerson[]): Promise<void> {
    await this.conn.inTransaction([[QUERIES.createBatch, { rows: rows.map((r) => this.mapOf(personRow(r))) }]]);
  }

  async close(): Promise<void> {
    await this.conn.close();
  }
}
