/**
 * Concurrent writers through the official neo4j-driver over Bolt (server on port 0): write sets
 * applied at commit, entity locks at the write, MERGE and uniqueness under concurrency, the
 * server-side increment, explicit locking and deadlock detection retried by executeWrite.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import neo4j, { type Driver } from 'neo4j-driver';
import { GraphDB } from '../../src/engine/index.js';
import { startBoltServer, type BoltServer } from '../../src/server/bolt/index.js';
import { eventually } from '../helpers/eventually.js';

const ADMIN = { username: null, admin: true } as const;

async function count(driver: Driver, query: string, params: Record<string, unknown> = {}): Promise<number> {
  const result = await driver.executeQuery(query, params);
  return Number(result.records[0].get(0));
}

/** Polls (bounded) until some transaction is blocked waiting for a lock. */
async function untilBlocked(db: GraphDB): Promise<void> {
  const blocked = () => db.transactions.list(ADMIN).some((t) => t.status.startsWith('Blocked'));
  await eventually(() => (blocked() ? true : undefined), 'a transaction to wait for a lock', 20_000);
}

/** Lets other callbacks run (a pause between two statements of a transaction function). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('concurrent write transactions over Bolt', () => {
  let db: GraphDB;
  let server: BoltServer;
  let driver: Driver;
  before(async () => {
    // Short lock timeouts: a writer that had to wait for the idle transaction would fail fast.
    db = await GraphDB.open({ writeLockTimeoutMs: 5_000, lockAcquisitionTimeoutMs: 5_000 });
    server = await startBoltServer({ port: 0, host: '127.0.0.1', engine: db });
    driver = neo4j.driver(`bolt://127.0.0.1:${server.port}`, neo4j.auth.basic('neo4j', 'any'), {
      maxTransactionRetryTime: 30_000,
      maxConnectionPoolSize: 32,
    });
  });
  after(async () => {
    await driver.close();
    await server.close();
    await db.close();
  });

  it('an idle explicit write transaction does not hold up 8 writers of other nodes; it commits afterwards', async () => {
    const idleSession = driver.session();
    const idle = await idleSession.beginTransaction();
    await idle.run("CREATE (:Idle {k: 'held'})");
    const sessions = Array.from({ length: 8 }, () => driver.session());
    const attempts = new Array<number>(8).fill(0);
    await Promise.all(
      sessions.map((session, i) =>
        session.executeWrite(async (tx) => {
          attempts[i]++;
          await tx.run('CREATE (:Disjoint {i: $i})', { i });
          await tx.run('MATCH (d:Disjoint {i: $i}) SET d.touched = true', { i });
        }),
      ),
    );
    assert.deepEqual(attempts, new Array<number>(8).fill(1), 'every writer succeeded at its first attempt');
    assert.equal(await count(driver, 'MATCH (d:Disjoint {touched: true}) RETURN count(d)'), 8);
    // The idle transaction was parked and its write set is applied again: it reads and commits its write.
    const own = await idle.run("MATCH (n:Idle {k: 'held'}) RETURN count(n) AS c");
    assert.equal(own.records[0].get('c').toNumber(), 1);
    await idle.commit();
    assert.equal(await count(driver, 'MATCH (n:Idle) RETURN count(n)'), 1);
    await Promise.all([...sessions, idleSession].map((s) => s.close()));
  });

  it('two transactions updating the same nodes: the deadlock victim gets a transient error that executeWrite retries to success', async () => {
    await driver.executeQuery("CREATE (:Pair {k: 'a', v: 0}), (:Pair {k: 'b', v: 0})");
    const firstSession = driver.session();
    const first = await firstSession.beginTransaction();
    await first.run("MATCH (p:Pair {k: 'a'}) SET p.v = 1");
    let attempts = 0;
    let firstBlocked: Promise<unknown> | null = null;
    const secondSession = driver.session();
    const second = secondSession.executeWrite(async (tx) => {
      attempts++;
      await tx.run("MATCH (p:Pair {k: 'b'}) SET p.v = 2");
      if (attempts === 1) {
        firstBlocked = first.run("MATCH (p:Pair {k: 'b'}) SET p.v = 1");
        await untilBlocked(db);
      }
      await tx.run("MATCH (p:Pair {k: 'a'}) SET p.v = 2");
    });
    await untilBlocked(db);
    const blocked = await eventually(
      () => (firstBlocked === null ? undefined : { statement: firstBlocked }),
      'the first transaction to block',
    );
    // Either transaction may close the wait cycle, as in Neo4j: the one that does is the victim.
    const firstOutcome = await blocked.statement.then(
      () => null,
      (error: unknown) => error as { code?: string },
    );
    if (firstOutcome === null) {
      await first.commit();
      await second;
      assert.equal(attempts, 2, 'the second transaction failed once (DeadlockDetected) and was retried');
    } else {
      assert.equal(firstOutcome.code, 'Neo.TransientError.Transaction.DeadlockDetected');
      await first.rollback();
      await second;
      assert.equal(attempts, 1, 'the first transaction was the victim: the second went through at its first attempt');
    }
    const values = await driver.executeQuery('MATCH (p:Pair) RETURN p.k AS k, p.v AS v ORDER BY k');
    assert.deepEqual(
      values.records.map((r) => [r.get('k'), r.get('v').toNumber()]),
      [
        ['a', 2],
        ['b', 2],
      ],
    );
    await firstSession.close();
    await secondSession.close();
  });

  it('a deadlock is reported as Neo.TransientError.Transaction.DeadlockDetected', async () => {
    await driver.executeQuery("CREATE (:Dl {k: 'x'}), (:Dl {k: 'y'})");
    const s1 = driver.session();
    const s2 = driver.session();
    const t1 = await s1.beginTransaction();
    const t2 = await s2.beginTransaction();
    await t1.run("MATCH (n:Dl {k: 'x'}) SET n.v = 1");
    await t2.run("MATCH (n:Dl {k: 'y'}) SET n.v = 2");
    const waiting = t1.run("MATCH (n:Dl {k: 'y'}) SET n.v = 1");
    await untilBlocked(db);
    await assert.rejects(t2.run("MATCH (n:Dl {k: 'x'}) SET n.v = 2"), { code: 'Neo.TransientError.Transaction.DeadlockDetected' });
    await waiting;
    await t1.commit();
    await s1.close();
    await s2.close();
  });

  for (const mode of ['explicit (executeWrite)', 'auto-commit'] as const) {
    it(`16 concurrent MERGE (:U {k: $k}) on the same k make exactly one node: ${mode}`, async () => {
      const k = `merge-${mode}`;
      const sessions = Array.from({ length: 16 }, () => driver.session());
      await Promise.all(
        sessions.map((session) =>
          mode === 'auto-commit'
            ? session.run('MERGE (u:U {k: $k}) ON MATCH SET u.hits = coalesce(u.hits, 0) + 1', { k })
            : session.executeWrite(async (tx) => {
                await tx.run('MERGE (u:U {k: $k}) ON MATCH SET u.hits = coalesce(u.hits, 0) + 1', { k });
                await nextTurn(); // a pause before COMMIT: the MERGE key stays locked
              }),
        ),
      );
      assert.equal(await count(driver, 'MATCH (u:U {k: $k}) RETURN count(u)', { k }), 1);
      assert.equal(await count(driver, 'MATCH (u:U {k: $k}) RETURN u.hits', { k }), 15, 'the other 15 matched it');
      await Promise.all(sessions.map((s) => s.close()));
    });
  }

  it('unique-constraint races are refused, never duplicated', async () => {
    await driver.executeQuery('CREATE CONSTRAINT person_email FOR (p:Person) REQUIRE p.email IS UNIQUE');
    const sessions = Array.from({ length: 16 }, () => driver.session());
    const outcomes = await Promise.allSettled(
      sessions.map((session, i) =>
        i % 2 === 0
          ? session.run("CREATE (:Person {email: 'race@example.com'})")
          : session.executeWrite(async (tx) => {
              await tx.run("CREATE (:Person {email: 'race@example.com'})");
              await nextTurn();
            }),
      ),
    );
    const fulfilled = outcomes.filter((o) => o.status === 'fulfilled').length;
    const codes = outcomes.flatMap((o) => (o.status === 'rejected' ? [(o.reason as { code?: string }).code] : []));
    assert.equal(fulfilled, 1);
    assert.deepEqual(new Set(codes), new Set(['Neo.ClientError.Schema.ConstraintValidationFailed']));
    assert.equal(await count(driver, "MATCH (p:Person {email: 'race@example.com'}) RETURN count(p)"), 1);
    await Promise.all(sessions.map((s) => s.close()));
  });

  it('16 sessions incrementing one counter with executeWrite and SET c.v = c.v + 1 lose nothing', async () => {
    await driver.executeQuery("CREATE (:Counter {name: 'hot', v: 0})");
    const sessions = Array.from({ length: 16 }, () => driver.session());
    await Promise.all(
      sessions.map(async (session) => {
        for (let i = 0; i < 5; i++) {
          await session.executeWrite(async (tx) => {
            await tx.run("MATCH (c:Counter {name: 'hot'}) SET c.v = c.v + 1");
          });
        }
      }),
    );
    assert.equal(await count(driver, "MATCH (c:Counter {name: 'hot'}) RETURN c.v"), 80);
    await Promise.all(sessions.map((s) => s.close()));
  });

  it('client-side read-modify-write serialises when the transaction locks the node first (SET c._lock = true)', async () => {
    await driver.executeQuery("CREATE (:Counter {name: 'locked', v: 0})");
    const sessions = Array.from({ length: 16 }, () => driver.session());
    await Promise.all(
      sessions.map(async (session) => {
        for (let i = 0; i < 3; i++) {
          await session.executeWrite(async (tx) => {
            await tx.run("MATCH (c:Counter {name: 'locked'}) SET c._lock = true");
            const read = await tx.run("MATCH (c:Counter {name: 'locked'}) RETURN c.v AS v");
            const v = read.records[0].get('v').toNumber();
            await tx.run("MATCH (c:Counter {name: 'locked'}) SET c.v = $v", { v: neo4j.int(v + 1) });
          });
        }
      }),
    );
    assert.equal(await count(driver, "MATCH (c:Counter {name: 'locked'}) RETURN c.v"), 48);
    await Promise.all(sessions.map((s) => s.close()));
  });

  it('a transaction terminated while it waits for a lock leaves nothing behind', async () => {
    await driver.executeQuery("CREATE (:Waited {k: 'w', n: 0})");
    const holderSession = driver.session();
    const holder = await holderSession.beginTransaction();
    await holder.run("MATCH (n:Waited {k: 'w'}) SET n.n = 1");
    const waiterSession = driver.session();
    const waiter = await waiterSession.beginTransaction();
    const waiting = waiter.run("MATCH (n:Waited {k: 'w'}) SET n.n = 2");
    await untilBlocked(db);
    const id = db.transactions.list(ADMIN).find((t) => t.status.startsWith('Blocked'))!.transactionId;
    await driver.executeQuery('TERMINATE TRANSACTION $id', { id });
    await assert.rejects(waiting, { code: 'Neo.ClientError.Transaction.Terminated' });
    await holder.commit();
    // Had the terminated waiter been handed the lock, this writer would time out.
    await driver.executeQuery("MATCH (n:Waited {k: 'w'}) SET n.n = 3");
    assert.equal(await count(driver, "MATCH (n:Waited {k: 'w'}) RETURN n.n"), 3);
    await Promise.all([holderSession.close(), waiterSession.close()]);
  });

  it('a procedure that writes a locked node waits for it like a clause does (apoc.create.setProperty)', async () => {
    await driver.executeQuery("CREATE (:ViaApoc {k: 'p', n: 0})");
    const holderSession = driver.session();
    const holder = await holderSession.beginTransaction();
    await holder.run("MATCH (n:ViaApoc {k: 'p'}) SET n.n = n.n + 1");
    const viaProcedure = driver.executeQuery(
      "MATCH (n:ViaApoc {k: 'p'}) CALL apoc.create.setProperty(n, 'n', n.n + 10) YIELD node RETURN node.n AS n",
    );
    await untilBlocked(db);
    await holder.commit();
    const result = await viaProcedure;
    assert.equal(Number(result.records[0].get('n')), 11, 'ran again after the holder committed, on its value');
    await holderSession.close();
  });

  it('TERMINATE TRANSACTION frees the locks of an idle transaction at once', async () => {
    await driver.executeQuery("CREATE (:Victim {k: 'v', n: 0})");
    const victimSession = driver.session();
    const victim = await victimSession.beginTransaction();
    await victim.run("MATCH (n:Victim {k: 'v'}) SET n.n = 1");
    const waiter = driver.executeQuery("MATCH (n:Victim {k: 'v'}) SET n.n = 2");
    await untilBlocked(db);
    const id = db.transactions.list(ADMIN).find((t) => !t.status.startsWith('Blocked') && t.currentQuery === '')!.transactionId;
    await driver.executeQuery('TERMINATE TRANSACTION $id', { id });
    await waiter;
    assert.equal(await count(driver, "MATCH (n:Victim {k: 'v'}) RETURN n.n"), 2);
    await victimSession.close();
  });
});
