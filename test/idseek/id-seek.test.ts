import { inspect } from 'node:util';
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { GraphDB } from '../../src/engine/index.js';
import type { CypherValue, PlanDescription, QueryParameters } from '../../src/engine/index.js';

let db: GraphDB;
let deletedNode: bigint;
let deletedRel: bigint;

async function rows(query: string, parameters?: QueryParameters): Promise<Record<string, CypherValue>[]> {
  const result = await db.session().run(query, parameters);
  const { records } = await result.pull(-1);
  return records.map((record) => Object.fromEntries(result.keys.map((k, i) => [k, record[i] ?? null])));
}

async function plan(query: string, parameters?: QueryParameters): Promise<PlanDescription> {
  const result = await db.session().run(`EXPLAIN ${query}`, parameters);
  await result.pull(-1);
  const description = result.summary().plan;
  assert.ok(description, query);
  return description;
}

function operators(p: PlanDescription): string[] {
  return [p.operatorType, ...p.children.flatMap(operators)];
}

/** Rows as sorted JSON lines, so result sets compare regardless of order. */
function canonical(found: Record<string, CypherValue>[]): string[] {
  return found.map((r) => JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))).sort();
}

before(async () => {
  db = await GraphDB.open();
  const s = db.session();
  for (const query of [
    'CREATE INDEX item_i FOR (n:Item) ON (n.i)',
    'UNWIND range(0, 999) AS i WITH i WHERE i % 2 = 0 CREATE (:Item:Even {i: i})',
    'UNWIND range(0, 999) AS i WITH i WHERE i % 2 = 1 CREATE (:Item:Odd {i: i})',
    'UNWIND range(0, 998) AS i WITH i WHERE i % 3 = 0 MATCH (a:Item {i: i}), (b:Item {i: i + 1}) CREATE (a)-[:NEXT {i: i}]->(b)',
    'UNWIND range(0, 998) AS i WITH i WHERE i % 3 = 1 MATCH (a:Item {i: i}), (b:Item {i: i + 1}) CREATE (b)-[:BACK {i: i}]->(a)',
  ]) {
    await (await s.run(query)).discard();
  }
  await (await s.run('MATCH (a:Item {i: 5}) CREATE (a)-[:SELF]->(a)')).discard();
  const [gone] = await rows('CREATE (n:Gone)-[r:GONE]->(:Gone) RETURN id(n) AS n, id(r) AS r');
  deletedNode = gone.n as bigint;
  deletedRel = gone.r as bigint;
  await (await s.run('MATCH (n:Gone) DETACH DELETE n')).discard();
});
after(() => db.close());

test('EXPLAIN shows the node seek for id, elementId, equality (either side) and IN', async () => {
  const cases: [string, string][] = [
    ['MATCH (n) WHERE id(n) = $id RETURN n', 'NodeByIdSeek'],
    ['MATCH (n) WHERE $id = id(n) RETURN n', 'NodeByIdSeek'],
    ['MATCH (n:Even) WHERE id(n) IN $ids RETURN n', 'NodeByIdSeek'],
    ['MATCH (n) WHERE elementId(n) = $eid RETURN n', 'NodeByElementIdSeek'],
    ['MATCH (n:Odd) WHERE elementId(n) IN $eids AND n.i > 3 RETURN n', 'NodeByElementIdSeek'],
    ['MATCH (m:Item {i: 1}) MATCH (n) WHERE id(n) = id(m) + 1 RETURN n', 'NodeByIdSeek'],
  ];
  for (const [query, expected] of cases) {
    const ops = operators(await plan(query));
    assert.ok(ops.includes(expected), `${query}: ${ops.join(' > ')}`);
    assert.ok(!ops.includes('AllNodesScan') || query.startsWith('MATCH (m'), `${query}: ${ops.join(' > ')}`);
  }
});

test('EXPLAIN shows the relationship seeks by direction and id kind', async () => {
  const cases: [string, string][] = [
    ['MATCH ()-[r]->() WHERE id(r) = $id RETURN r', 'DirectedRelationshipByIdSeek'],
    ['MATCH (a)<-[r:NEXT]-(b) WHERE id(r) IN $ids RETURN a, b', 'DirectedRelationshipByIdSeek'],
    ['MATCH (a)-[r]-(b) WHERE id(r) = $id RETURN a, b', 'UndirectedRelationshipByIdSeek'],
    ['MATCH (a:Even)-[r]->(b) WHERE elementId(r) = $eid RETURN b', 'DirectedRelationshipByElementIdSeek'],
    ['MATCH ()-[r]-() WHERE elementId(r) IN $eids RETURN r', 'UndirectedRelationshipByElementIdSeek'],
  ];
  for (const [query, expected] of cases) {
    const ops = operators(await plan(query));
    assert.ok(ops.includes(expected), `${query}: ${ops.join(' > ')}`);
    assert.ok(!ops.includes('Expand') && !ops.includes('AllNodesScan') && !ops.includes('NodeByLabelScan'), `${query}: ${ops.join(' > ')}`);
  }
});

