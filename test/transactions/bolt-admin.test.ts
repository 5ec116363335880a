/**
 * The official neo4j-driver over Bolt on the real engine: an idle explicit transaction does not
 * block executeWrite; SHOW TRANSACTIONS reports the Bolt connection and client address;
 * TERMINATE TRANSACTIONS from another connection makes the victim's next statement fail with
 * Neo.ClientError.Transaction.Terminated.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import neo4j, { type Driver } from 'neo4j-driver';
import { GraphDB } from '../../src/engine/index.js';
import { startBoltServer, type BoltServer } from '../../src/server/bolt/index.js';

describe('transaction administration over Bolt', () => {
  let db: GraphDB;
  let server: BoltServer;
  let driver: Driver;
  before(async () => {
    db = await GraphDB.open({ writeLockTimeoutMs: 100 });
    server = await startBoltServer({ port: 0, host: '127.0.0.1', engine: db });
    driver = neo4j.driver(`bolt://127.0.0.1:${server.port}`, neo4j.auth.basic('neo4j', 'any'), { maxTransactionRetryTime: 0 });
  });
  after(async () => {
    await driver.close();
    await server.close();
    await db.close();
  });

  it('an idle explicit transaction does not make executeWrite wait', async () => {
    const idle = driver.session();
    const tx = await idle.beginTransaction();
    await tx.run('MATCH (n) RETURN count(n)');
    const writer = driver.session();
    // Had the idle transaction held the lock, this would fail with a transient error after 100 ms (no retries).
    await writer.executeWrite((work) => work.run('CREATE (:FromDriver)'));
    await tx.run('CREATE (:FromIdle)');
    await tx.commit();
    const count = await driver.executeQuery('MATCH (n) WHERE n:FromDriver OR n:FromIdle RETURN count(n) AS c');
    assert.ok(neo4j.int(2).equals(count.records[0].get('c')));
    await idle.close();
    await writer.close();
  });

  it('SHOW TRANSACTIONS shows the Bolt client; TERMINATE ends the victim with Transaction.Terminated', async () => {
    const victimSession = driver.session();
    const victim = await victimSession.beginTransaction();
    await victim.run('CREATE (:Victim)');
    const admin = driver.session();
    const listed = await admin.run(
      'SHOW TRANSACTIONS YIELD transactionId, connectionId, clientAddress, activeLockCount, protocol, currentQuery WHERE activeLockCount > 0 RETURN *',
    );
    assert.equal(listed.records.length, 1);
    const row = listed.records[0];
    assert.match(row.get('connectionId'), /^bolt-\d+$/);
    assert.match(row.get('clientAddress'), /^127\.0\.0\.1:\d+$/);
    assert.equal(row.get('protocol'), 'bolt');
    const terminated = await admin.run('TERMINATE TRANSACTIONS $id', { id: row.get('transactionId') });
    assert.equal(terminated.records[0].get('message'), 'Transaction terminated.');
    await assert.rejects(victim.run('RETURN 1'), (error: { code?: string }) => {
      assert.equal(error.code, 'Neo.ClientError.Transaction.Terminated');
      return true;
    });
    await victim.close().catch(() => undefined);
    await victimSession.close();
    const after = await admin.run('MATCH (n:Victim) RETURN count(n) AS c');
    assert.ok(neo4j.int(0).equals(after.records[0].get('c')), 'the terminated transaction was rolled back');
    await admin.executeWrite((work) => work.run('CREATE (:AfterTermination)'));
    await admin.close();
  });
});
