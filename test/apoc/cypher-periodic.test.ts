/**
 * apoc.cypher, apoc.when/case, apoc.do.* and apoc.periodic: values as APOC documents them, in
 * both transaction modes; iterate commits per batch in auto-commit statements, rolls a failing
 * batch back alone and reports it; background jobs run on the engine's scheduler (waited on
 * through the commit stream, never by sleeping).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { GraphDB, Session } from '../../src/engine/index.js';
import { MODES, openDb, plain, run, value } from './helpers.js';

let db: GraphDB;
let session: Session;
before(async () => {
  db = await openDb();
  session = db.session();
  await run(session, 'UNWIND range(1, 25) AS i CREATE (:Item {i: i})');
});
after(() => db.close());

for (const mode of MODES) {
  describe(`apoc.cypher and conditionals (${mode})`, () => {
    test('run binds params as variables and parameters', async () => {
      const rows = await run(
        session,
        "CALL apoc.cypher.run('MATCH (n:Item) WHERE n.i < max AND n.i >= $min RETURN n.i AS i ORDER BY i', {max: 4, min: 2}) YIELD value RETURN value.i AS i",
        undefined,
        mode,
      );
      assert.deepEqual(
        rows.map((r) => r.i),
        [2n, 3n],
      );
    });
    test('run refuses writes; doIt writes in the same transaction', async () => {
      await assert.rejects(run(session, "CALL apoc.cypher.run('CREATE (:Nope)', {}) YIELD value RETURN value", undefined, mode));
      assert.deepEqual(
        plain(
          await value(
            session,
            "CALL apoc.cypher.doIt('CREATE (n:Done {m: m}) RETURN n.m AS m', {m: $m}) YIELD value RETURN value",
            { m: mode },
            mode,
          ),
        ),
        { m: mode },
      );
      assert.equal(await value(session, 'MATCH (n:Done {m: $m}) RETURN count(n) AS c', { m: mode }, mode), 1n);
    });
    test('runMany returns rows and statistics per statement', async () => {
      const rows = await run(
        session,
        "CALL apoc.cypher.runMany('CREATE (:Many {m: $m}); MATCH (x:Many {m: $m}) RETURN count(x) AS c;', {m: $m}) YIELD row, result RETURN row, result",
        { m: mode },
        mode,
      );
      assert.equal(rows.length, 3);
      assert.equal((rows[0].result as Map<string, unknown>).get('nodesCreated'), 1n);
      assert.deepEqual([rows[1].row, plain(rows[1].result)], [0n, { c: 1n }]);
    });
    test('runFirstColumn functions, when and case', async () => {
      assert.equal(
        await value(session, "RETURN apoc.cypher.runFirstColumnSingle('MATCH (n:Item) RETURN count(n)', {}) AS v", undefined, mode),
        25n,
      );
      assert.deepEqual(
        await value(session, "RETURN apoc.cypher.runFirstColumnMany('UNWIND [1, 2] AS x RETURN x', {}) AS v", undefined, mode),
        [1n, 2n],
      );
      assert.equal(
        await value(
          session,
          "CALL apoc.when(1 > 2, 'RETURN 1 AS r', 'RETURN $a + 1 AS r', {a: 41}) YIELD value RETURN value.r AS r",
          undefined,
          mode,
        ),
        42n,
      );
      assert.equal(
        await value(
          session,
          "CALL apoc.case([false, 'RETURN 1 AS r', true, 'RETURN 2 AS r'], 'RETURN 3 AS r') YIELD value RETURN value.r AS r",
          undefined,
          mode,
        ),
        2n,
      );
      assert.equal(
        await value(
          session,
          "CALL apoc.do.when(true, 'CREATE (n:WhenNode {m: m}) RETURN n.m AS m', '', {m: $m}) YIELD value RETURN value.m AS m",
          { m: mode },
          mode,
        ),
        mode,
      );
    });
    test('runTimeboxed stops a long statement', async () => {
      const rows = await run(
        session,
        "CALL apoc.cypher.runTimeboxed('UNWIND range(1, 100000000) AS x RETURN x', {}, 50) YIELD value RETURN count(*) AS c",
        undefined,
        mode,
      );
      assert.ok((rows[0].c as bigint) < 100000000n);
    });
  });

  describe(`apoc.periodic (${mode})`, () => {
    test('iterate processes every row in batches and reports statistics', async () => {
      const rows = await run(
        session,
        "CALL apoc.periodic.iterate('MATCH (n:Item) RETURN n', 'SET n.seen = $m', {batchSize: 10, params: {m: $m}}) YIELD batches, total, committedOperations, failedOperations, failedBatches, updateStatistics RETURN *",
        { m: mode },
        mode,
      );
      assert.deepEqual(
        [rows[0].batches, rows[0].total, rows[0].committedOperations, rows[0].failedOperations, rows[0].failedBatches],
        [3n, 25n, 25n, 0n, 0n],
      );
      assert.equal((rows[0].updateStatistics as Map<string, unknown>).get('propertiesSet'), 25n);
      assert.equal(await value(session, 'MATCH (n:Item {seen: $m}) RETURN count(n) AS c', { m: mode }, mode), 25n);
    });
    test('a failing batch is rolled back alone and reported', async () => {
      const rows = await run(
        session,
        "CALL apoc.periodic.iterate('UNWIND range(1, 5) AS x RETURN x', 'CREATE (:Div {m: $m, v: 10 / (x - 3)})', {batchSize: 1, params: {m: $m}}) YIELD batches, failedBatches, failedOperations, errorMessages, failedParams RETURN *",
        { m: mode },
        mode,
      );
      assert.deepEqual([rows[0].batches, rows[0].failedBatches, rows[0].failedOperations], [5n, 1n, 1n]);
      assert.deepEqual(plain(rows[0].errorMessages), { '/ by zero': 1n });
      assert.deepEqual(plain(rows[0].failedParams), { '2': [{ x: 3n }] });
      assert.equal(await value(session, 'MATCH (n:Div {m: $m}) RETURN count(n) AS c', { m: mode }, mode), 4n);
    });
    test('commit repeats a limited statement until it returns 0', async () => {
      await run(session, 'MATCH (n:Item) SET n.todo = true', undefined, mode);
      const rows = await run(
        session,
        "CALL apoc.periodic.commit('MATCH (n:Item) WHERE n.todo WITH n LIMIT $limit SET n.todo = false RETURN count(*)', {limit: 10}) YIELD updates, executions RETURN *",
        undefined,
        mode,
      );
      assert.deepEqual(rows, [{ updates: 25n, executions: 4n }]);
      await assert.rejects(
        run(session, "CALL apoc.periodic.commit('MATCH (n) RETURN count(n)', {})", undefined, mode),
        /must contain a `limit`/,
      );
    });
  });
}

describe('per-batch transactions', () => {
  test('in an auto-commit statement each batch commits on its own (observed on the commit stream)', async () => {
    const perCommit: number[] = [];
    const stop = db.onChange((events) => {
      const created = events.filter((e) => e.kind === 'nodeCreated' && e.node.labels.includes('Batched')).length;
      if (created > 0) perCommit.push(created);
    });
    await run(session, "CALL apoc.periodic.iterate('UNWIND range(1, 30) AS x RETURN x', 'CREATE (:Batched {x: x})', {batchSize: 10})");
    stop();
    assert.deepEqual(perCommit, [10, 10, 10]);
  });
  test('background jobs: submit runs once, repeat until cancelled, list and cancel', async () => {
    const created = new Promise<void>((resolve) => {
      const stop = db.onChange((events) => {
        if (events.some((event) => event.kind === 'nodeCreated' && event.node.labels.includes('Submitted'))) {
          stop();
          resolve();
        }
      });
    });
    const submitted = await run(session, "CALL apoc.periodic.submit('once', 'CREATE (:Submitted)') YIELD name, done RETURN *");
    assert.deepEqual(submitted, [{ name: 'once', done: false }]);
    await created;
    await run(session, "CALL apoc.periodic.repeat('every', 'MATCH (n:Nothing) RETURN n', 3600)");
    const listed = await run(session, 'CALL apoc.periodic.list() YIELD name, rate, cancelled RETURN * ORDER BY name');
    assert.deepEqual(
      listed.map((r) => [r.name, r.rate, r.cancelled]),
      [
        ['every', 3600n, false],
        ['once', 0n, false],
      ],
    );
    const cancelled = await run(session, "CALL apoc.periodic.cancel('every') YIELD name, cancelled RETURN *");
    assert.deepEqual(cancelled, [{ name: 'every', cancelled: true }]);
    assert.equal(await value(session, 'MATCH (n:Submitted) RETURN count(n) AS c'), 1n);
  });
});
