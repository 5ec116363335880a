/**
 * Streaming laziness, batched pulls, cooperative scheduling, timeouts and termination.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { GraphDB, PlanDescription } from '../../src/engine/index.js';
import { exec, openTestDb } from './helpers.js';

let db: GraphDB;
before(async () => {
  db = await openTestDb();
  await exec(db.session(), 'UNWIND range(1, 20000) AS i CREATE (:Big {i: i})');
});
after(() => db.close());

function find(plan: PlanDescription | undefined, type: string): PlanDescription | undefined {
  if (!plan) return undefined;
  if (plan.operatorType === type) return plan;
  for (const child of plan.children) {
    const hit = find(child, type);
    if (hit) return hit;
  }
  return undefined;
}

test('LIMIT 10 on a large scan reads about ten rows', async () => {
  const result = await db.session().run('PROFILE MATCH (n:Big) RETURN n.i LIMIT 10');
  const { records } = await result.pull(-1);
  assert.equal(records.length, 10);
  const scan = find(result.summary().profile, 'NodeByLabelScan');
  assert.ok(scan && (scan.rows ?? Infinity) <= 11, `scan produced ${scan?.rows} rows`);
});

test('results can be pulled in batches', async () => {
  const result = await db.session().run('MATCH (n:Big) RETURN n.i AS i ORDER BY i');
  const first = await result.pull(5);
  assert.deepEqual(
    first.records.map((r) => r[0]),
    [1n, 2n, 3n, 4n, 5n],
  );
  assert.equal(first.hasMore, true);
  const rest = await result.pull(-1);
  assert.equal(rest.records.length, 19995);
  assert.equal(rest.hasMore, false);
});

test('a long query leaves the event loop responsive', async (t) => {
  let maxGap = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
  }, 5);
  const started = performance.now();
  const result = await db
    .session()
    .run('UNWIND range(1, 600) AS a UNWIND range(1, 500) AS b WITH a * 1000 + b AS x WHERE x % 7 = 0 RETURN count(x) AS c');
  const { records } = await result.pull(-1);
  clearInterval(timer);
  assert.deepEqual(records, [[42858n]]);
  const duration = performance.now() - started;
  t.diagnostic(`query ${duration.toFixed(0)} ms, longest event-loop gap ${maxGap.toFixed(0)} ms`);
  assert.ok(duration > 100, 'the query should take a while for the test to mean anything');
  // ~10 ms slices when the machine is idle; the bound leaves room for a loaded 2-core CI box.
  assert.ok(maxGap < Math.min(250, duration / 2), `event loop stalled for ${maxGap.toFixed(0)} ms`);
});

test('a transaction timeout stops a runaway query', async () => {
  const session = db.session();
  await assert.rejects(
    async () =>
      (await session.run('UNWIND range(1, 10000) AS a UNWIND range(1, 10000) AS b RETURN count(*)', undefined, { timeoutMs: 100 })).pull(
        -1,
      ),
    (error: { code?: string }) => error.code === 'Neo.ClientError.Transaction.TransactionTimedOut',
  );
});

test('a session can terminate its own running query', async () => {
  const session = db.session();
  const result = await session.run('UNWIND range(1, 10000) AS a UNWIND range(1, 10000) AS b RETURN count(*)');
  const pulling = result.pull(-1);
  await new Promise((resolve) => setImmediate(resolve));
  session.terminate();
  await assert.rejects(pulling, (error: { code?: string }) => error.code === 'Neo.ClientError.Transaction.Terminated');
});

test('closing a session discards its unfinished results', async () => {
  const session = db.session();
  const result = await session.run('MATCH (n:Big) RETURN n.i');
  await result.pull(3);
  await session.close();
  const summary = result.summary();
  assert.equal(summary.queryType, 'r');
  await assert.rejects(async () => session.run('RETURN 1'));
});

/** Runs `query` to the end, counting the event-loop turns (setImmediate callbacks) that ran meanwhile. */
async function turnsWhile(query: string): Promise<number> {
  let turns = 0;
  let running = true;
  const spin = (): void => {
    if (!running) return;
    turns++;
    setImmediate(spin);
  };
  setImmediate(spin);
  try {
    await (await db.session().run(query)).pull(-1);
  } finally {
    running = false;
  }
  return turns;
}

test('CREATE INDEX over existing nodes populates between time slices', async () => {
  const started = performance.now();
  const turns = await turnsWhile('CREATE INDEX big_i FOR (n:Big) ON (n.i)');
  const took = performance.now() - started;
  assert.ok(took < 16 || turns > 1, `population ran ${took.toFixed(0)} ms in ${turns} event-loop turns`);
  const [row] = (await (await db.session().run('MATCH (n:Big {i: 12345}) RETURN count(n) AS c')).pull(-1)).records;
  assert.deepEqual(row, [1n]);
  const explained = await db.session().run('EXPLAIN MATCH (n:Big {i: 1}) RETURN n');
  await explained.pull(-1);
  assert.ok(find(explained.summary().plan, 'NodeIndexSeek'), 'the populated index is used');
});
