/**
 * The exact-kNN plan (`ORDER BY vector.similarity.*(d.p, $q) DESC LIMIT k` answered from a
 * VECTOR index, planner/rewrite/exact-vector-top-k.ts) gives exactly the rows, order and scores of
 * the row-by-row plan: random graphs with ties, missing properties, values the index cannot score
 * (wrong dimension, nulls, strings, zero vectors), both similarities, with and without
 * `IS NOT NULL`, in auto-commit and explicit transactions with uncommitted writes, and a read
 * transaction whose snapshot is older than the index. The reference is the same query with the
 * key written `+ 0`, which the rewrite does not recognise.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { GraphDB } from '../../src/engine/index.js';
import type { CypherValue, PlanDescription, QueryParameters, Session, Transaction } from '../../src/engine/index.js';

type Runner = Pick<Session, 'run'> | Pick<Transaction, 'run'>;

interface Outcome {
  readonly rows?: CypherValue[][];
  readonly error?: string;
  readonly dbHits?: number;
}

let db: GraphDB;
before(async () => {
  db = await GraphDB.open({});
  const s = db.session();
  for (const [name, label, similarity] of [
    ['doc_cos', 'Doc', 'cosine'],
    ['item_euc', 'Item', 'euclidean'],
  ]) {
    await exec(
      s,
      `CREATE VECTOR INDEX ${name} FOR (n:${label}) ON n.v OPTIONS {indexConfig: {\`vector.dimensions\`: 3, \`vector.similarity_function\`: '${similarity}'}}`,
    );
  }
});
after(() => db.close());

async function exec(runner: Runner, query: string, parameters?: QueryParameters): Promise<void> {
  await (await runner.run(query, parameters)).discard();
}

function totalHits(plan: PlanDescription | undefined): number {
  if (plan === undefined) return 0;
  return (plan.dbHits ?? 0) + plan.children.reduce((sum, child) => sum + totalHits(child), 0);
}

function operators(plan: PlanDescription | undefined): string[] {
  return plan === undefined ? [] : [plan.operatorType, ...plan.children.flatMap(operators)];
}

async function outcome(runner: Runner, query: string, parameters: QueryParameters, profile = false): Promise<Outcome> {
  try {
    const result = await runner.run(profile ? `PROFILE ${query}` : query, parameters);
    const { records } = await result.pull(-1);
    return { rows: records.map((r) => [...r]), ...(profile ? { dbHits: totalHits(result.summary().profile) } : {}) };
  } catch (error) {
    return { error: (error as { code?: string }).code ?? String(error) };
  }
}

/** The query in the planned shape, and the reference the rewrite leaves row by row. */
function queries(label: string, fn: string, notNull: boolean, scoreColumn: boolean): [string, string] {
  const where = notNull ? ' WHERE d.v IS NOT NULL' : '';
  const call = `vector.similarity.${fn}(d.v, $q)`;
  const planned = scoreColumn
    ? `MATCH (d:${label})${where} RETURN d.id AS id, ${call} AS s ORDER BY s DESC LIMIT $k`
    : `MATCH (d:${label})${where} RETURN d.id AS id, ${call} AS s ORDER BY ${call} DESC LIMIT $k`;
  const reference = `MATCH (d:${label})${where} RETURN d.id AS id, ${call} AS s ORDER BY ${call} + 0 DESC LIMIT $k`;
  return [planned, reference];
}

/** Small integer components make exact and near ties (parallel vectors) frequent. */
const component = fc.oneof(
  fc.integer({ min: -3, max: 3 }),
  fc.integer({ min: -20_000, max: 20_000 }).map((i) => i / 7919),
);
const vector = fc.array(component, { minLength: 3, maxLength: 3 });
const odd = fc.oneof(
  fc.constant<CypherValue>([0, 0, 0]),
  fc.constant<CypherValue>([1, 2]),
  fc.constant<CypherValue>('text'),
  fc.constant<CypherValue>([1e-40, 1, 2]),
);
/** A node's property: mostly vectors, sometimes missing, now and then a value the index cannot score. */
const value = fc.oneof(
  { weight: 8, arbitrary: vector.map((v): CypherValue | undefined => v) },
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: odd },
);
const clean = fc.oneof(
  { weight: 8, arbitrary: vector.map((v): CypherValue | undefined => v) },
  { weight: 1, arbitrary: fc.constant(undefined) },
);
const scenario = fc.record({
  values: fc.oneof(fc.array(clean, { maxLength: 30 }), fc.array(value, { maxLength: 30 })),
  query: fc.oneof(
    { weight: 6, arbitrary: vector.map((v): CypherValue => v) },
    { weight: 1, arbitrary: fc.constantFrom<CypherValue>([0, 0, 0], [1, null, 2], [1, 2], null) },
  ),
  k: fc.integer({ min: 1, max: 12 }),
  label: fc.constantFrom('Doc', 'Item'),
  fn: fc.constantFrom('cosine', 'euclidean'),
  notNull: fc.boolean(),
  scoreColumn: fc.boolean(),
});

