/**
 * Count-store answers (EXPLAIN shows the operator, results equal a scan, transaction-local
 * writes are counted), the shapes that must keep scanning, allShortestPaths on a hand-built
 * graph, and transaction timeouts stopping runaway variable-length and path searches.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { GraphDB } from '../../src/engine/index.js';
import type { CypherValue, Path, PlanDescription, Session } from '../../src/engine/index.js';

let db: GraphDB;
let session: Session;

async function all(query: string, parameters?: Record<string, CypherValue>): Promise<CypherValue[][]> {
  const result = await session.run(query, parameters);
  return (await result.pull(-1)).records as CypherValue[][];
}

async function operators(query: string): Promise<string[]> {
  const result = await session.run(`EXPLAIN ${query}`);
  await result.discard();
  const plan = result.summary().plan;
  assert.ok(plan, 'EXPLAIN returns a plan');
  const names: string[] = [];
  const visit = (p: PlanDescription): void => {
    names.push(p.operatorType);
    p.children.forEach(visit);
  };
  visit(plan);
  return names;
}

const TIMED_OUT = (error: { code?: string }): boolean => error.code === 'Neo.ClientError.Transaction.TransactionTimedOut';

before(async () => {
  db = await GraphDB.open();
  session = db.session();
  await all('UNWIND range(1, 300) AS i CREATE (a:A {i: i})-[:T]->(b:B {i: i}), (b)-[:U]->(:C), (a)-[:T]->(a)');
  await all('UNWIND range(1, 40) AS i CREATE (:Lone)');
});

after(async () => {
  await session.close();
  await db.close();
});

const COUNTS: readonly [string, string, string][] = [
  ['MATCH (n) RETURN count(n)', 'NodeCountFromCountStore', 'MATCH (n) WITH n WHERE true RETURN count(n)'],
  ['MATCH (n:A) RETURN count(*)', 'NodeCountFromCountStore', 'MATCH (n:A) WHERE n.i > 0 OR true RETURN count(*)'],
  ['MATCH (n:Missing) RETURN count(n)', 'NodeCountFromCountStore', 'MATCH (n) WHERE n:Missing RETURN count(n)'],
  ['MATCH ()-[r]->() RETURN count(r)', 'RelationshipCountFromCountStore', 'MATCH (x)-[r]->(y) WHERE y.none IS NULL RETURN count(r)'],
  ['MATCH ()<-[r:T]-() RETURN count(*)', 'RelationshipCountFromCountStore', 'MATCH (x)<-[r:T]-(y) WHERE y.none IS NULL RETURN count(*)'],
  [
    'MATCH ()-[r:T|U]->() RETURN count(r) AS c',
    'RelationshipCountFromCountStore',
    'MATCH (x)-[r:T|U]->(y) WHERE y.none IS NULL RETURN count(r) AS c',
  ],
];

test('EXPLAIN shows the count-store operators and their results equal a scan', async () => {
  for (const [query, operator, scan] of COUNTS) {
    const plan = await operators(query);
    assert.ok(plan.includes(operator), `${query}: ${plan.join(' ← ')}`);
    assert.ok(!plan.includes('Aggregation'), `${query}: ${plan.join(' ← ')}`);
    const scanPlan = await operators(scan);
    assert.ok(scanPlan.includes('Aggregation'), `${scan} is meant to scan`);
    assert.deepEqual(await all(query), await all(scan), query);
  }
  assert.deepEqual(await all('MATCH (n) RETURN count(n)'), [[940n]]);
  assert.deepEqual(await all('MATCH ()-[r:T]->() RETURN count(r)'), [[600n]]);
});

test('shapes the store cannot answer keep their scan', async () => {
  for (const query of [
    'MATCH (n:A) RETURN count(n.i)',
    'MATCH (n:A {i: 1}) RETURN count(n)',
    'MATCH (n) RETURN n:A AS a, count(n)',
    'MATCH ()-[r]-() RETURN count(r)',
    'MATCH (:A)-[r]->() RETURN count(r)',
    'MATCH ()-[r]->(:B) RETURN count(r)',
    'MATCH (a)-[r]->(a) RETURN count(r)',
    'MATCH ()-[r*1..2]->() RETURN count(r)',
    'MATCH (n) RETURN count(n), count(*)',
  ]) {
    const plan = await operators(query);
    assert.ok(!plan.some((o) => o.endsWith('FromCountStore')), `${query}: ${plan.join(' ← ')}`);
  }
  assert.deepEqual(await all('MATCH ()-[r]->(:B) RETURN count(r)'), [[300n]]);
  assert.deepEqual(await all('MATCH (a)-[r]->(a) RETURN count(r)'), [[300n]]);
});

test('counts see the writes of their own transaction and multiply per input row', async () => {
  const tx = await session.beginTransaction();
  await (await tx.run('CREATE (:A)-[:T]->(:A)')).discard();
  const result = await tx.run('MATCH (n:A) RETURN count(n) AS nodes');
  assert.deepEqual((await result.pull(-1)).records, [[302n]]);
  const rels = await tx.run('MATCH ()-[r:T]->() RETURN count(r)');
  assert.deepEqual((await rels.pull(-1)).records, [[601n]]);
  await tx.rollback();
  assert.deepEqual(await all('MATCH (n:A) RETURN count(n)'), [[300n]]);
  assert.deepEqual(await all('UNWIND [1, 2, 3] AS x CALL { MATCH (n:Lone) RETURN count(n) AS c } RETURN sum(c)'), [[120n]]);
  assert.deepEqual(await all('UNWIND [1, 2] AS x MATCH (n:Lone) RETURN count(n)'), [[80n]]);
  assert.deepEqual(await all('UNWIND [] AS x MATCH (n:Lone) RETURN count(n)'), [[0n]]);
});

test('allShortestPaths returns every shortest path and shortestPath one of them', async () => {
  await all(`CREATE (s:S {n: 's'}), (t:S {n: 't'}), (x:S), (y:S), (z1:S), (z2:S),
    (s)-[:K]->(x)-[:K]->(t), (s)-[:K]->(y)-[:K]->(t), (s)-[:K]->(x), (s)-[:K]->(z1)-[:K]->(z2)-[:K]->(t)`);
  const paths = await all("MATCH (s:S {n: 's'}), (t:S {n: 't'}) MATCH p = allShortestPaths((s)-[:K*]->(t)) RETURN p");
  assert.deepEqual(
    paths.map(([p]) => (p as Path).relationships.length),
    [2, 2, 2],
  );
  const routes = paths.map(([p]) => (p as Path).relationships.map((r) => String(r.id)).join(','));
  assert.equal(new Set(routes).size, 3, 'three distinct paths (two parallel first hops through x)');
  const one = await all("MATCH (s:S {n: 's'}), (t:S {n: 't'}) MATCH p = shortestPath((s)-[:K*]->(t)) RETURN length(p)");
  assert.deepEqual(one, [[2n]]);
  const back = await all("MATCH (s:S {n: 's'}), (t:S {n: 't'}) MATCH p = shortestPath((s)<-[:K*]-(t)) RETURN p");
  assert.deepEqual(back, []);
  const zero = await all("MATCH (s:S {n: 's'}) MATCH p = shortestPath((s)-[:K*0..]->(s)) RETURN length(p)");
  assert.deepEqual(zero, [[0n]]);
});

test('WHERE on the path belongs to the search: the shortest path that satisfies it is found', async () => {
  await all(`CREATE (s:W {n: 's'}), (t:W {n: 't'}), (m:W), (u:W), (v:W),
    (s)-[:H {ok: false}]->(m)-[:H {ok: true}]->(t), (s)-[:H {ok: true}]->(u)-[:H {ok: true}]->(v)-[:H {ok: true}]->(t)`);
  const anchored = "MATCH (s:W {n: 's'}), (t:W {n: 't'}) ";
  const plain = await all(anchored + 'MATCH p = shortestPath((s)-[:H*]->(t)) RETURN length(p)');
  assert.deepEqual(plain, [[2n]]);
  const onRels = await all(anchored + 'MATCH p = shortestPath((s)-[r:H*]->(t)) WHERE all(x IN r WHERE x.ok) RETURN length(p)');
  assert.deepEqual(onRels, [[3n]]);
  const onPath = await all(
    anchored + "MATCH p = shortestPath((s)-[:H*]->(t)) WHERE all(x IN relationships(p) WHERE x.ok) AND s.n = 's' RETURN length(p)",
  );
  assert.deepEqual(onPath, [[3n]]);
  const longer = await all(anchored + 'MATCH p = shortestPath((s)-[:H*]->(t)) WHERE length(p) > 2 RETURN length(p)');
  assert.deepEqual(longer, [[3n]]);
  const none = await all(anchored + 'MATCH p = shortestPath((s)-[:H*]->(t)) WHERE length(p) > 3 RETURN length(p)');
  assert.deepEqual(none, []);
  const plan = await operators(anchored + 'MATCH p = shortestPath((s)-[:H*]->(t)) WHERE length(p) > 2 AND s.n = t.n RETURN p');
  assert.deepEqual(plan.slice(0, 4), ['ProduceResults', 'Projection', 'Filter', 'ShortestPath']);
});

test('a transaction timeout stops a runaway variable-length expansion', async () => {
  await all('UNWIND range(1, 12) AS i CREATE (:Dense {i: i})');
  await all('MATCH (a:Dense), (b:Dense) WHERE a.i < b.i CREATE (a)-[:D]->(b)');
  const started = performance.now();
  await assert.rejects(
    async () => (await session.run('MATCH (a:Dense {i: 1})-[:D*]-(b) RETURN count(*)', undefined, { timeoutMs: 300 })).pull(-1),
    TIMED_OUT,
  );
  assert.ok(performance.now() - started < 5000);
});

test('a transaction timeout stops a runaway allShortestPaths (exponentially many paths)', async () => {
  // A ladder of 40 squares: 2^40 shortest paths from one corner to the opposite one.
  await all(`UNWIND range(0, 40) AS i CREATE (:Rung {i: i, side: 0}), (:Rung {i: i, side: 1})`);
  await all(`MATCH (a:Rung), (b:Rung) WHERE (b.i = a.i + 1 AND b.side = a.side) OR (b.i = a.i + 1 AND b.side <> a.side)
    CREATE (a)-[:L]->(b)`);
  const started = performance.now();
  await assert.rejects(
    async () =>
      (
        await session.run(
          'MATCH (a:Rung {i: 0, side: 0}), (b:Rung {i: 40, side: 0}) MATCH p = allShortestPaths((a)-[:L*]->(b)) RETURN count(p)',
          undefined,
          { timeoutMs: 300 },
        )
      ).pull(-1),
    TIMED_OUT,
  );
  assert.ok(performance.now() - started < 5000);
  const one = await all(
    'MATCH (a:Rung {i: 0, side: 0}), (b:Rung {i: 40, side: 0}) MATCH p = shortestPath((a)-[:L*]->(b)) RETURN length(p)',
  );
  assert.deepEqual(one, [[40n]]);
});
