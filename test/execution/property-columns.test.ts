/**
 * Aggregations over property-only node scans (NodePropertyScan): the rewrite's shape and limits,
 * the same rows as the node-binding plan in every reader state (cached columns, a commit in
 * between, a write transaction's own writes, PROFILE's unfused operators), and the codec's
 * selected-key decoding underneath.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { CypherValue, GraphDB, PlanDescription } from '../../src/engine/index.js';
import { parse } from '../../src/engine/cypher/parser/index.js';
import { planStatement } from '../../src/engine/cypher/planner/plan-statement.js';
import { PlannerContext } from '../../src/engine/cypher/planner/planner-context.js';
import { printPlan } from '../../src/engine/cypher/planner/print-plan.js';
import { KeySelection, decodeSelected } from '../../src/engine/storage/codec/record-select.js';
import { encodeRecord } from '../../src/engine/storage/codec/value-codec.js';
import type { NodePropertyScan } from '../../src/engine/cypher/planner/logical/node-property-scan.js';
import type { ExecutionContext } from '../../src/engine/cypher/runtime/execution-context.js';
import { columnBatches } from '../../src/engine/cypher/runtime/operators/column-pipeline.js';
import { exec, openTestDb, rows } from './helpers.js';

function plan(query: string): string {
  const catalog = { countNodes: () => 100, countRelationships: () => 0, findIndex: () => null };
  const ctx = new PlannerContext(catalog, () => ({ inputs: [], outputs: [] }));
  return printPlan(planStatement(parse(query), ctx).plan);
}

test('an aggregation reading a scanned node only through properties scans property columns', () => {
  const text = plan('MATCH (p:Person) RETURN p.city AS city, count(*) AS n, avg(p.age) AS a');
  assert.match(text, /NodePropertyScan p:Person \{\.city, \.age\}/);
  assert.doesNotMatch(text, /NodeByLabelScan/);
  const filtered = plan('MATCH (p:Person) WHERE p.age > 30 RETURN p.city AS city, count(p) AS n');
  assert.match(filtered, /Aggregation city, count\(\*\) AS/, 'count(p) of a scanned node counts rows');
  assert.match(filtered, /Filter p\.age > 30\n\s+NodePropertyScan p:Person \{\.city, \.age\}/);
  assert.match(plan('MATCH (n) RETURN n.x AS x, max(n.y) AS m'), /NodePropertyScan n \{\.x, \.y\}/);
});

test('the rewrite keeps plans that need the node itself, its labels, distinct nodes or no aggregation', () => {
  for (const query of [
    'MATCH (p:Person) RETURN labels(p) AS l, count(*) AS n',
    'MATCH (p:Person) RETURN p.city AS city, collect(p) AS ps',
    'MATCH (p:Person) RETURN p.city AS city, count(DISTINCT p) AS n',
    'MATCH (p:Person) WHERE (p)-->() RETURN count(*) AS n',
    'MATCH (p:Person:Admin) RETURN p.city AS city, count(*) AS n',
    'MATCH (p:Person) RETURN p.city AS city',
  ]) {
    assert.doesNotMatch(plan(query), /NodePropertyScan/, query);
  }
  assert.match(plan('MATCH (p:Person) RETURN count(*) AS n'), /NodeCountFromCountStore/);
});

let db: GraphDB;
before(async () => {
  db = await openTestDb();
  await exec(
    db.session(),
    `UNWIND range(1, 60) AS i
     CREATE (:Person {i: i, city: CASE i % 4 WHEN 0 THEN 'a' WHEN 1 THEN 'b' WHEN 2 THEN null ELSE 'c' END,
                      age: CASE WHEN i % 5 = 0 THEN toFloat(i) ELSE i END})`,
  );
  await exec(
    db.session(),
    "CREATE (:Person {name: 'no city'}), (:Person {city: 1}), (:Person {city: 1.0, age: 2}), (:Other {city: 'a', age: 1000})",
  );
});
after(() => db.close());

const AGGREGATE = 'MATCH (p:Person) RETURN p.city AS city, count(*) AS n, avg(p.age) AS a, sum(p.age) AS s, collect(p.i) AS ids';
/** The same question planned with bound nodes (the projection in between keeps the node scan). */
const REFERENCE = 'MATCH (p:Person) WITH p RETURN p.city AS city, count(*) AS n, avg(p.age) AS a, sum(p.age) AS s, collect(p.i) AS ids';

async function operators(query: string): Promise<string[]> {
  const result = await db.session().run(`EXPLAIN ${query}`);
  await result.pull(-1);
  const walk = (p: PlanDescription | undefined): string[] => (p ? [p.operatorType, ...p.children.flatMap(walk)] : []);
  return walk(result.summary().plan);
}

test("column scans give the node-binding plan's rows: null groups, 1 and 1.0 in one group, mixed int/float sums", async () => {
  assert.ok((await operators(AGGREGATE)).includes('NodePropertyScan'));
  assert.ok(!(await operators(REFERENCE)).includes('NodePropertyScan'));
  const expected = await rows(db.session(), REFERENCE);
  assert.equal(expected.length, 5);
  for (let i = 0; i < 3; i++)
    assert.deepEqual(await rows(db.session(), AGGREGATE), expected, `run ${i} (cached columns from the second on)`);
  const one = expected.find((r) => r.city === 1n);
  assert.equal(one?.n, 2n, '1 and 1.0 group together');
  assert.equal(one?.a, 2, 'avg over the one age present');
});

