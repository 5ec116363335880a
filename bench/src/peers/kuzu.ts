/**
 * The Kuzu peer (embedded Cypher, an OLAP engine), loaded from `bench/node_modules` — a separate
 * install (`npm --prefix bench ci`) because the package is ~541 MB. Same data and Cypher queries as
 * graphdb; Person(id) is Kuzu's primary key, and Kuzu has no secondary index for email.
 */
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SocialGraph } from '../gen/social.js';
import { QUERY_TIMEOUT_MS } from '../graphdb/embedded.js';

/** Upper bound of Kuzu's COPY in G1 (an hour: only a hung import hits it). */
const IMPORT_TIMEOUT_MS = 3_600_000;
import type { CityStats, GraphSubject, NameAge, NewPerson } from '../subject.js';

/** The slice of Kuzu's Node API used here. */
interface KuzuQueryResult {
  getAll(): Promise<Record<string, unknown>[]>;
}
interface KuzuPrepared {
  isSuccess(): boolean;
  getErrorMessage(): string;
}
interface KuzuConnection {
  query(q: string): Promise<KuzuQueryResult>;
  prepare(q: string): Promise<KuzuPrepared>;
  execute(p: KuzuPrepared, params: Record<string, unknown>): Promise<KuzuQueryResult>;
  setMaxNumThreadForExec(n: number): void;
  setQueryTimeout(ms: number): void;
  close(): Promise<void>;
}
interface KuzuModule {
  Database: new (path: string) => { close(): Promise<void> };
  Connection: new (db: unknown) => KuzuConnection;
  VERSION?: string;
}

/** Loads the kuzu package from bench/node_modules; returns a reason string when it is missing. */
export function loadKuzu(): KuzuModule | string {
  try {
    const require = createRequire(new URL('../../package.json', import.meta.url));
    return require('kuzu') as KuzuModule;
  } catch (e) {
    return `peer unavailable: kuzu is not installed (run \`npm --prefix bench ci\`): ${(e as Error).message.split('\n')[0]}`;
  }
}

function csvField(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}

/** Kuzu 0.11 with one execution thread (the engines under test are single-threaded JS). */
export class KuzuSubject implements GraphSubject {
  readonly name = 'Kuzu';
  readonly role = 'peer' as const;
  readonly note: string;
  private readonly db: { close(): Promise<void> };
  private readonly conn: KuzuConnection;
  private readonly prepared = new Map<string, KuzuPrepared>();

  constructor(
    kuzu: KuzuModule,
    private readonly dir: string,
    threads: number,
  ) {
    this.db = new kuzu.Database(join(dir, 'kuzu.db'));
    this.conn = new kuzu.Connection(this.db);
    this.conn.setMaxNumThreadForExec(threads);
    this.conn.setQueryTimeout(QUERY_TIMEOUT_MS);
    this.note = `kuzu ${kuzu.VERSION ?? '0.11.3'}, ${threads} thread(s), COPY FROM CSV for G1 (CSV writing not timed)`;
  }

  /** Writes the CSV inputs of COPY (not part of the timed import). */
  prepareImport(graph: SocialGraph): void {
    const people: string[] = [];
    for (let i = 0; i < graph.persons; i++) {
      const p = graph.person(i);
      people.push(`${p.id},${csvField(p.name)},${p.age},${csvField(p.city)},${csvField(p.email)},${csvField(p.bio)}`);
    }
    writeFileSync(join(this.dir, 'person.csv'), people.join('\n') + '\n');
    const edges: string[] = [];
    for (let i = 0; i < graph.src.length; i++) edges.push(`${graph.src[i]},${graph.dst[i]}`);
    writeFileSync(join(this.dir, 'knows.csv'), edges.join('\n') + '\n');
  }

