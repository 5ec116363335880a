import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { GraphDB } from '../../src/engine/index.js';
import type { PlanDescription, QueryParameters } from '../../src/engine/index.js';

let db: GraphDB;

before(async () => {
  db = await GraphDB.open();
  await (await db.session().run('UNWIND range(1, 25000) AS i CREATE (:N {i: i})-[:R {i: i}]->(:N {i: -i})')).discard();
});
after(() => db.close());

interface Figures {
  readonly dbHits: number;
  readonly maxRows: number;
  readonly operators: string[];
}

function figures(p: PlanDescription): Figures {
  const children = p.children.map(figures);
  return {
    dbHits: (p.dbHits ?? 0) + children.reduce((sum, c) => sum + c.dbHits, 0),
    maxRows: Math.max(p.rows ?? 0, ...children.map((c) => c.maxRows)),
    operators: [p.operatorType, ...children.flatMap((c) => c.operators)],
  };
}

async function profile(query: string, parameters: QueryParameters): Promise<{ figures: Figures; rows: readonly (readonly unknown[])[] }> {
  const result = await db.session().run(`PROFILE ${query}`, parameters);
  const { records } = await result.pull(-1);
  const description = result.summary().profile;
  assert.ok(description, query);
  return { figures: figures(description), rows: records };
}

test('on a 50k-node graph a lookup by id touches a constant number of records', async () => {
  const [ids] = (await (await db.session().run('MATCH (a:N {i: 777})-[r]->(b) RETURN id(a), elementId(a), id(r), elementId(r)')).pull(-1))
    .records;
  const [nodeId, nodeEid, relId, relEid] = ids;
  const cases: [string, QueryParameters, string][] = [
    ['MATCH (n) WHERE id(n) = $v RETURN n.i', { v: nodeId }, 'NodeByIdSeek'],
    ['MATCH (n:N) WHERE elementId(n) = $v RETURN n.i', { v: nodeEid }, 'NodeByElementIdSeek'],
    ['MATCH (n) WHERE id(n) IN $v RETURN n.i', { v: [nodeId, nodeId] }, 'NodeByIdSeek'],
    ['MATCH (a)-[r]->(b) WHERE id(r) = $v RETURN r.i', { v: relId }, 'DirectedRelationshipByIdSeek'],
    ['MATCH (a)-[r:R]-(b) WHERE elementId(r) = $v RETURN r.i', { v: relEid }, 'UndirectedRelationshipByElementIdSeek'],
  ];
  for (const [query, parameters, operator] of cases) {
    const { figures: f, rows } = await profile(query, parameters);
    assert.ok(f.operators.includes(operator), `${query}: ${f.operators.join(' > ')}`);
    assert.ok(rows.length >= 1 && rows.length <= 2, `${query}: ${rows.length} rows`);
    assert.ok(f.dbHits >= 1 && f.dbHits <= 10, `${query}: ${f.dbHits} db hits`);
    assert.ok(f.maxRows <= 2, `${query}: an operator produced ${f.maxRows} rows`);
  }
  const scan = await profile('MATCH (n) WHERE id(n) + 0 = $v RETURN n.i', { v: nodeId });
  assert.ok(scan.figures.dbHits >= 50_000, `the scan it replaces costs ${scan.figures.dbHits} db hits`);
  assert.ok(scan.figures.maxRows >= 50_000, `the scan it replaces produces ${scan.figures.maxRows} rows`);
  assert.deepEqual(scan.rows, [[777n]]);
});
