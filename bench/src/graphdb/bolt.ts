/**
 * graphdb over Bolt with the official neo4j-driver: `RETURN 1` round trips (P1) and a
 * CypherConnection so the graph workloads can run over Bolt with the same Cypher text.
 */
import neo4j, { type Driver, type Session } from 'neo4j-driver';
import { measureConcurrent, type Timing } from '../measure.js';
import type { CypherConnection, Params } from './cypher-subject.js';

/** A driver on 127.0.0.1:port without auth, integers as bigint. */
export function boltDriver(port: number, connections: number): Driver {
  return neo4j.driver(`bolt://127.0.0.1:${port}`, neo4j.auth.basic('neo4j', 'neo4j'), {
    maxConnectionPoolSize: connections,
    useBigInt: true,
    logging: { level: 'error', logger: () => undefined },
  });
}

/** `RETURN 1` from `connections` concurrent sessions for the budget; also returns the answer. */
export async function boltReturn1(port: number, connections: number, budgetMs: number): Promise<{ timing: Timing; answer: unknown }> {
  const driver = boltDriver(port, connections);
  const sessions: Session[] = Array.from({ length: connections }, () => driver.session());
  try {
    const first = await sessions[0].run('RETURN 1 AS x');
    const answer = Number(first.records[0]?.get('x'));
    const timing = await measureConcurrent((c) => sessions[c].run('RETURN 1 AS x'), connections, { budgetMs });
    return { timing, answer };
  } finally {
    for (const s of sessions) await s.close();
    await driver.close();
  }
}

function toDriver(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toDriver);
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [k, toDriver(v)]));
  return value;
}

function toDriverParams(params: Params | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params ?? {}).map(([k, v]) => [k, toDriver(v)]));
}

/** A CypherConnection over one driver session. */
export class BoltConnection implements CypherConnection {
  private readonly session: Session;

  constructor(private readonly driver: Driver) {
    this.session = driver.session();
  }

  async run(query: string, params?: Params): Promise<unknown[][]> {
    const result = await this.session.run(query, toDriverParams(params));
    return result.records.map((r) => r.keys.map((k) => r.get(k) as unknown));
  }

  async inTransaction(statements: readonly (readonly [string, Params])[]): Promise<void> {
    await this.session.executeWrite(async (tx) => {
      for (const [q, p] of statements) await tx.run(q, toDriverParams(p));
    });
  }

  async explain(query: string, params?: Params): Promise<string[]> {
    const result = await this.session.run(`EXPLAIN ${query}`, toDriverParams(params));
    const names: string[] = [];
    const walk = (plan: { operatorType: string; children: unknown[] } | false | undefined): void => {
      if (!plan) return;
      names.push(plan.operatorType);
      for (const c of plan.children) walk(c as { operatorType: string; children: unknown[] });
    };
    walk(result.summary.plan);
    return names;
  }

  async close(): Promise<void> {
    await this.session.close();
    await this.driver.close();
  }
}
