/**
 * An ungrouped count over a one-hop directed expansion from a bound node is answered from the
 * node's degree (RelationshipCountFromDegree): same counts as the expansion, in auto-commit and
 * in an explicit transaction with uncommitted writes, and only for the shapes where that holds.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { GraphDB } from '../../src/engine/index.js';
import { exec, openTestDb, rows } from './helpers.js';

let db: GraphDB;
before(async () => {
  db = await openTestDb();
  const session = db.session();
  await exec(session, 'CREATE INDEX person_id FOR (p:Person) ON (p.id)');
  await exec(
    session,
    `CREATE (a:Person {id: 1}), (b:Person {id: 2}), (c:Person {id: 3}), (d:City {id: 4}),
            (a)-[:KNOWS]->(b), (a)-[:KNOWS]->(c), (a)-[:KNOWS]->(a), (a)-[:KNOWS]->(b),
            (a)-[:LIKES]->(b), (b)-[:KNOWS]->(c), (a)-[:LIVES_IN]->(d)`,
  );
  await session.close();
});
after(async () => {
  await db.close();
});

async function plan(query: string): Promise<string> {
  const session = db.session();
  try {
    const result = await session.run(`EXPLAIN ${query}`, { id: 1n });
    await result.pull(-1);
    return JSON.stringify(result.summary().plan);
  } finally {
    await session.close();
  }
}

/** The count of `query` (one row, column c). */
async function count(query: string, id = 1n): Promise<unknown> {
  const session = db.session();
  try {
    return (await rows(session, query, { id }))[0]?.['c'];
  } finally {
    await session.close();
  }
}

/** The same count with the degree rewrite defeated (a filter on `b` stays above the Expand). */
const reference = (query: string): string => query.replace(/ RETURN /, ' WHERE id(b) >= 0 RETURN ');

const COUNTED = [
  'MATCH (a:Person {id: $id})-[:KNOWS]->(b) RETURN count(b) AS c',
  'MATCH (a:Person {id: $id})-[r:KNOWS]->(b) RETURN count(r) AS c',
  'MATCH (a:Person {id: $id})<-[:KNOWS]-(b) RETURN count(*) AS c',
  'MATCH (a:Person {id: $id})-[:KNOWS|LIKES|KNOWS]->(b) RETURN count(b) AS c',
  'MATCH (a:Person {id: $id})-->(b) RETURN count(b) AS c',
  'MATCH (a:Person {id: $id})-[:NOT_A_TYPE]->(b) RETURN count(b) AS c',
  'MATCH (a:Person)-[:KNOWS]->(b) RETURN count(b) AS c',
  'UNWIND [1, 1, 2] AS i MATCH (a:Person {id: i})-[:KNOWS]->(b) RETURN count(b) AS c',
  'OPTIONAL MATCH (a:Person {id: 99}) WITH a MATCH (a)-[:KNOWS]->(b) RETURN count(b) AS c',
];

test('counts over a bare directed expansion use the degree and equal the expansion', async () => {
  for (const query of COUNTED) {
    assert.match(await plan(query), /RelationshipCountFromDegree/, query);
    assert.doesNotMatch(await plan(reference(query)), /RelationshipCountFromDegree/, query);
    assert.equal(await count(query), await count(reference(query)), query);
  }
  assert.equal(await count(COUNTED[0]), 4n);
  assert.equal(await count(COUNTED[2]), 1n);
  assert.equal(await count(COUNTED[3]), 5n);
  assert.equal(await count(COUNTED[8]), 0n);
});

test('shapes whose count differs from the degree keep the expansion', async () => {
  for (const query of [
    'MATCH (a:Person {id: $id})-[:KNOWS]->(b) RETURN count(DISTINCT b) AS c',
    'MATCH (a:Person {id: $id})-[:KNOWS]-(b) RETURN count(b) AS c',
    'MATCH (a:Person {id: $id})-[:KNOWS]->(b:Person) RETURN count(b) AS c',
    'MATCH (a:Person {id: $id})-[:KNOWS*1..2]->(b) RETURN count(b) AS c',
    'MATCH (a:Person {id: $id})-[:KNOWS {since: 1}]->(b) RETURN count(b) AS c',
    'MATCH (a:Person {id: $id})-[:KNOWS]->(b) RETURN a.id AS id, count(b) AS c',
    'MATCH (x)-[r1:KNOWS]->(a:Person {id: $id})-[r2:KNOWS]->(b) RETURN count(b) AS c',
  ]) {
    assert.doesNotMatch(await plan(query), /RelationshipCountFromDegree/, query);
  }
  assert.equal(await count('MATCH (a:Person {id: $id})-[:KNOWS]->(b) RETURN count(DISTINCT b) AS c'), 3n);
});

test('inside an explicit transaction the degree counts its own uncommitted writes', async () => {
  const session = db.session();
  const tx = await session.beginTransaction();
  try {
    await (await tx.run('MATCH (a:Person {id: 1}), (c:Person {id: 3}) CREATE (a)-[:KNOWS]->(c)')).discard();
    await (await tx.run('MATCH (a:Person {id: 1})-[r:KNOWS]->(b:Person {id: 2}) DELETE r')).discard();
    for (const query of COUNTED) {
      const counted = (await (await tx.run(query, { id: 1n })).pull(-1)).records[0]?.[0];
      const expected = (await (await tx.run(reference(query), { id: 1n })).pull(-1)).records[0]?.[0];
      assert.equal(counted, expected, query);
    }
    assert.equal((await (await tx.run(COUNTED[0], { id: 1n })).pull(-1)).records[0]?.[0], 3n);
  } finally {
    await tx.rollback();
    await session.close();
  }
  assert.equal(await count(COUNTED[0]), 4n);
});