async function load(runner: Runner, values: readonly (CypherValue | undefined)[]): Promise<void> {
  await exec(runner, 'MATCH (n) WHERE n:Doc OR n:Item DETACH DELETE n');
  const rows = values.map(
    (v, i) =>
      new Map<string, CypherValue>([
        ['id', BigInt(i)],
        ['v', v === undefined ? null : v],
      ]),
  );
  await exec(runner, 'UNWIND $rows AS r CREATE (d:Doc {id: r.id}) SET d.v = r.v', { rows });
  await exec(runner, 'UNWIND $rows AS r CREATE (d:Item {id: r.id}) SET d.v = r.v', { rows });
}

/** True when the planned path can answer from the index (every property a scorable vector or missing). */
function indexServes(values: readonly (CypherValue | undefined)[], label: string, fn: string, query: CypherValue): boolean {
  const indexFn = label === 'Doc' ? 'cosine' : 'euclidean';
  const scorable = (v: CypherValue | undefined): boolean =>
    v === undefined ||
    (Array.isArray(v) &&
      v.length === 3 &&
      v.every((x) => typeof x === 'number' && (x === 0 || (Math.abs(x) >= 1e-30 && Math.abs(x) <= 1e30))) &&
      (fn === 'euclidean' || v.some((x) => x !== 0)));
  return indexFn === fn && values.every(scorable) && query !== null && scorable(query);
}

test('EXPLAIN shows NodeVectorTopK for the exact-kNN shape and keeps other sorts as they are', async () => {
  const s = db.session();
  const planned = await s.run('EXPLAIN MATCH (d:Doc) RETURN d ORDER BY vector.similarity.cosine(d.v, $q) DESC LIMIT 10', { q: [1, 2, 3] });
  await planned.pull(-1);
  const ops = operators(planned.summary().plan);
  assert.ok(ops.includes('NodeVectorTopK') && !ops.includes('Sort') && !ops.includes('NodeByLabelScan'), ops.join(' > '));
  for (const query of [
    'MATCH (d:Doc) RETURN d ORDER BY vector.similarity.cosine(d.v, $q) ASC LIMIT 10',
    'MATCH (d:Doc) WHERE d.id > 3 RETURN d ORDER BY vector.similarity.cosine(d.v, $q) DESC LIMIT 10',
    'MATCH (d:Doc) RETURN toString(d.id) AS t ORDER BY vector.similarity.cosine(d.v, $q) DESC LIMIT 10',
    'MATCH (d:Doc) RETURN d ORDER BY vector.similarity.cosine(d.v, d.w) DESC LIMIT 10',
  ]) {
    const result = await s.run(`EXPLAIN ${query}`, { q: [1, 2, 3] });
    await result.pull(-1);
    assert.ok(!operators(result.summary().plan).includes('NodeVectorTopK'), query);
  }
});

test('random graphs: the planned query answers exactly as the row-by-row plan, from the index when it can', async () => {
  const s = db.session();
  let served = 0;
  await fc.assert(
    fc.asyncProperty(scenario, async ({ values, query, k, label, fn, notNull, scoreColumn }) => {
      await load(s, values);
      const [planned, reference] = queries(label, fn, notNull, scoreColumn);
      const parameters = { q: query, k: BigInt(k) };
      const got = await outcome(s, planned, parameters, true);
      const want = await outcome(s, reference, parameters);
      assert.deepEqual({ rows: got.rows, error: got.error }, { rows: want.rows, error: want.error });
      if (indexServes(values, label, fn, query) && got.rows !== undefined) {
        served++;
        // From the index: the candidates and the missing-property scan, never every embedding.
        assert.ok(got.dbHits! < 3 * values.length || values.length < 8, `dbHits ${got.dbHits} for ${values.length} nodes`);
      }
    }),
    { numRuns: 80, seed: 17 },
  );
  assert.ok(served > 10, `only ${served} runs were served from the index`);
});

