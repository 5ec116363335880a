/**
 * SHOW INDEXES / CONSTRAINTS / DATABASES / PROCEDURES / FUNCTIONS through a session: default
 * columns, YIELD * and YIELD items with ORDER BY / SKIP / LIMIT / WHERE, a bare WHERE, RETURN
 * with expressions and aggregation, type words before the target, and unknown YIELD columns.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { GraphDB, Session } from '../../src/engine/index.js';
import type { PlanDescription } from '../../src/engine/session/types.js';
import { exec, openTestDb, rows } from '../execution/helpers.js';

let db: GraphDB;
let s: Session;

async function keys(query: string): Promise<readonly string[]> {
  const result = await s.run(query);
  await result.pull(-1);
  return result.keys;
}

before(async () => {
  db = await openTestDb();
  s = db.session();
  await exec(s, 'CREATE INDEX person_name FOR (p:Person) ON (p.name)');
  await exec(s, 'CREATE TEXT INDEX person_bio FOR (p:Person) ON (p.bio)');
  await exec(s, 'CREATE FULLTEXT INDEX movie_text FOR (m:Movie) ON EACH [m.title, m.plot]');
  await exec(s, 'CREATE CONSTRAINT user_email FOR (u:User) REQUIRE u.email IS UNIQUE');
  await exec(s, 'CREATE CONSTRAINT user_name FOR (u:User) REQUIRE u.name IS NOT NULL');
  await exec(s, 'CREATE DATABASE other');
});

after(async () => {
  await s.close();
  await db.close();
});

test('SHOW INDEXES returns the Neo4j 5 default columns; YIELD * adds options and createStatement', async () => {
  assert.deepEqual(await keys('SHOW INDEXES'), [
    'id',
    'name',
    'state',
    'populationPercent',
    'type',
    'entityType',
    'labelsOrTypes',
    'properties',
    'indexProvider',
    'owningConstraint',
    'lastRead',
    'readCount',
  ]);
  const all = await keys('SHOW INDEXES YIELD *');
  assert.ok(all.includes('options') && all.includes('createStatement'), JSON.stringify(all));
});

test('SHOW INDEXES WHERE filters on a column; the type word before INDEXES filters too', async () => {
  const fulltext = await rows(s, "SHOW INDEXES WHERE type = 'FULLTEXT'");
  assert.deepEqual(
    fulltext.map((r) => r.name),
    ['movie_text'],
  );
  assert.deepEqual(fulltext[0]?.properties, ['title', 'plot']);
  assert.deepEqual(
    (await rows(s, 'SHOW TEXT INDEXES')).map((r) => r.name),
    ['person_bio'],
  );
  assert.deepEqual(
    (await rows(s, "SHOW INDEXES WHERE 'Person' IN labelsOrTypes AND name STARTS WITH 'person_n'")).map((r) => r.name),
    ['person_name'],
  );
});

test('SHOW INDEXES YIELD items with ORDER BY / SKIP / LIMIT / WHERE, then RETURN', async () => {
  const names = (
    await rows(
      s,
      "SHOW INDEXES YIELD name, type, owningConstraint ORDER BY name DESC WHERE type <> 'LOOKUP' AND owningConstraint IS NULL RETURN name",
    )
  ).map((r) => r.name);
  assert.deepEqual(names, ['person_name', 'person_bio', 'movie_text']);
  const paged = await rows(
    s,
    "SHOW INDEXES YIELD name AS n, type WHERE n IN ['movie_text', 'person_bio', 'person_name'] RETURN n ORDER BY n SKIP 1 LIMIT 1",
  );
  assert.deepEqual(paged, [{ n: 'person_bio' }]);
  const yieldPaged = await rows(s, "SHOW INDEXES YIELD name, type ORDER BY name SKIP 1 LIMIT 2 WHERE name <> 'x'");
  assert.equal(yieldPaged.length, 2);
  assert.deepEqual(Object.keys(yieldPaged[0] ?? {}), ['name', 'type']);
  const expression = await rows(
    s,
    "SHOW INDEXES YIELD name, properties WHERE name = 'movie_text' RETURN toUpper(name) AS upper, size(properties) AS n",
  );
  assert.deepEqual(expression, [{ upper: 'MOVIE_TEXT', n: 2n }]);
});

test('SHOW INDEXES YIELD type RETURN type, count(*) aggregates', async () => {
  const counts = await rows(s, "SHOW INDEXES YIELD type WHERE type <> 'LOOKUP' RETURN type, count(*) AS c ORDER BY type");
  const byType = Object.fromEntries(counts.map((r) => [r.type as string, r.c]));
  assert.equal(byType.FULLTEXT, 1n);
  assert.equal(byType.TEXT, 1n);
  assert.ok(
    (byType.RANGE as bigint) >= 1n,
    JSON.stringify(counts, (_k, v) => (typeof v === 'bigint' ? Number(v) : v)),
  );
  assert.deepEqual(await keys('SHOW INDEXES YIELD type RETURN type, count(*)'), ['type', 'count(*)']);
});

test('an unknown YIELD column, an undefined variable and a duplicate column are syntax errors; comprehension variables are fine', async () => {
  await assert.rejects(
    async () => rows(s, 'SHOW INDEXES YIELD name, nonsense'),
    (error: { code?: string; message?: string }) =>
      error.code === 'Neo.ClientError.Statement.SyntaxError' && /nonsense/.test(error.message ?? ''),
  );
  for (const query of [
    'SHOW INDEXES YIELD name WHERE type = 1',
    'SHOW INDEXES YIELD name RETURN type',
    'SHOW INDEXES WHERE nonsense = 1',
    'SHOW INDEXES YIELD name, name',
    'SHOW INDEXES YIELD name AS n RETURN n ORDER BY name',
  ]) {
    await assert.rejects(
      async () => rows(s, query),
      (error: { code?: string }) => error.code === 'Neo.ClientError.Statement.SyntaxError',
      query,
    );
  }
  assert.deepEqual(
    await rows(
      s,
      "SHOW INDEXES YIELD name, labelsOrTypes WHERE any(l IN labelsOrTypes WHERE l = 'Movie') RETURN [x IN labelsOrTypes | toLower(x)] AS ls",
    ),
    [{ ls: ['movie'] }],
  );
  assert.deepEqual(await rows(s, "SHOW INDEXES YIELD name AS n WHERE n = 'movie_text' RETURN n AS m ORDER BY m"), [{ m: 'movie_text' }]);
  const lookup = await rows(s, "SHOW INDEXES YIELD type, entityType, createStatement WHERE type = 'LOOKUP' AND entityType = 'NODE'");
  assert.deepEqual(
    lookup.map((r) => r.createStatement).map((t) => (t as string).replace(/`[^`]*`/, 'x')),
    ['CREATE LOOKUP INDEX x FOR (e) ON EACH labels(e)'],
  );
  await assert.rejects(
    async () => rows(s, 'SHOW FUNCTIONS YIELD name, mode'),
    (error: { code?: string }) => error.code === 'Neo.ClientError.Statement.SyntaxError',
  );
});

test('SHOW CONSTRAINTS with WHERE, YIELD and type words', async () => {
  assert.deepEqual(await keys('SHOW CONSTRAINTS'), [
    'id',
    'name',
    'type',
    'entityType',
    'labelsOrTypes',
    'properties',
    'ownedIndex',
    'propertyType',
  ]);
  assert.deepEqual(
    (await rows(s, "SHOW CONSTRAINTS WHERE type = 'UNIQUENESS'")).map((r) => r.name),
    ['user_email'],
  );
  assert.deepEqual(await rows(s, 'SHOW UNIQUE CONSTRAINTS YIELD name, ownedIndex'), [{ name: 'user_email', ownedIndex: 'user_email' }]);
  assert.deepEqual(await rows(s, 'SHOW EXISTENCE CONSTRAINTS YIELD name'), [{ name: 'user_name' }]);
  assert.deepEqual(await rows(s, 'SHOW CONSTRAINTS YIELD name ORDER BY name DESC LIMIT 1 RETURN name'), [{ name: 'user_name' }]);
  assert.deepEqual(await rows(s, 'SHOW CONSTRAINTS YIELD entityType RETURN entityType, count(*) AS c'), [{ entityType: 'NODE', c: 2n }]);
});

test('SHOW DATABASES with WHERE, YIELD, RETURN; SHOW DATABASE name selects one', async () => {
  const columns = await keys('SHOW DATABASES');
  assert.deepEqual(columns.slice(0, 3), ['name', 'type', 'aliases']);
  assert.ok(columns.includes('currentStatus') && columns.includes('default') && columns.includes('home'));
  assert.deepEqual(
    (await rows(s, "SHOW DATABASES WHERE name = 'other' AND currentStatus = 'online'")).map((r) => r.name),
    ['other'],
  );
  const defaults = await rows(s, 'SHOW DATABASES YIELD name, default WHERE default RETURN name');
  assert.equal(defaults.length, 1);
  assert.deepEqual(await rows(s, 'SHOW DATABASE other YIELD name, currentStatus'), [{ name: 'other', currentStatus: 'online' }]);
  const counted = await rows(s, "SHOW DATABASES YIELD name WHERE name IN ['other', 'nope'] RETURN count(*) AS c");
  assert.deepEqual(counted, [{ c: 1n }]);
});

test('SHOW PROCEDURES and SHOW FUNCTIONS with YIELD / WHERE / RETURN', async () => {
  assert.deepEqual(await keys('SHOW PROCEDURES'), ['name', 'description', 'mode', 'worksOnSystem']);
  assert.deepEqual(await rows(s, "SHOW PROCEDURES YIELD name, mode WHERE name = 'db.labels'"), [{ name: 'db.labels', mode: 'READ' }]);
  const signature = await rows(s, "SHOW PROCEDURES YIELD name, signature WHERE name = 'db.labels' RETURN signature");
  assert.match(signature[0]?.signature as string, /^db\.labels\(/);
  assert.deepEqual(await keys('SHOW FUNCTIONS'), ['name', 'category', 'description']);
  const toUpper = await rows(s, "SHOW FUNCTIONS WHERE name = 'toUpper'");
  assert.equal(toUpper.length, 1);
  const aggregating = await rows(s, 'SHOW FUNCTIONS YIELD name, aggregating WHERE aggregating RETURN count(*) AS c');
  assert.ok((aggregating[0]?.c as bigint) >= 5n);
  assert.deepEqual(await rows(s, 'SHOW BUILT IN FUNCTIONS YIELD name, isBuiltIn WHERE NOT isBuiltIn RETURN name'), []);
  assert.deepEqual(await rows(s, 'SHOW USER DEFINED FUNCTIONS YIELD name'), []);
  const limited = await rows(s, 'SHOW FUNCTIONS YIELD name ORDER BY name SKIP 2 LIMIT 3');
  assert.equal(limited.length, 3);
});

test('YIELD with a parameter LIMIT, and EXPLAIN shows the row source under the projection', async () => {
  assert.equal((await rows(s, 'SHOW FUNCTIONS YIELD name LIMIT $n', { n: 2 })).length, 2);
  const explained = await s.run("EXPLAIN SHOW INDEXES WHERE type = 'TEXT'");
  await explained.pull(-1);
  const ops: string[] = [];
  const walk = (plan: PlanDescription | undefined): void => {
    if (!plan) return;
    ops.push(plan.operatorType);
    for (const child of plan.children) walk(child);
  };
  walk(explained.summary().plan);
  assert.ok(ops.some((o) => /Filter/.test(o)) && ops.some((o) => /CommandCall/.test(o)), JSON.stringify(ops));
});
