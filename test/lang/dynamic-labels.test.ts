/**
 * Dynamic labels and relationship types (Neo4j 5.26 `:$(expr)`) end to end with the
 * neo4j-driver over Bolt: CREATE, MATCH ($all/$any), MERGE, SET, REMOVE, label predicates,
 * relationship types, and the errors for values that are not STRING / LIST<STRING>.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import neo4j, { type Driver, type Session } from 'neo4j-driver';
import { GraphDB } from '../../src/engine/index.js';
import { startBoltServer, type BoltServer } from '../../src/server/bolt/index.js';

describe('dynamic labels and types over Bolt', () => {
  let db: GraphDB;
  let server: BoltServer;
  let driver: Driver;
  before(async () => {
    db = await GraphDB.open();
    server = await startBoltServer({ port: 0, host: '127.0.0.1', engine: db });
    driver = neo4j.driver(`bolt://127.0.0.1:${server.port}`, neo4j.auth.basic('neo4j', 'any'));
  });
  after(async () => {
    await driver.close();
    await server.close();
    await db.close();
  });

  async function withSession<T>(work: (session: Session) => Promise<T>): Promise<T> {
    const session = driver.session();
    try {
      return await work(session);
    } finally {
      await session.close();
    }
  }

  /** Runs a statement and returns each record as a plain object (integers as numbers). */
  const rows = (statement: string, parameters: Record<string, unknown> = {}) =>
    withSession(async (session) => (await session.run(statement, parameters)).records.map((r) => r.toObject()));

  const code = (statement: string, parameters: Record<string, unknown> = {}) =>
    withSession(async (session) => {
      try {
        await session.run(statement, parameters);
        return 'ok';
      } catch (error) {
        return (error as { code?: string }).code ?? String(error);
      }
    });

  const count = async (statement: string, parameters: Record<string, unknown> = {}): Promise<number> =>
    ((await rows(statement, parameters))[0].c as { toNumber(): number }).toNumber();

  it('CREATE and MATCH with labels from parameters (a string or a list), $all and $any', async () => {
    const created = await rows('CREATE (n:Dyn:$($label) {k: 1}) RETURN labels(n) AS labels', { label: 'Person' });
    assert.deepEqual(created[0].labels, ['Dyn', 'Person']);
    const many = await rows('UNWIND $rows AS row CREATE (n:Dyn:$(row.labels)) RETURN labels(n) AS labels', {
      rows: [{ labels: ['Person', 'Admin'] }, { labels: ['Robot'] }],
    });
    assert.deepEqual(
      many.map((r) => r.labels),
      [
        ['Dyn', 'Person', 'Admin'],
        ['Dyn', 'Robot'],
      ],
    );
    assert.equal(await count('MATCH (n:$($l)) RETURN count(n) AS c', { l: 'Person' }), 2);
    assert.equal(await count('MATCH (n:$all($l)) RETURN count(n) AS c', { l: ['Person', 'Admin'] }), 1);
    assert.equal(await count('MATCH (n:$any($l)) RETURN count(n) AS c', { l: ['Admin', 'Robot'] }), 2);
    assert.equal(await count('MATCH (n:Dyn) WHERE n:$($l) RETURN count(n) AS c', { l: 'Robot' }), 1);
    assert.equal(await count('MATCH (n:Dyn) WHERE NOT n:$($l) RETURN count(n) AS c', { l: 'Robot' }), 2);
  });

  it('SET and REMOVE labels computed per row', async () => {
    await rows("CREATE (:Movie {title: 'A', genre: 'Drama'}), (:Movie {title: 'B', genre: 'Comedy'})");
    const moved = await rows('MATCH (n:Movie) SET n:$(n.genre) REMOVE n.genre RETURN n.title AS title, labels(n) AS labels ORDER BY title');
    assert.deepEqual(moved, [
      { title: 'A', labels: ['Movie', 'Drama'] },
      { title: 'B', labels: ['Movie', 'Comedy'] },
    ]);
    const replaced = await rows("MATCH (n:Movie {title: 'A'}) REMOVE n:$(labels(n)) SET n:$($next) RETURN labels(n) AS labels", {
      next: ['Film', 'Old'],
    });
    assert.deepEqual(replaced[0].labels, ['Film', 'Old']);
  });

  it('MERGE with a dynamic label matches before it creates', async () => {
    const first = await withSession((s) => s.run('MERGE (n:$($l) {key: 7}) RETURN n.key AS k', { l: 'Merged' }));
    assert.equal(first.summary.counters.updates().nodesCreated, 1);
    const second = await withSession((s) => s.run('MERGE (n:$($l) {key: 7}) RETURN n.key AS k', { l: 'Merged' }));
    assert.equal(second.summary.counters.updates().nodesCreated, 0);
    assert.equal(await count('MATCH (n:Merged) RETURN count(n) AS c'), 1);
  });

  it('relationship types: CREATE, MATCH ($any) and MERGE', async () => {
    const created = await rows('CREATE (a:端点 {n: 1})-[r:$($t)]->(b:端点 {n: 2}) RETURN type(r) AS type', { t: 'KNOWS' });
    assert.deepEqual(created, [{ type: 'KNOWS' }]);
    assert.equal(await count('MATCH (:端点)-[r:$($t)]->(:端点) RETURN count(r) AS c', { t: 'KNOWS' }), 1);
    assert.equal(await count('MATCH (:端点)-[r:$any($t)]->(:端点) RETURN count(r) AS c', { t: ['LIKES', 'KNOWS'] }), 1);
    assert.equal(await count('MATCH (:端点)-[r:$($t)]->(:端点) RETURN count(r) AS c', { t: 'LIKES' }), 0);
    for (let i = 0; i < 2; i++) await rows('MATCH (a:端点 {n: 1}), (b:端点 {n: 2}) MERGE (a)-[:$($t)]->(b)', { t: 'LIKES' });
    const types = await rows('MATCH (:端点)-[r]->(:端点) RETURN type(r) AS type ORDER BY type');
    assert.deepEqual(
      types.map((r) => r.type),
      ['KNOWS', 'LIKES'],
    );
  });

  it('values that are not STRING or LIST<STRING> fail like Neo4j and write nothing', async () => {
    const before = await count('MATCH (n) RETURN count(n) AS c');
    assert.equal(await code('CREATE (n:$($l))', { l: null }), 'Neo.ClientError.Statement.TypeError');
    assert.equal(await code('CREATE (n:$($l))', { l: neo4j.int(5) }), 'Neo.ClientError.Statement.TypeError');
    assert.equal(await code('CREATE (n:$($l))', { l: ['A', neo4j.int(1)] }), 'Neo.ClientError.Statement.TypeError');
    assert.equal(await code('CREATE (n:$($l))', { l: '' }), 'Neo.ClientError.Statement.ArgumentError');
    assert.equal(
      await code('UNWIND [1, 2] AS i CREATE (n:Keep) WITH n MATCH (m:Keep) SET m:$($l)', { l: null }),
      'Neo.ClientError.Statement.TypeError',
    );
    assert.equal(await code('CREATE (a)-[:$($t)]->(b)', { t: ['A', 'B'] }), 'Neo.ClientError.Statement.ArgumentError');
    assert.equal(await code('MATCH (n:$($l)) RETURN n', { l: null }), 'Neo.ClientError.Statement.TypeError');
    assert.equal(await code('CREATE (n:$any($l))', { l: 'A' }), 'Neo.ClientError.Statement.SyntaxError');
    assert.equal(await count('MATCH (n) RETURN count(n) AS c'), before, 'failed statements were rolled back');
  });

  it('MATCH plans a label scan for a dynamic label known before the node (parameter or earlier variable)', async () => {
    const planOf = async (statement: string, parameters: Record<string, unknown>): Promise<string[]> => {
      const result = await db.session().run(`EXPLAIN ${statement}`, parameters as never);
      await result.pull(-1);
      const operators: string[] = [];
      const walk = (plan: { operatorType: string; arguments?: Record<string, unknown>; children?: unknown[] }): void => {
        operators.push(`${plan.operatorType}(${(plan.arguments?.Details as string | undefined) ?? ''})`);
        for (const child of plan.children ?? []) walk(child as never);
      };
      walk(result.summary().plan as never);
      return operators;
    };
    assert.ok((await planOf('MATCH (n:$($l)) RETURN n', { l: 'Person' })).includes('NodeByDynamicLabelScan(n:$($l))'));
    assert.ok((await planOf('UNWIND $ls AS l MATCH (n:$any(l)) RETURN n', { ls: [] })).includes('NodeByDynamicLabelScan(n:$any(l))'));
    assert.ok(
      (await planOf('MATCH (n:Person&$($l)) RETURN n', { l: 'Admin' })).some((op) => op.startsWith('NodeByLabelScan(n:Person)')),
      'a static label is preferred',
    );
    assert.ok(
      (await planOf('MATCH (n:$(n.kind)) RETURN n', {})).some((op) => op.startsWith('AllNodesScan')),
      'a label that needs the node itself is a filter',
    );
    assert.equal(await count('UNWIND $ls AS l MATCH (n:$any(l)) RETURN count(n) AS c', { ls: [['Person', 'Robot'], ['Admin']] }), 4);
    assert.equal(await count('MATCH (n:Dyn&$all($ls)) RETURN count(n) AS c', { ls: ['Person', 'Admin'] }), 1);
    assert.equal(await count('MATCH (n:$any($ls)) RETURN count(n) AS c', { ls: [] }), 0);
  });
});