test('an explicit transaction sees its own uncommitted vector writes', async () => {
  const s = db.session();
  await fc.assert(
    fc.asyncProperty(
      fc.array(vector, { minLength: 1, maxLength: 20 }),
      fc.array(fc.tuple(fc.nat(19), vector), { maxLength: 5 }),
      vector.filter((v) => v.some((x) => x !== 0 && Math.abs(x) >= 1e-30)),
      fc.boolean(),
      async (values, updates, query, deleteOne) => {
        await load(s, values);
        const tx = await s.beginTransaction();
        try {
          const [planned, reference] = queries('Doc', 'cosine', true, false);
          const parameters = { q: query, k: 5n };
          const before = await outcome(tx, planned, parameters);
          assert.deepEqual(before, await outcome(tx, reference, parameters));
          for (const [id, v] of updates) await exec(tx, 'MATCH (d:Doc {id: $id}) SET d.v = $v', { id: BigInt(id), v });
          await exec(tx, 'CREATE (:Doc {id: 100, v: $q})', { q: query });
          if (deleteOne) await exec(tx, 'MATCH (d:Doc {id: 0}) DETACH DELETE d');
          const got = await outcome(tx, planned, parameters);
          assert.deepEqual(got, await outcome(tx, reference, parameters));
        } finally {
          await tx.rollback();
        }
        const after = await outcome(s, queries('Doc', 'cosine', true, false)[0], { q: query, k: 5n });
        assert.ok(
          after.rows!.every((row) => row[0] !== 100n),
          'the rolled-back node is not found',
        );
      },
    ),
    { numRuns: 15, seed: 3 },
  );
});

test('a read transaction older than the index answers from its own snapshot', async () => {
  const s = db.session();
  await load(
    s,
    Array.from({ length: 20 }, (_, i) => [i, 1, 0]),
  );
  const [planned, reference] = queries('Doc', 'cosine', false, true);
  const parameters = { q: [1, 0, 0], k: 3n };
  const tx = await s.beginTransaction({ mode: 'READ' });
  try {
    const before = await outcome(tx, planned, parameters);
    await exec(db.session(), 'MATCH (d:Doc) WHERE d.id < 10 SET d.v = [1, 0, 0]');
    await exec(db.session(), 'CREATE (:Doc {id: 99, v: [2, 0, 0]})');
    const now = await outcome(db.session(), planned, parameters);
    assert.deepEqual(
      now.rows?.map((r) => r[0]),
      [0n, 1n, 2n],
    );
    const old = await outcome(tx, planned, parameters);
    assert.deepEqual(old, before);
    assert.deepEqual(old, await outcome(tx, reference, parameters));
  } finally {
    await tx.rollback();
  }
});

test('without a vector index on the property the planned query runs row by row with the same answer', async () => {
  const s = db.session();
  await exec(s, 'MATCH (n:Plain) DELETE n');
  await exec(s, 'UNWIND range(0, 9) AS i CREATE (:Plain {id: i, v: [i, 1, 2]})');
  const query = 'MATCH (d:Plain) RETURN d.id AS id ORDER BY vector.similarity.euclidean(d.v, $q) DESC LIMIT 3';
  const got = await outcome(s, query, { q: [4, 1, 2] });
  assert.deepEqual(got.rows, [[4n], [3n], [5n]]);
});

test('db.index.vector.queryNodes leaves out nodes its transaction cannot see, and only those', async () => {
  const s = db.session();
  await load(
    s,
    Array.from({ length: 10 }, (_, i) => [1, i / 10, 0]),
  );
  const knn = "CALL db.index.vector.queryNodes('doc_cos', 5, [1, 0, 0]) YIELD node RETURN node.id AS id ORDER BY id";
  const ids = async (runner: Runner): Promise<CypherValue[]> => (await outcome(runner, knn, {})).rows!.map((r) => r[0]!);
  assert.deepEqual(await ids(s), [0n, 1n, 2n, 3n, 4n]);
  const reader = await s.beginTransaction({ mode: 'READ' });
  const writer = await db.session().beginTransaction();
  try {
    await exec(writer, 'MATCH (d:Doc {id: 0}) DETACH DELETE d');
    assert.deepEqual(await ids(writer), [1n, 2n, 3n, 4n], 'a node deleted in the transaction is left out');
    await writer.commit();
    await exec(db.session(), 'CREATE (:Doc {id: 50, v: [1, 0, 0]})');
    assert.deepEqual(await ids(db.session()), [1n, 2n, 3n, 4n, 50n]);
    assert.deepEqual(
      await ids(reader),
      [1n, 2n, 3n, 4n],
      'hits come from committed state: a node committed after the snapshot is left out',
    );
  } finally {
    await reader.rollback();
  }
});
