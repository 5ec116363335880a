import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { GraphDB } from '../../src/engine/index.js';
import type { PlanDescription, Session } from '../../src/engine/index.js';
import { planCacheStats } from '../../src/engine/session/plan-cache.js';

let db: GraphDB;
before(async () => {
  db = await GraphDB.open();
  await exec(db.session(), "UNWIND range(1, 50) AS i CREATE (:Person {email: 'p' + i + '@x.org', i: i})-[:KNOWS]->(:City {name: 'c' + i})");
});
after(() => db.close());

async function exec(session: Session, query: string): Promise<void> {
  await (await session.run(query)).discard();
}

function operators(plan: PlanDescription | undefined): string[] {
  if (!plan) return [];
  return [plan.operatorType, ...plan.children.flatMap(operators)];
}

async function explain(query: string): Promise<string[]> {
  const result = await db.session().run(query, { e: 'p7@x.org' });
  await result.pull(-1);
  return operators(result.summary().plan);
}

const LOOKUP = 'EXPLAIN MATCH (p:Person {email: $e}) RETURN p.i';

test('a repeated statement reuses its plan', async () => {
  const session = db.session();
  const query = 'MATCH (p:Person) WHERE p.i = $i RETURN p.email AS e';
  await (await session.run(query, { i: 1n })).pull(-1);
  const { hits } = planCacheStats();
  const result = await session.run(query, { i: 3n });
  const { records } = await result.pull(-1);
  assert.deepEqual(records, [['p3@x.org']]);
  assert.equal(planCacheStats().hits, hits + 1);
});

test('CREATE INDEX and DROP INDEX re-plan a statement planned before as a scan', async () => {
  const before = await explain(LOOKUP);
  assert.ok(before.includes('NodeByLabelScan'), before.join(' > '));
  assert.ok(!before.includes('NodeIndexSeek'), before.join(' > '));
  assert.deepEqual(await explain(LOOKUP), before, 'the cached plan is the same plan');

  await exec(db.session(), 'CREATE INDEX person_email FOR (p:Person) ON (p.email)');
  const indexed = await explain(LOOKUP);
  assert.ok(indexed.includes('NodeIndexSeek'), indexed.join(' > '));
  assert.ok(!indexed.includes('NodeByLabelScan'), indexed.join(' > '));

  await exec(db.session(), 'DROP INDEX person_email');
  const dropped = await explain(LOOKUP);
  assert.ok(dropped.includes('NodeByLabelScan'), dropped.join(' > '));
  assert.ok(!dropped.includes('NodeIndexSeek'), dropped.join(' > '));
});

test('a uniqueness constraint (its backing index) also invalidates the cached plan', async () => {
  const query = 'EXPLAIN MATCH (c:City {name: $e}) RETURN c';
  assert.ok((await explain(query)).includes('NodeByLabelScan'));
  await exec(db.session(), 'CREATE CONSTRAINT city_name FOR (c:City) REQUIRE c.name IS UNIQUE');
  assert.ok((await explain(query)).includes('NodeIndexSeek'));
  await exec(db.session(), 'DROP CONSTRAINT city_name');
  assert.ok((await explain(query)).includes('NodeByLabelScan'));
});

test('subquery expressions planned at run time work with cached plans', async () => {
  const session = db.session();
  const query =
    'MATCH (p:Person) WHERE p.i <= $n AND EXISTS { (p)-[:KNOWS]->(c:City) WHERE c.name STARTS WITH "c" } RETURN count(*) AS n, [(p)-->(c) | c.name][0] AS first ORDER BY first LIMIT 1';
  for (const n of [3n, 5n, 5n]) {
    const result = await session.run(query, { n });
    const { records } = await result.pull(-1);
    assert.deepEqual(records, [[1n, 'c1']]);
  }
});

test('shared physical operators keep no state between executions (reads, writes, aggregation)', async () => {
  const session = db.session();
  for (const v of [1n, 2n, 3n]) {
    await exec(session, `MERGE (t:Tag {v: ${v}}) ON CREATE SET t.n = 0`);
    const create = await session.run('MATCH (t:Tag) WITH t ORDER BY t.v CREATE (:Item {v: $v})-[:OF]->(t) SET t.n = t.n + 1', { v });
    await create.pull(-1);
    assert.equal(create.summary().counters.nodesCreated, Number(v));
  }
  const result = await session.run('MATCH (t:Tag) RETURN t.v AS v, t.n AS n, count { (t)<-[:OF]-() } AS items ORDER BY v');
  const { records } = await result.pull(-1);
  assert.deepEqual(records, [
    [1n, 3n, 3n],
    [2n, 2n, 2n],
    [3n, 1n, 1n],
  ]);
  const sums: bigint[] = [];
  for (let i = 0; i < 3; i++) {
    const sum = await session.run('MATCH (i:Item) RETURN sum(i.v) AS s, collect(DISTINCT i.v) AS vs');
    const {
      records: [row],
    } = await sum.pull(-1);
    sums.push(row?.[0] as bigint);
    assert.deepEqual(row?.[1], [1n, 2n, 3n]);
  }
  assert.deepEqual(sums, [14n, 14n, 14n]);
});

test('a known auto-commit writer skips the planning snapshot but keeps the read-mode refusal and re-plans on a new index', async () => {
  const session = db.session();
  const write = 'MATCH (a:Person {email: $e}) CREATE (a)-[:WROTE]->(:Note {at: $e})';
  await (await session.run(write, { e: 'p3@x.org' })).discard();
  await (await session.run(write, { e: 'p4@x.org' })).discard();
  await assert.rejects(async () => (await session.run(write, { e: 'p5@x.org' }, { mode: 'READ' })).discard(), {
    code: 'Neo.ClientError.Transaction.ForbiddenDueToTransactionType',
  });
  await exec(session, 'CREATE INDEX person_email_writer FOR (p:Person) ON (p.email)');
  const explained = await session.run(`EXPLAIN ${write}`, { e: 'p6@x.org' });
  await explained.pull(-1);
  assert.ok(operators(explained.summary().plan).includes('NodeIndexSeek'), 'the write is planned on the current catalog');
  await (await session.run(write, { e: 'p6@x.org' })).discard();
  const { records } = await (await session.run('MATCH (:Person)-[:WROTE]->(n:Note) RETURN n.at ORDER BY n.at')).pull(-1);
  assert.deepEqual(records, [['p3@x.org'], ['p4@x.org'], ['p6@x.org']]);
  await exec(session, 'DROP INDEX person_email_writer');
});
