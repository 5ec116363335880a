/**
 * Transaction timeouts as Neo4j has them, through the official neo4j-driver over Bolt: an open
 * explicit transaction that stays idle past `transactionIdleTimeoutMs` (server.transaction_idle_timeout)
 * is rolled back and frees what it held; the driver's per-transaction `timeout` (Bolt BEGIN
 * `tx_timeout`) and the configured default (database.transaction_timeout, Neo4j's
 * db.transaction.timeout) bound an idle transaction the same way.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import neo4j, { type Driver } from 'neo4j-driver';
import { GraphDB } from '../../src/engine/index.js';
import { startBoltServer, type BoltServer } from '../../src/server/bolt/index.js';
import { eventually } from '../helpers/eventually.js';
import { startTestServer } from '../http/helpers.js';

const ADMIN = { username: null, admin: true } as const;

/** Waits (polling the registry, bounded) until no explicit transaction of `db` is open. */
async function untilNoTransactions(db: GraphDB): Promise<void> {
  await eventually(() => (db.transactions.list(ADMIN).length === 0 ? true : undefined), 'the transaction to be rolled back', 20_000);
}

async function withServer(
  options: Parameters<typeof GraphDB.open>[0],
  body: (driver: Driver, db: GraphDB) => Promise<void>,
): Promise<void> {
  const db = await GraphDB.open(options);
  const server = await startBoltServer({ port: 0, host: '127.0.0.1', engine: db });
  const driver = neo4j.driver(`bolt://127.0.0.1:${server.port}`, neo4j.auth.basic('neo4j', 'any'), { maxTransactionRetryTime: 0 });
  try {
    await body(driver, db);
  } finally {
    await driver.close();
    await server.close();
    await db.close();
  }
}

describe('transaction timeouts over Bolt', () => {
  let db: GraphDB;
  let server: BoltServer;
  let driver: Driver;
  before(async () => {
    db = await GraphDB.open({ transactionIdleTimeoutMs: 300 });
    server = await startBoltServer({ port: 0, host: '127.0.0.1', engine: db });
    driver = neo4j.driver(`bolt://127.0.0.1:${server.port}`, neo4j.auth.basic('neo4j', 'any'), { maxTransactionRetryTime: 0 });
  });
  after(async () => {
    await driver.close();
    await server.close();
    await db.close();
  });

  it('an idle explicit transaction is rolled back after the idle timeout and its next statement fails', async () => {
    const session = driver.session();
    const tx = await session.beginTransaction();
    await tx.run("CREATE (:IdleBolt {k: 'x'})");
    await untilNoTransactions(db);
    await assert.rejects(tx.run('RETURN 1'), (error: { code?: string; message?: string }) => {
      assert.equal(error.code, 'Neo.ClientError.Transaction.Terminated');
      assert.match(error.message ?? '', /idle for more than 300 ms/);
      return true;
    });
    await session.close();
    const count = await driver.executeQuery('MATCH (n:IdleBolt) RETURN count(n) AS c');
    assert.equal(count.records[0].get('c').toNumber(), 0, 'its write was rolled back');
    // Whatever it held is free: a writer of the same node commits at once.
    await driver.executeQuery("CREATE (:IdleBolt {k: 'x'})");
    await driver.executeQuery('MATCH (n:IdleBolt) DELETE n');
  });

  it('a transaction that keeps running statements is not idle', async () => {
    const session = driver.session();
    const tx = await session.beginTransaction();
    // Statements back to back for more than twice the idle timeout: never idle that long at once.
    const began = Date.now();
    let statements = 0;
    while (Date.now() - began < 700) await tx.run('CREATE (:Busy {i: $i})', { i: statements++ });
    await tx.commit();
    const count = await driver.executeQuery('MATCH (n:Busy) RETURN count(n) AS c');
    assert.equal(count.records[0].get('c').toNumber(), statements);
    await session.close();
  });
});

