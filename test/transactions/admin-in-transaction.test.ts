/**
 * Administration commands in explicit transactions (what neo4j-driver's executeQuery and
 * executeWrite send): they run at commit, a rollback drops them, and a transaction never mixes
 * them with queries (ForbiddenDueToTransactionType, as Neo4j).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { GraphDB } from '../../src/engine/index.js';
import type { Session, Transaction } from '../../src/engine/index.js';

let db: GraphDB;
before(async () => {
  db = await GraphDB.open({ homeAlias: null });
});
after(() => db.close());

async function exec(runner: Session | Transaction, query: string): Promise<void> {
  await (await runner.run(query)).discard();
}

async function aliases(): Promise<string[]> {
  const result = await db.session().run('SHOW ALIASES FOR DATABASE YIELD name RETURN name ORDER BY name');
  return (await result.pull(-1)).records.map((record) => record[0] as string);
}

test('an administration command in an explicit transaction takes effect at commit', async () => {
  const tx = await db.session().beginTransaction({ mode: 'WRITE' });
  await exec(tx, 'CREATE ALIAS `committed-alias` FOR DATABASE `graphdb`');
  assert.deepEqual(await aliases(), [], 'not visible before the commit');
  await tx.commit();
  assert.deepEqual(await aliases(), ['committed-alias']);
});

test('a rolled-back transaction drops its administration commands', async () => {
  const tx = await db.session().beginTransaction({ mode: 'WRITE' });
  await exec(tx, 'CREATE ALIAS `dropped-alias` FOR DATABASE `graphdb`');
  await tx.rollback();
  assert.ok(!(await aliases()).includes('dropped-alias'));
});

test('administration commands and queries do not mix in one transaction', async () => {
  const first = await db.session().beginTransaction({ mode: 'WRITE' });
  await exec(first, 'CREATE ALIAS `mixed-alias` FOR DATABASE `graphdb`');
  await assert.rejects(exec(first, 'CREATE (:AfterAdmin)'), { code: 'Neo.ClientError.Transaction.ForbiddenDueToTransactionType' });
  assert.equal(first.isOpen, false);
  const second = await db.session().beginTransaction({ mode: 'WRITE' });
  await exec(second, 'MATCH (n) RETURN count(n)');
  await assert.rejects(exec(second, 'CREATE ALIAS `other-alias` FOR DATABASE `graphdb`'), {
    code: 'Neo.ClientError.Transaction.ForbiddenDueToTransactionType',
  });
  const names = await aliases();
  assert.ok(!names.includes('mixed-alias') && !names.includes('other-alias'));
});

test('a failing administration command fails the commit and leaves nothing', async () => {
  const tx = await db.session().beginTransaction({ mode: 'WRITE' });
  await exec(tx, 'CREATE ALIAS `failing-alias` FOR DATABASE `no-such-database`');
  await assert.rejects(tx.commit(), { code: 'Neo.ClientError.Database.DatabaseNotFound' });
  assert.equal(tx.isOpen, false);
  assert.ok(!(await aliases()).includes('failing-alias'));
});