test('filters and several input rows work on columns', async () => {
  const query = 'UNWIND [10, 40] AS lo MATCH (p:Person) WHERE p.age > lo RETURN lo, p.city AS city, count(p) AS n, min(p.age) AS m';
  assert.ok((await operators(query)).includes('NodePropertyScan'));
  const reference = query.replace('MATCH (p:Person) WHERE', 'MATCH (p:Person) WITH lo, p WHERE');
  assert.deepEqual(await rows(db.session(), query), await rows(db.session(), reference));
  const [row] = await rows(db.session(), "MATCH (p:Person) WHERE p.city = 'a' AND p.age >= 40 RETURN count(*) AS n");
  assert.deepEqual(row, { n: 6n });
});

test('a commit invalidates cached columns; a write transaction sees its own writes and leaves no trace', async () => {
  const cities = async (): Promise<Record<string, CypherValue>[]> =>
    rows(db.session(), "MATCH (p:Person) WHERE p.city IN ['a', 'zz'] RETURN p.city AS city, count(*) AS n, max(p.age) AS m");
  assert.deepEqual(await cities(), [{ city: 'a', n: 15n, m: 60 }]);
  await exec(db.session(), 'MATCH (p:Person {i: 4}) SET p.age = 999');
  assert.deepEqual(await cities(), [{ city: 'a', n: 15n, m: 999n }]);
  const tx = await db.session().beginTransaction();
  await (await tx.run("CREATE (:Person {city: 'zz', age: 1})")).discard();
  const inside = await tx.run("MATCH (p:Person) WHERE p.city IN ['a', 'zz'] RETURN p.city AS city, count(*) AS n");
  const { records } = await inside.pull(-1);
  assert.deepEqual(records, [
    ['a', 15n],
    ['zz', 1n],
  ]);
  await tx.rollback();
  assert.deepEqual(await cities(), [{ city: 'a', n: 15n, m: 999n }]);
});

test('columns read for one key are extended with another key at the same version', async () => {
  const [byCity] = await rows(db.session(), "MATCH (p:Person) WHERE p.city = 'b' RETURN count(*) AS n");
  const [both] = await rows(db.session(), "MATCH (p:Person) WHERE p.city = 'b' RETURN count(*) AS n, sum(p.i) AS s");
  const [reference] = await rows(db.session(), "MATCH (p:Person) WITH p WHERE p.city = 'b' RETURN count(*) AS n, sum(p.i) AS s");
  assert.deepEqual(byCity, { n: 15n });
  assert.deepEqual(both, reference);
});

test('PROFILE runs the scan as its own operator and reports its rows', async () => {
  const result = await db.session().run('PROFILE MATCH (p:Person) WHERE p.age > 50 RETURN p.city AS city, count(*) AS n');
  const { records } = await result.pull(-1);
  const plain = await rows(db.session(), 'MATCH (p:Person) WHERE p.age > 50 RETURN p.city AS city, count(*) AS n');
  assert.deepEqual(
    records.map((r) => ({ city: r[0], n: r[1] })),
    plain,
  );
  const find = (p: PlanDescription | undefined, op: string): PlanDescription | undefined =>
    p === undefined ? undefined : p.operatorType === op ? p : p.children.map((c) => find(c, op)).find((x) => x !== undefined);
  const profile = result.summary().profile;
  assert.equal(find(profile, 'NodePropertyScan')?.rows, 63);
  assert.equal(find(profile, 'Filter')?.rows, 11);
});

test('decodeSelected decodes only the wanted keys, in request order, undefined when absent', () => {
  const record = encodeRecord([
    [3, 'x'],
    [7, [1n, 'two']],
    [1, 2.5],
    [9, new Map<string, CypherValue>([['k', true]])],
  ]);
  const out: (CypherValue | undefined)[] = [];
  decodeSelected(record, new KeySelection([1, 4, 9, undefined]), out);
  assert.deepEqual(out, [2.5, undefined, new Map([['k', true]]), undefined]);
  decodeSelected(null, new KeySelection([3]), out);
  assert.deepEqual(out.slice(0, 1), [undefined]);
  decodeSelected(record, new KeySelection([7, 3]), out);
  assert.deepEqual(out.slice(0, 2), [[1n, 'two'], 'x']);
});

test('a reader without column scans is read node by node into batches of the same shape', () => {
  const ids = Array.from({ length: 2500 }, (_, i) => BigInt(i + 1));
  const stats = { dbHits: 0 };
  const ctx = {
    reader: { nodeIdsByLabel: (label: string) => (label === 'L' ? ids : []), allNodeIds: () => ids.slice(0, 3) },
    accessor: { nodeProperty: (id: bigint, key: string) => (key === 'k' && id % 2n === 0n ? id * 10n : undefined) },
    stats,
  } as unknown as ExecutionContext;
  const scan: NodePropertyScan = {
    op: 'NodePropertyScan',
    input: { op: 'Argument' } as NodePropertyScan['input'],
    variable: 'n',
    label: 'L',
    columns: [
      { key: 'k', name: '  n.k' },
      { key: 'z', name: '  n.z' },
    ],
  };
  const batches = [...columnBatches(ctx, scan)];
  assert.deepEqual(
    batches.map((b) => b.count),
    [1024, 1024, 452],
  );
  assert.deepEqual(batches[0].columns[0].slice(0, 4), [null, 20n, null, 40n]);
  assert.ok(batches.every((b) => b.columns[1].every((v) => v === null)));
  assert.equal(stats.dbHits, 2500);
  assert.deepEqual(
    [...columnBatches(ctx, { ...scan, label: null, columns: [] })].map((b) => b.count),
    [3],
  );
});