test('predicates that are not id lookups keep the scan', async () => {
  for (const query of [
    'MATCH (n) WHERE id(n) + 0 = $id RETURN n',
    'MATCH (n) WHERE id(n) > $id RETURN n',
    'MATCH (a)-[r]->(b) WHERE id(r) = id(b) RETURN r',
  ]) {
    const ops = operators(await plan(query));
    assert.ok(!ops.some((o) => o.endsWith('IdSeek')), `${query}: ${ops.join(' > ')}`);
  }
});

test('seeks return exactly the rows of the equivalent scan, for every kind of id value', async () => {
  const [some] = await rows('MATCH (n:Item {i: 10}) RETURN id(n) AS id, elementId(n) AS eid');
  const [odd] = await rows('MATCH (n:Item {i: 11}) RETURN id(n) AS id, elementId(n) AS eid');
  const [rel] = await rows('MATCH ()-[r:BACK]->() RETURN id(r) AS id, elementId(r) AS eid LIMIT 1');
  const [self] = await rows('MATCH ()-[r:SELF]->() RETURN id(r) AS id, elementId(r) AS eid');
  const nodeId = some.id as bigint;
  const relId = rel.id as bigint;
  const eid = some.eid as string;
  const foreign = eid.replace(/^4:[^:]+:/, '4:00000000-0000-0000-0000-000000000000:');
  const idValues: CypherValue[] = [
    nodeId,
    odd.id,
    relId,
    self.id,
    Number(nodeId),
    Number(nodeId) + 0.5,
    `${nodeId}`,
    null,
    -1n,
    10n ** 15n,
    deletedNode,
    deletedRel,
    true,
  ];
  const idLists: CypherValue[] = [[nodeId, nodeId, odd.id, null, 'x', relId, deletedNode], [], null];
  const eidValues: CypherValue[] = [eid, odd.eid, rel.eid, self.eid, foreign, 'garbage', '4:', null, 42n];
  const eidLists: CypherValue[] = [[eid, eid, rel.eid, foreign, null, 7n], null];
  const pairs: [string, string, CypherValue[], string][] = [
    ['MATCH (n) WHERE id(n) = $v RETURN n.i AS i', 'MATCH (n) WHERE id(n) + 0 = $v RETURN n.i AS i', idValues, 'NodeByIdSeek'],
    ['MATCH (n:Even) WHERE id(n) = $v RETURN n.i AS i', 'MATCH (n:Even) WHERE id(n) + 0 = $v RETURN n.i AS i', idValues, 'NodeByIdSeek'],
    ['MATCH (n:Odd) WHERE id(n) IN $v RETURN n.i AS i', 'MATCH (n:Odd) WHERE id(n) + 0 IN $v RETURN n.i AS i', idLists, 'NodeByIdSeek'],
    ['MATCH (n) WHERE id(n) IN $v RETURN n.i AS i', 'MATCH (n) WHERE id(n) + 0 IN $v RETURN n.i AS i', idLists, 'NodeByIdSeek'],
    [
      'MATCH (n) WHERE elementId(n) = $v RETURN n.i AS i',
      "MATCH (n) WHERE elementId(n) + '' = $v RETURN n.i AS i",
      eidValues,
      'NodeByElementIdSeek',
    ],
    [
      'MATCH (n:Even) WHERE elementId(n) IN $v RETURN n.i AS i',
      "MATCH (n:Even) WHERE elementId(n) + '' IN $v RETURN n.i AS i",
      eidLists,
      'NodeByElementIdSeek',
    ],
    [
      'MATCH (a)-[r]->(b) WHERE id(r) = $v RETURN a.i AS a, r.i AS r, b.i AS b',
      'MATCH (a)-[r]->(b) WHERE id(r) + 0 = $v RETURN a.i AS a, r.i AS r, b.i AS b',
      idValues,
      'DirectedRelationshipByIdSeek',
    ],
    [
      'MATCH (a)<-[r:NEXT|SELF]-(b) WHERE id(r) = $v RETURN a.i AS a, b.i AS b',
      'MATCH (a)<-[r:NEXT|SELF]-(b) WHERE id(r) + 0 = $v RETURN a.i AS a, b.i AS b',
      idValues,
      'DirectedRelationshipByIdSeek',
    ],
    [
      'MATCH (a:Even)-[r]-(b) WHERE id(r) IN $v RETURN a.i AS a, b.i AS b',
      'MATCH (a:Even)-[r]-(b) WHERE id(r) + 0 IN $v RETURN a.i AS a, b.i AS b',
      idLists,
      'UndirectedRelationshipByIdSeek',
    ],
    [
      'MATCH (a:Odd)-[r]-(b:Even) WHERE id(r) = $v RETURN a.i AS a, b.i AS b',
      'MATCH (a:Odd)-[r]-(b:Even) WHERE id(r) + 0 = $v RETURN a.i AS a, b.i AS b',
      idValues,
      'UndirectedRelationshipByIdSeek',
    ],
    [
      'MATCH (a)-[r]-(b) WHERE elementId(r) = $v RETURN a.i AS a, b.i AS b',
      "MATCH (a)-[r]-(b) WHERE elementId(r) + '' = $v RETURN a.i AS a, b.i AS b",
      eidValues,
      'UndirectedRelationshipByElementIdSeek',
    ],
    [
      'MATCH (a)-[r:BACK]->(b) WHERE elementId(r) IN $v RETURN a.i AS a, b.i AS b',
      "MATCH (a)-[r:BACK]->(b) WHERE elementId(r) + '' IN $v RETURN a.i AS a, b.i AS b",
      eidLists,
      'DirectedRelationshipByElementIdSeek',
    ],
  ];
  let nonEmpty = 0;
  for (const [seekQuery, scanQuery, values, expected] of pairs) {
    assert.ok(operators(await plan(seekQuery)).includes(expected), seekQuery);
    assert.ok(!operators(await plan(scanQuery)).includes(expected), scanQuery);
    for (const v of values) {
      const seek = canonical(await rows(seekQuery, { v }));
      const scan = canonical(await rows(scanQuery, { v }));
      assert.deepEqual(seek, scan, `${seekQuery} with ${inspect(v)}`);
      if (seek.length > 0) nonEmpty++;
    }
  }
  assert.ok(nonEmpty > 20, `only ${nonEmpty} comparisons had rows`);
});

