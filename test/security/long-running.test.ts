/**
 * Every query can be stopped (issue #24): expressions iterating huge lists, LOAD CSV and
 * shortestPath stop at the transaction timeout or on TERMINATE TRANSACTION from another session;
 * `+` refuses lists and strings beyond the JavaScript engine's limits with a ClientError instead of
 * aborting the process.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { GraphDB } from '../../src/engine/index.js';
import { MAX_LIST_LENGTH, add } from '../../src/engine/values/arithmetic.js';
import { rows } from '../execution/helpers.js';

let db: GraphDB;
before(async () => {
  db = await GraphDB.open({ search: false, transactionTimeoutMs: 300 });
});
after(async () => {
  await db.close();
});

async function failsWith(query: string, code: string, database = db): Promise<void> {
  await assert.rejects(rows(database.session(), query), (error: { code?: string; message: string }) => {
    assert.equal(error.code, code, error.message);
    return true;
  });
}

test('reduce, list comprehensions and quantifiers over huge lists stop at the transaction timeout', async () => {
  const timedOut = 'Neo.ClientError.Transaction.TransactionTimedOut';
  await failsWith('WITH range(1, 3000000) AS l RETURN reduce(s = 0, i IN l | s + i) AS r', timedOut);
  await failsWith('WITH range(1, 3000000) AS l RETURN size([i IN l WHERE i % 2 = 0 | i * 2]) AS r', timedOut);
  await failsWith('WITH range(1, 3000000) AS l RETURN all(i IN l WHERE i > 0) AS r', timedOut);
});

test('LOAD CSV and shortestPath stop on TERMINATE TRANSACTION from another session', async () => {
  const untimed = await GraphDB.open({ search: false });
  try {
    writeFileSync(join(untimed.importDirectory, 'long.csv'), 'a,b\n'.repeat(3_000_000));
    await rows(untimed.session(), 'UNWIND range(1, 400) AS i CREATE (:P {i: i})');
    await rows(untimed.session(), 'MATCH (a:P), (b:P) WHERE b.i = a.i + 1 OR b.i = a.i + 7 CREATE (a)-[:R]->(b)');
    const queries = [
      "LOAD CSV FROM 'file:///long.csv' AS r WITH r UNWIND range(1, 50) AS k RETURN count(*) AS c",
      'MATCH (a:P), (b:P) MATCH p = shortestPath((a)-[:R*]-(b)) RETURN count(p) AS c',
    ];
    for (const query of queries) {
      const running = rows(untimed.session(), query).then(
        () => 'completed',
        (error: { code?: string }) => error.code ?? 'no code',
      );
      const admin = untimed.session();
      let id: unknown = null;
      while (id === null) {
        const listed = await rows(admin, 'SHOW TRANSACTIONS YIELD transactionId, currentQuery');
        id = listed.find((row) => (row.currentQuery as string).startsWith(query.slice(0, 20)))?.transactionId ?? null;
      }
      await rows(admin, `TERMINATE TRANSACTION '${id as string}'`);
      assert.equal(await running, 'Neo.ClientError.Transaction.Terminated', query);
    }
  } finally {
    await untimed.close();
  }
});

test('+ refuses a list or string beyond the engine limits with a ClientError', async () => {
  const sparse: unknown[] = [];
  sparse.length = MAX_LIST_LENGTH / 2 + 1;
  assert.throws(
    () => add(sparse as never, sparse as never),
    (error: { code?: string }) => error.code === 'Neo.ClientError.Statement.ArgumentError',
  );
  await failsWith("RETURN size(reduce(s = 'x', i IN range(1, 40) | s + s)) AS r", 'Neo.ClientError.Statement.ArgumentError');
});
