import { inspect } from 'node:util';
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { CypherValue, GraphDB, PlanDescription } from '../../src/engine/index.js';
import { exec, openTestDb, rows } from './helpers.js';

let db: GraphDB;
before(async () => {
  db = await openTestDb();
  const s = db.session();
  await exec(s, 'CREATE INDEX person_email FOR (p:Person) ON (p.email)');
  await exec(s, "UNWIND range(1, 200) AS i CREATE (:Person {email: 'p' + i + '@x.org', i: i})");
});
after(() => db.close());

function operators(plan: PlanDescription | undefined): string[] {
  if (!plan) return [];
  return [plan.operatorType, ...plan.children.flatMap(operators)];
}

test('EXPLAIN of an equality lookup on an indexed property shows an index seek', async () => {
  const result = await db.session().run('EXPLAIN MATCH (p:Person {email: $e}) RETURN p', { e: 'p7@x.org' });
  await result.pull(-1);
  const ops = operators(result.summary().plan);
  assert.ok(ops.includes('NodeIndexSeek'), ops.join(' > '));
  assert.ok(!ops.includes('NodeByLabelScan'), ops.join(' > '));
});

test('the seek returns the same rows as a scan would', async () => {
  const found = await rows(db.session(), 'MATCH (p:Person {email: $e}) RETURN p.i AS i', { e: 'p7@x.org' });
  assert.deepEqual(found, [{ i: 7n }]);
});

test('range and prefix predicates also use the index', async () => {
  for (const query of [
    "MATCH (p:Person) WHERE p.email STARTS WITH 'p19' RETURN count(p) AS c",
    'MATCH (p:Person) WHERE p.email IN $list RETURN count(p) AS c',
  ]) {
    const result = await db.session().run(`EXPLAIN ${query}`, { list: ['p1@x.org', 'p2@x.org'] });
    await result.pull(-1);
    assert.ok(operators(result.summary().plan).includes('NodeIndexSeek'), query);
  }
  const [prefix] = await rows(db.session(), "MATCH (p:Person) WHERE p.email STARTS WITH 'p19' RETURN count(p) AS c");
  assert.equal(prefix?.c, 11n);
});

test('PROFILE reports rows per operator', async () => {
  const result = await db.session().run('PROFILE MATCH (p:Person {email: $e}) RETURN p.i', { e: 'p9@x.org' });
  await result.pull(-1);
  const profile = result.summary().profile;
  assert.ok(profile);
  assert.equal(profile.rows, 1);
});

test('two bounds on one indexed property become one range seek with correct rows', async () => {
  const result = await db.session().run('EXPLAIN MATCH (p:Person) WHERE p.i > 10 AND p.i <= 20 RETURN p');
  await result.pull(-1);
  assert.ok(operators(result.summary().plan).includes('NodeByLabelScan'), 'no index on :Person(i) yet');
  await exec(db.session(), 'CREATE INDEX person_i FOR (p:Person) ON (p.i)');
  const [row] = await rows(
    db.session(),
    'MATCH (p:Person) WHERE p.i > 10 AND p.i <= 20 RETURN count(p) AS c, min(p.i) AS lo, max(p.i) AS hi',
  );
  assert.deepEqual(row, { c: 10n, lo: 11n, hi: 20n });
});

test('an indexed relationship property anchors the pattern with a relationship index seek', async () => {
  const s = db.session();
  await exec(s, 'CREATE INDEX knows_since FOR ()-[k:KNOWS]-() ON (k.since)');
  await exec(s, 'MATCH (a:Person {i: 1}), (b:Person {i: 2}) CREATE (a)-[:KNOWS {since: 2001}]->(b), (b)-[:KNOWS {since: 2002}]->(a)');
  const query = 'MATCH (x:Person)-[k:KNOWS {since: 2001}]->(y) RETURN x.i AS x, y.i AS y';
  const explained = await s.run(`EXPLAIN ${query}`);
  await explained.pull(-1);
  assert.ok(operators(explained.summary().plan).includes('RelationshipIndexSeek'), operators(explained.summary().plan).join(' > '));
  assert.deepEqual(await rows(s, query), [{ x: 1n, y: 2n }]);
  const undirected = await rows(s, 'MATCH (x)-[k:KNOWS {since: 2002}]-(y) RETURN x.i AS x, y.i AS y ORDER BY x');
  assert.deepEqual(undirected, [
    { x: 1n, y: 2n },
    { x: 2n, y: 1n },
  ]);
  const incoming = await rows(s, 'MATCH (x)<-[k:KNOWS {since: 2002}]-(y) RETURN x.i AS x, y.i AS y');
  assert.deepEqual(incoming, [{ x: 1n, y: 2n }]);
});

test('an equality seek answers exactly what its predicate would, whatever the value type', async () => {
  const s = db.session();
  await exec(s, 'CREATE INDEX mixed_v FOR (m:Mixed) ON (m.v)');
  await exec(
    s,
    `UNWIND [1, 1.0, 2, 0.0/0.0, -0.0, 0, 'a', 'A', true, false, 9007199254740993, 9007199254740992.0, 9007199254740992,
             [1, 2], [1.0, 2.0], date('2024-01-02'), datetime('2024-01-02T00:00Z'), datetime('2024-01-02T01:00+01:00'),
             duration('P1D'), duration('PT24H'), point({x: 1, y: 2})] AS v
     CREATE (:Mixed {v: v}), (:Plain {v: v})`,
  );
  const values: CypherValue[] = [1n, 1, 2.5, NaN, 0, -0, 'a', true, 9007199254740993n, 9007199254740992, null, [1n, 2n], [1n, null]];
  for (const v of values) {
    const [seek] = await rows(s, 'MATCH (m:Mixed {v: $v}) RETURN count(m) AS c', { v });
    const [scan] = await rows(s, 'MATCH (m:Plain) WHERE m.v = $v RETURN count(m) AS c', { v });
    assert.equal(seek?.c, scan?.c, `value ${inspect(v)}`);
  }
  for (const expr of ["date('2024-01-02')", "datetime('2024-01-02T00:00Z')", "duration('PT24H')", 'point({x: 1, y: 2})']) {
    const [seek] = await rows(s, `MATCH (m:Mixed) WHERE m.v = ${expr} RETURN count(m) AS c`);
    const [scan] = await rows(s, `MATCH (m:Plain) WHERE m.v = ${expr} RETURN count(m) AS c`);
    assert.equal(seek?.c, scan?.c, expr);
  }
  const explained = await s.run('EXPLAIN MATCH (m:Mixed {v: $v}) RETURN m', { v: 1n });
  await explained.pull(-1);
  assert.ok(!operators(explained.summary().plan).includes('Filter'), 'the equality is answered by the seek');
});