test('label, type and direction conditions hold', async () => {
  const [even] = await rows('MATCH (n:Item {i: 10}) RETURN id(n) AS id');
  const id = even.id as bigint;
  assert.deepEqual(await rows('MATCH (n:Odd) WHERE id(n) = $id RETURN n.i AS i', { id }), []);
  assert.deepEqual(await rows('MATCH (n:Even:Item) WHERE id(n) = $id RETURN n.i AS i', { id }), [{ i: 10n }]);
  assert.deepEqual(await rows('MATCH (n:Even:Odd) WHERE id(n) = $id RETURN n.i AS i', { id }), []);
  const [next] = await rows('MATCH (:Item {i: 0})-[r:NEXT]->() RETURN id(r) AS id');
  const rid = next.id as bigint;
  assert.deepEqual(await rows('MATCH (a)-[r]->(b) WHERE id(r) = $rid RETURN a.i AS a, b.i AS b', { rid }), [{ a: 0n, b: 1n }]);
  assert.deepEqual(await rows('MATCH (a)<-[r]-(b) WHERE id(r) = $rid RETURN a.i AS a, b.i AS b', { rid }), [{ a: 1n, b: 0n }]);
  assert.deepEqual(
    canonical(await rows('MATCH (a)-[r]-(b) WHERE id(r) = $rid RETURN a.i AS a, b.i AS b', { rid })),
    canonical([
      { a: 0n, b: 1n },
      { a: 1n, b: 0n },
    ]),
  );
  assert.deepEqual(await rows('MATCH (a)-[r:BACK]->(b) WHERE id(r) = $rid RETURN a', { rid }), []);
  assert.deepEqual(await rows('MATCH (a:Odd)-[r]->(b) WHERE id(r) = $rid RETURN a', { rid }), []);
  assert.deepEqual(await rows('MATCH (a)-[r]->(b:Even) WHERE id(r) = $rid RETURN a', { rid }), []);
  const [self] = await rows('MATCH ()-[r:SELF]->() RETURN id(r) AS id');
  assert.deepEqual(await rows('MATCH (a)-[r]-(b) WHERE id(r) = $id RETURN a.i AS a, b.i AS b', { id: self.id }), [{ a: 5n, b: 5n }]);
  assert.deepEqual(await rows('MATCH (n) WHERE id(n) = $id RETURN n', { id: deletedNode }), []);
});

