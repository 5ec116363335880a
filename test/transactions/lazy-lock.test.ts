/**
 * Explicit transactions keep their writes in a write set and hold the writer connection only
 * while a statement runs: idle and read-only transactions never block writers; after its first
 * write a transaction reads its own writes and the latest committed state (read committed);
 * MERGE is checked against the latest state; entity lock timeouts stay transient.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { GraphDB } from '../../src/engine/index.js';
import type { CypherValue, Session, Transaction } from '../../src/engine/index.js';
import { eventually } from '../helpers/eventually.js';
import { storeOf } from '../../src/engine/engine-internals.js';

let db: GraphDB;
before(async () => {
  db = await GraphDB.open({ writeLockTimeoutMs: 150 });
});
after(() => db.close());

async function values(runner: Session | Transaction, query: string): Promise<CypherValue[]> {
  const result = await runner.run(query);
  return (await result.pull(-1)).records.map((record) => record[0] ?? null);
}

async function exec(runner: Session | Transaction, query: string): Promise<void> {
  await (await runner.run(query)).discard();
}

test('an idle write transaction does not block a second one: it commits without waiting', async () => {
  const store = storeOf(db);
  const first = await db.session().beginTransaction({ mode: 'WRITE' });
  await exec(first, 'MATCH (n) RETURN count(n)');
  assert.equal(store.writeInProgress, false, 'BEGIN and a read take no lock');
  const second = await db.session().beginTransaction({ mode: 'WRITE' });
  // Had the idle first transaction held the lock, this write would fail after the 150 ms lock timeout.
  await exec(second, 'CREATE (:Lazy {by: "second"})');
  assert.equal(store.writeInProgress, true, 'the first write takes the lock');
  await second.commit();
  assert.equal(store.writeInProgress, false);
  await exec(first, 'CREATE (:Lazy {by: "first"})');
  await first.commit();
  assert.deepEqual(await values(db.session(), 'MATCH (n:Lazy) RETURN n.by ORDER BY n.by'), ['first', 'second']);
  await exec(db.session(), 'MATCH (n:Lazy) DELETE n');
});

test('a read-only explicit transaction never takes the lock; rolling back a transaction that never wrote is free', async () => {
  const store = storeOf(db);
  const versionBefore = store.version;
  for (const mode of ['READ', 'WRITE'] as const) {
    const tx = await db.session().beginTransaction({ mode });
    await exec(tx, 'MATCH (n) RETURN n LIMIT 5');
    await exec(tx, 'RETURN 1');
    assert.equal(store.writeInProgress, false, `${mode}: no lock`);
    await exec(db.session(), 'CREATE (:WhileReading)');
    await (mode === 'READ' ? tx.commit() : tx.rollback());
  }
  assert.equal(store.version, versionBefore + 2n, 'only the two auto-commit writes committed');
  const read = await db.session().beginTransaction({ mode: 'READ' });
  await assert.rejects(exec(read, 'CREATE (:Nope)'), { code: 'Neo.ClientError.Transaction.ForbiddenDueToTransactionType' });
  assert.equal(store.writeInProgress, false);
  await exec(db.session(), 'MATCH (n:WhileReading) DELETE n');
});

test('reads, another transaction commits, then it writes: snapshot before the first write, latest state after', async () => {
  await exec(db.session(), 'CREATE (:Counter {v: 0})');
  const tx = await db.session().beginTransaction();
  assert.deepEqual(await values(tx, 'MATCH (c:Counter) RETURN c.v'), [0n]);
  await exec(db.session(), 'MATCH (c:Counter) SET c.v = c.v + 10');
  assert.deepEqual(await values(tx, 'MATCH (c:Counter) RETURN c.v'), [0n], 'still on its snapshot before writing');
  await exec(tx, 'MATCH (c:Counter) SET c.v = c.v + 1');
  assert.deepEqual(await values(tx, 'MATCH (c:Counter) RETURN c.v'), [11n], 'the write saw the committed +10: no lost update');
  await tx.commit();
  assert.deepEqual(await values(db.session(), 'MATCH (c:Counter) RETURN c.v'), [11n]);
  await exec(db.session(), 'MATCH (c:Counter) DELETE c');
});

test('MERGE in a transaction that read first is checked against the latest committed state', async () => {
  const tx = await db.session().beginTransaction();
  assert.deepEqual(await values(tx, "MATCH (p:Person {name: 'Ada'}) RETURN count(p)"), [0n]);
  await exec(db.session(), "CREATE (:Person {name: 'Ada'})");
  const merged = await tx.run("MERGE (p:Person {name: 'Ada'}) RETURN p.name");
  await merged.pull(-1);
  assert.equal(merged.summary().counters.nodesCreated, 0, 'matched the committed node');
  await tx.commit();
  assert.deepEqual(await values(db.session(), "MATCH (p:Person {name: 'Ada'}) RETURN count(p)"), [1n]);
  await exec(db.session(), 'MATCH (p:Person) DELETE p');
});

test('a writer next to an idle writer of other data neither waits nor fails: both commit', async () => {
  const holder = await db.session().beginTransaction();
  await exec(holder, 'CREATE (:Held)');
  const other = await db.session().beginTransaction();
  assert.deepEqual(await values(other, 'MATCH (n:Held) RETURN count(n)'), [0n], 'uncommitted writes are invisible');
  await exec(other, 'CREATE (:NotBlocked)');
  await other.commit();
  assert.deepEqual(
    await values(holder, 'MATCH (n) WHERE n:Held OR n:NotBlocked RETURN count(n)'),
    [2n],
    'its own write plus the committed one',
  );
  await holder.commit();
  assert.equal(storeOf(db).writeInProgress, false);
  assert.deepEqual(await values(db.session(), 'MATCH (n) WHERE n:Held OR n:NotBlocked RETURN count(n)'), [2n]);
  await exec(db.session(), 'MATCH (n) WHERE n:Held OR n:NotBlocked DELETE n');
});

test("a writer of a node another transaction holds waits for it, then sees the holder's write (no lost update)", async () => {
  await exec(db.session(), 'CREATE (:Queue {n: 1})');
  const holder = await db.session().beginTransaction();
  await exec(holder, 'MATCH (q:Queue) SET q.n = q.n + 1');
  const waiter = await db.session().beginTransaction();
  const pending = waiter.run('MATCH (q:Queue) SET q.n = q.n + 1 RETURN q.n');
  await eventually(
    () => (db.transactions.list({ username: null, admin: true }).some((t) => t.status.startsWith('Blocked')) ? true : undefined),
    'the waiter to block',
  );
  await holder.commit();
  const result = await pending;
  assert.deepEqual((await result.pull(-1)).records, [[3n]]);
  await waiter.commit();
  assert.deepEqual(await values(db.session(), 'MATCH (q:Queue) RETURN q.n'), [3n]);
  await exec(db.session(), 'MATCH (q:Queue) DELETE q');
});

test('a writer of a node held by an idle transaction gives up after the lock timeout with a transient error', async () => {
  await exec(db.session(), 'CREATE (:Stuck {n: 1})');
  const holder = await db.session().beginTransaction();
  await exec(holder, 'MATCH (s:Stuck) SET s.n = 2');
  const waiter = await db.session().beginTransaction();
  await assert.rejects(exec(waiter, 'MATCH (s:Stuck) SET s.n = 3'), { code: 'Neo.TransientError.Transaction.LockAcquisitionTimeout' });
  assert.equal(waiter.isOpen, false);
  await holder.commit();
  assert.deepEqual(await values(db.session(), 'MATCH (s:Stuck) RETURN s.n'), [2n]);
  await exec(db.session(), 'MATCH (s:Stuck) DELETE s');
});

test('EXPLAIN of an updating statement in an explicit transaction takes no lock', async () => {
  const tx = await db.session().beginTransaction();
  await exec(tx, 'EXPLAIN CREATE (:Explained)');
  assert.equal(storeOf(db).writeInProgress, false);
  await tx.rollback();
});