  async load(_graph: SocialGraph): Promise<void> {
    await this.conn.query(
      'CREATE NODE TABLE Person(id INT64, name STRING, age INT64, city STRING, email STRING, bio STRING, PRIMARY KEY (id))',
    );
    await this.conn.query('CREATE REL TABLE KNOWS(FROM Person TO Person)');
    // The statement timeout bounds queries, not the bulk import (graphdb's bulk loader has none):
    // at 1M / 5M on a loaded machine COPY runs past 30 s.
    this.conn.setQueryTimeout(IMPORT_TIMEOUT_MS);
    try {
      await this.conn.query(`COPY Person FROM '${join(this.dir, 'person.csv')}' (HEADER=false)`);
      await this.conn.query(`COPY KNOWS FROM '${join(this.dir, 'knows.csv')}' (HEADER=false)`);
    } finally {
      this.conn.setQueryTimeout(QUERY_TIMEOUT_MS);
    }
  }

  private async run(query: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>[]> {
    let p = this.prepared.get(query);
    if (!p) {
      p = await this.conn.prepare(query);
      if (!p.isSuccess()) throw new Error(`Kuzu: ${p.getErrorMessage()}`);
      this.prepared.set(query, p);
    }
    return (await this.conn.execute(p, params)).getAll();
  }

  async lookupByEmail(email: string): Promise<number | null> {
    const rows = await this.run('MATCH (p:Person) WHERE p.email = $e RETURN p.id AS id', { e: email });
    return rows.length ? Number(rows[0]['id']) : null;
  }

  async oneHopCount(id: number): Promise<number> {
    const rows = await this.run('MATCH (a:Person)-[:KNOWS]->(b:Person) WHERE a.id = $id RETURN count(b) AS c', { id });
    return Number(rows[0]['c']);
  }

  async oneHopExpand(id: number): Promise<NameAge[]> {
    const rows = await this.run('MATCH (a:Person)-[:KNOWS]->(b:Person) WHERE a.id = $id RETURN b.name AS n, b.age AS a', { id });
    return rows.map((r) => [String(r['n']), Number(r['a'])] as const);
  }

  async twoHopDistinct(id: number): Promise<number> {
    const rows = await this.run(
      'MATCH (a:Person)-[:KNOWS]->(:Person)-[:KNOWS]->(c:Person) WHERE a.id = $id AND c.id <> a.id RETURN count(DISTINCT c) AS c',
      { id },
    );
    return Number(rows[0]['c']);
  }

  async shortestPath(a: number, b: number, maxHops: number): Promise<number | null> {
    const rows = await this.run(
      `MATCH (x:Person)-[e:KNOWS* SHORTEST 1..${maxHops}]-(y:Person) WHERE x.id = $a AND y.id = $b RETURN length(e) AS l`,
      { a, b },
    );
    return rows.length ? Number(rows[0]['l']) : null;
  }

  async cityAggregate(): Promise<CityStats[]> {
    const rows = await this.run('MATCH (p:Person) RETURN p.city AS c, count(*) AS n, avg(p.age) AS a');
    return rows.map((r) => [String(r['c']), Number(r['n']), Number(r['a'])] as const);
  }

  async countNodes(): Promise<number> {
    return Number((await this.run('MATCH (p:Person) RETURN count(*) AS c'))[0]['c']);
  }

  async countRelationships(): Promise<number> {
    return Number((await this.run('MATCH ()-[r:KNOWS]->() RETURN count(*) AS c'))[0]['c']);
  }

  async labelScan100(): Promise<number[]> {
    return (await this.run('MATCH (p:Person) RETURN p.id AS id LIMIT 100')).map((r) => Number(r['id']));
  }

  async createNode(p: NewPerson): Promise<void> {
    await this.run('CREATE (:Person {id: $id, name: $name, age: $age, email: $email})', { ...p });
  }

  async createRelationship(from: number, to: number): Promise<void> {
    await this.run('MATCH (a:Person), (b:Person) WHERE a.id = $a AND b.id = $b CREATE (a)-[:KNOWS]->(b)', { a: from, b: to });
  }

  async createBatch(rows: readonly NewPerson[]): Promise<void> {
    await this.run('UNWIND $rows AS r CREATE (:Person {id: r.id, name: r.name, age: r.age, email: r.email})', {
      rows: rows.map((r) => ({ ...r })),
    });
  }

  async close(): Promise<void> {
    await this.conn.close();
    await this.db.close();
  }
}