describe('db.transaction.timeout and the driver timeout', () => {
  it("the driver's per-transaction timeout (Bolt tx_timeout) rolls back an idle transaction", async () => {
    await withServer({}, async (driver, db) => {
      const session = driver.session();
      const tx = await session.beginTransaction({ timeout: 250 });
      await tx.run('CREATE (:TimedOut)');
      await untilNoTransactions(db);
      await assert.rejects(tx.commit(), (error: { code?: string; message?: string }) => {
        assert.equal(error.code, 'Neo.ClientError.Transaction.Terminated');
        assert.match(error.message ?? '', /db\.transaction\.timeout/);
        return true;
      });
      await session.close();
      const count = await driver.executeQuery('MATCH (n:TimedOut) RETURN count(n) AS c');
      assert.equal(count.records[0].get('c').toNumber(), 0);
    });
  });

  it('the configured default timeout applies when the driver sends none', async () => {
    await withServer({ transactionTimeoutMs: 250 }, async (driver, db) => {
      const session = driver.session();
      const tx = await session.beginTransaction();
      await tx.run('CREATE (:DefaultTimeout)');
      await untilNoTransactions(db);
      await assert.rejects(tx.run('RETURN 1'), { code: 'Neo.ClientError.Transaction.Terminated' });
      await session.close();
    });
  });
});

describe('the server settings', () => {
  it('database.transaction_timeout and server.transaction_idle_timeout reach Bolt and HTTP transactions', async () => {
    const t = await startTestServer({
      'server.bolt_enabled': true,
      'server.bolt_port': 0,
      'server.bolt_address': '127.0.0.1',
      'server.transaction_idle_timeout': '60s',
      'database.transaction_timeout': '300ms',
    });
    const driver = neo4j.driver(`bolt://127.0.0.1:${t.server.bolt!.port}`, neo4j.auth.basic('neo4j', 'any'), {
      maxTransactionRetryTime: 0,
    });
    try {
      const session = driver.session();
      const tx = await session.beginTransaction();
      await tx.run('CREATE (:ServerTimeout)');
      const begin = await fetch(`${t.url}/db/graphdb/tx`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ statements: [{ statement: 'CREATE (:ServerTimeout)' }] }),
      });
      assert.equal(begin.status, 201);
      // Both time out after 300 ms: wait until the engine holds neither, then each reports it.
      await untilNoTransactions(t.server.engine.graphdb);
      await assert.rejects(tx.run('RETURN 1'), /db\.transaction\.timeout/);
      await session.close();
      const late = await fetch(begin.headers.get('location')!, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ statements: [{ statement: 'RETURN 1' }] }),
      });
      const body = (await late.json()) as { errors: { code: string }[] };
      const outcome = late.status === 404 ? 'gone' : (body.errors[0]?.code ?? '');
      assert.match(outcome, /^(gone|Neo\.ClientError\.Transaction\.(Terminated|TransactionTimedOut))$/);
      const count = await driver.executeQuery('MATCH (n:ServerTimeout) RETURN count(n) AS c');
      assert.equal(count.records[0].get('c').toNumber(), 0);
    } finally {
      await driver.close();
      await t.stop();
    }
  });
});

describe('the lock and write-set settings', () => {
  it('database.lock_acquisition_timeout and database.transaction_max_write_set act on Bolt transactions', async () => {
    const t = await startTestServer({
      'server.bolt_enabled': true,
      'server.bolt_port': 0,
      'server.bolt_address': '127.0.0.1',
      'database.lock_acquisition_timeout': '200ms',
      'database.transaction_max_write_set': '64kb',
    });
    const driver = neo4j.driver(`bolt://127.0.0.1:${t.server.bolt!.port}`, neo4j.auth.basic('neo4j', 'any'), {
      maxTransactionRetryTime: 0,
    });
    try {
      await driver.executeQuery("CREATE (:Setting {k: 'lock'})");
      const holderSession = driver.session();
      const holder = await holderSession.beginTransaction();
      await holder.run("MATCH (n:Setting {k: 'lock'}) SET n.by = 'holder'");
      const started = Date.now();
      await assert.rejects(driver.executeQuery("MATCH (n:Setting {k: 'lock'}) SET n.by = 'other'"), {
        code: 'Neo.TransientError.Transaction.LockAcquisitionTimeout',
      });
      assert.ok(Date.now() - started < 8_000, 'gave up after the configured 200 ms, not the 10 s default');
      await holder.commit();
      await holderSession.close();
      const session = driver.session();
      const tx = await session.beginTransaction();
      await assert.rejects(tx.run("UNWIND range(1, 5000) AS i CREATE (:Setting {i: i, s: 'some text'})"), {
        code: 'Neo.TransientError.General.MemoryPoolOutOfMemoryError',
      });
      await session.close();
    } finally {
      await driver.close();
      await t.stop();
    }
  });
});