test('the seek sees writes of its own transaction and runs once per input row', async () => {
  const tx = await db.session().beginTransaction();
  try {
    const created = await tx.run('CREATE (n:Fresh) RETURN id(n) AS id');
    const { records } = await created.pull(-1);
    const id = records[0][0] as bigint;
    const found = await tx.run('MATCH (n:Fresh) WHERE id(n) = $id RETURN count(n) AS c', { id });
    assert.deepEqual((await found.pull(-1)).records, [[1n]]);
  } finally {
    await tx.rollback();
  }
  const found = await rows('UNWIND [0, 2, 4, 2] AS i MATCH (m:Item {i: i}) WITH m MATCH (n) WHERE id(n) = id(m) RETURN n.i AS i');
  assert.deepEqual(
    found.map((r) => r.i),
    [0n, 2n, 4n, 2n],
  );
});

function find(p: PlanDescription, operator: string): PlanDescription | undefined {
  return p.operatorType === operator ? p : p.children.map((c) => find(c, operator)).find((c) => c !== undefined);
}

test('EXPLAIN details name the looked-up ids and the pattern', async () => {
  const node = find(await plan('MATCH (n:Even) WHERE id(n) IN $ids RETURN n'), 'NodeByIdSeek');
  assert.equal(node?.arguments.Details, 'n:Even WHERE id(n) IN $ids');
  const rel = find(await plan('MATCH (a:Odd)<-[r:NEXT]-(b) WHERE elementId(r) = $e RETURN b'), 'DirectedRelationshipByElementIdSeek');
  assert.equal(rel?.arguments.Details, '(a:Odd)<-[r:NEXT]-(b) WHERE elementId(r) = $e');
});

test('OPTIONAL MATCH and later pattern parts use the seek too', async () => {
  const [even] = await rows('MATCH (n:Item {i: 10}) RETURN id(n) AS id');
  const query = 'OPTIONAL MATCH (n:Odd) WHERE id(n) = $id RETURN n.i AS i';
  assert.ok(operators(await plan(query)).includes('NodeByIdSeek'));
  assert.deepEqual(await rows(query, { id: even.id }), [{ i: null }]);
  const chained = 'MATCH (a)-[r:NEXT]->(b)-[s]->(c) WHERE id(r) = $id RETURN a.i AS a, c.i AS c';
  const [next] = await rows('MATCH (:Item {i: 3})-[r:NEXT]->() RETURN id(r) AS id');
  assert.ok(operators(await plan(chained)).includes('DirectedRelationshipByIdSeek'));
  assert.deepEqual(await rows(chained, { id: next.id }), []);
  const back = 'MATCH (a)-[r:NEXT]->(b)<-[s]-(c) WHERE id(r) = $id RETURN a.i AS a, c.i AS c';
  assert.deepEqual(await rows(back, { id: next.id }), [{ a: 3n, c: 5n }]);
});

test('subquery expressions and CALL subqueries use seeks correlated with the outer row', async () => {
  const query =
    'MATCH (m:Item) WHERE m.i < 6 RETURN m.i AS i, EXISTS { MATCH (n:Odd) WHERE id(n) = id(m) RETURN n } AS odd, COUNT { MATCH ()-[r]->() WHERE elementId(r) IN [(m)-[x]->() | elementId(x)] RETURN r } AS out, EXISTS { (n:Even) WHERE id(n) = id(m) } AS even ORDER BY i';
  const expected = await rows(
    'MATCH (m:Item) WHERE m.i < 6 RETURN m.i AS i, m:Odd AS odd, size([(m)-[x]->() | x]) AS out, m:Even AS even ORDER BY i',
  );
  assert.deepEqual(await rows(query), expected);
  assert.ok(
    expected.some((r) => r.odd === true) && expected.some((r) => r.out === 1n),
    JSON.stringify(expected, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}` : v)),
  );
  const called = await rows(
    'UNWIND [1, 2] AS k CALL (k) { MATCH (a:Item {i: k}) MATCH (b) WHERE id(b) = id(a) RETURN b.i AS b } RETURN k, b',
  );
  assert.deepEqual(called, [
    { k: 1n, b: 1n },
    { k: 2n, b: 2n },
  ]);
});
