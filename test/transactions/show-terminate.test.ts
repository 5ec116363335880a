/**
 * SHOW TRANSACTIONS and TERMINATE TRANSACTIONS on embedded sessions: the registry lists explicit
 * and running auto-commit transactions; users see their own, admins every one; a terminated
 * transaction releases its lock at once and fails its next statement and its commit with
 * Neo.ClientError.Transaction.Terminated; a running query is interrupted.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { GraphDB } from '../../src/engine/index.js';
import type { CypherValue, SecurityContext, Session } from '../../src/engine/index.js';
import { eventually } from '../helpers/eventually.js';
import { storeOf } from '../../src/engine/engine-internals.js';

let db: GraphDB;
before(async () => {
  db = await GraphDB.open({ writeLockTimeoutMs: 200 });
});
after(() => db.close());

const TERMINATED = 'Neo.ClientError.Transaction.Terminated';

function user(username: string, roles: string[]): SecurityContext {
  return { username, roles };
}

async function rows(session: Session, query: string, parameters?: Record<string, CypherValue>): Promise<Record<string, CypherValue>[]> {
  const result = await session.run(query, parameters);
  const { records } = await result.pull(-1);
  return records.map((record) => Object.fromEntries(result.keys.map((k, i) => [k, record[i] ?? null])));
}

test('SHOW TRANSACTIONS lists open explicit transactions and itself, with Neo4j ids and default columns', async () => {
  const tx = await db.session().beginTransaction({ metadata: new Map([['app', 'billing']]) });
  await (await tx.run('MATCH (n) RETURN count(n)')).pull(-1);
  const session = db.session();
  const result = await session.run('SHOW TRANSACTIONS');
  await result.discard();
  assert.deepEqual(result.keys, [
    'database',
    'transactionId',
    'currentQueryId',
    'connectionId',
    'clientAddress',
    'username',
    'currentQuery',
    'startTime',
    'status',
    'elapsedTime',
  ]);
  const listed = await rows(session, 'SHOW TRANSACTIONS YIELD transactionId, currentQuery, status, metaData, activeLockCount, protocol');
  const open = listed.find((r) => r.transactionId === tx.id);
  assert.ok(open, JSON.stringify(listed.map((r) => r.transactionId)));
  assert.match(tx.id, /^graphdb-transaction-\d+$/);
  assert.equal(open.currentQuery, '', 'no statement running in the idle transaction');
  assert.equal(open.status, 'Running');
  assert.deepEqual(open.metaData, new Map([['app', 'billing']]));
  assert.equal(open.activeLockCount, 0n, 'reading takes no lock');
  assert.equal(open.protocol, 'embedded');
  const self = listed.find((r) => typeof r.currentQuery === 'string' && r.currentQuery.startsWith('SHOW TRANSACTIONS YIELD'));
  assert.ok(self, 'the auto-commit SHOW TRANSACTIONS is itself running');
  await (await tx.run('CREATE (:Locked)')).discard();
  const locked = await rows(session, 'SHOW TRANSACTIONS $id YIELD transactionId, activeLockCount', { id: tx.id });
  assert.deepEqual(locked, [{ transactionId: tx.id, activeLockCount: 1n }]);
  await tx.rollback();
  assert.deepEqual(await rows(session, 'SHOW TRANSACTIONS $ids YIELD transactionId', { ids: [tx.id] }), [], 'gone after rollback');
  assert.equal(db.transactions.size, 0, 'nothing left registered');
});

test('a user sees and terminates only their own transactions; an admin sees and terminates all', async () => {
  const alice = db.session({ security: user('alice', ['editor']) });
  const bob = db.session({ security: user('bob', ['editor']) });
  const admin = db.session({ security: user('root', ['admin']) });
  const aliceTx = await alice.beginTransaction();
  const bobTx = await bob.beginTransaction();
  const seenBy = async (session: Session): Promise<string[]> =>
    (
      await rows(
        session,
        'SHOW TRANSACTIONS YIELD transactionId, username, currentQuery WHERE currentQuery = "" RETURN username ORDER BY username',
      )
    ).map((r) => r.username as string);
  assert.deepEqual(await seenBy(alice), ['alice']);
  assert.deepEqual(await seenBy(bob), ['bob']);
  assert.deepEqual(await seenBy(admin), ['alice', 'bob']);
  const refused = await rows(alice, 'TERMINATE TRANSACTIONS $id', { id: bobTx.id });
  assert.deepEqual(refused, [{ transactionId: bobTx.id, username: null, message: 'Transaction not found.' }]);
  assert.equal(bobTx.isOpen, true);
  const done = await rows(
    admin,
    `TERMINATE TRANSACTIONS '${aliceTx.id}', '${bobTx.id}' YIELD transactionId, username, message RETURN username, message ORDER BY username`,
  );
  assert.deepEqual(done, [
    { username: 'alice', message: 'Transaction terminated.' },
    { username: 'bob', message: 'Transaction terminated.' },
  ]);
  for (const tx of [aliceTx, bobTx]) {
    await assert.rejects(tx.run('RETURN 1'), { code: TERMINATED });
    await tx.rollback();
  }
});

test('terminating an idle transaction that holds the write lock releases it at once; its commit fails', async () => {
  const store = storeOf(db);
  const tx = await db.session().beginTransaction();
  await (await tx.run('CREATE (:Doomed)')).discard();
  assert.equal(store.writeInProgress, true);
  const outcome = await rows(db.session(), 'TERMINATE TRANSACTION $id', { id: tx.id });
  assert.equal(outcome[0]?.message, 'Transaction terminated.');
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(store.writeInProgress, false, 'lock released without waiting for the client');
  await (await db.session().run('CREATE (:Other)')).discard();
  await assert.rejects(tx.commit(), { code: TERMINATED });
  assert.deepEqual(await rows(db.session(), 'MATCH (n:Doomed) RETURN count(n) AS c'), [{ c: 0n }], 'its writes were rolled back');
  await (await db.session().run('MATCH (n:Other) DELETE n')).discard();
});

test('TERMINATE interrupts a running auto-commit query at its next row check', async () => {
  const runner = db.session();
  const result = await runner.run('UNWIND range(1, 100000) AS a UNWIND range(1, 100000) AS b WITH a WHERE a < 0 RETURN a');
  const pulling = result.pull(-1);
  const observer = db.session();
  const running = await eventually(async () => {
    const listed = await rows(
      observer,
      "SHOW TRANSACTIONS YIELD transactionId, currentQuery, currentQueryId WHERE currentQuery STARTS WITH 'UNWIND range(1, 100000) AS a'",
    );
    return listed.length > 0 ? listed : undefined;
  }, 'the running query to be listed');
  assert.equal(running.length, 1, 'the running query is listed');
  assert.match(running[0].currentQueryId as string, /^query-\d+$/);
  const started = performance.now();
  await rows(observer, 'TERMINATE TRANSACTIONS $id', { id: running[0].transactionId });
  await assert.rejects(pulling, { code: TERMINATED });
  assert.ok(performance.now() - started < 2000, 'interrupted promptly');
});

test('TERMINATE while a long read of a writing explicit transaction runs: Terminated, lock released', async () => {
  await (await db.session().run('UNWIND range(1, 300) AS i CREATE (:Grid {v: i})')).discard();
  const tx = await db.session().beginTransaction();
  await (await tx.run('CREATE (:Mine)')).discard();
  // A read after a write runs to completion on the writer (docs/transactions.md): it is still running here.
  const pulling = tx.run('MATCH (a:Grid), (b:Grid), (c:Grid) WHERE a.v + b.v + c.v < 0 RETURN a.v').then((result) => result.pull(-1));
  await eventually(async () => {
    const listed = await rows(db.session(), "SHOW TRANSACTIONS YIELD currentQuery WHERE currentQuery STARTS WITH 'MATCH (a:Grid)'");
    return listed.length > 0 ? true : undefined;
  }, 'the long read to run');
  const outcome = await rows(db.session(), 'TERMINATE TRANSACTIONS $id', { id: tx.id });
  assert.equal(outcome[0]?.message, 'Transaction terminated.');
  await assert.rejects(pulling, { code: TERMINATED });
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(storeOf(db).writeInProgress, false);
  assert.deepEqual(await rows(db.session(), 'MATCH (n:Mine) RETURN count(n) AS c'), [{ c: 0n }]);
  await assert.rejects(tx.commit(), { code: TERMINATED });
  await (await db.session().run('MATCH (n:Grid) DELETE n')).discard();
});

test('TERMINATE of unknown ids reports them; ids must be strings', async () => {
  const session = db.session();
  assert.deepEqual(await rows(session, "TERMINATE TRANSACTIONS 'graphdb-transaction-999999'"), [
    { transactionId: 'graphdb-transaction-999999', username: null, message: 'Transaction not found.' },
  ]);
  await assert.rejects(rows(session, 'TERMINATE TRANSACTIONS $id', { id: 42n }), { code: 'Neo.ClientError.Statement.TypeError' });
  await assert.rejects(rows(session, 'TERMINATE TRANSACTIONS'), { code: 'Neo.ClientError.Statement.SyntaxError' });
  await assert.rejects(rows(session, 'SHOW TRANSACTIONS x'), {
    code: 'Neo.ClientError.Statement.SyntaxError',
    message: /Variable `x` not defined/,
  });
  assert.equal(db.transactions.size, 0, 'failed statements leave nothing registered');
});
