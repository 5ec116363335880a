import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GraphDB } from '../../src/engine/index.js';
import { exec, openTestDb, rows } from './helpers.js';
import { storeOf } from '../../src/engine/engine-internals.js';

let db: GraphDB;
before(async () => {
  db = await openTestDb();
});
after(() => db.close());

test('an explicit transaction reads its own writes; rollback leaves no trace', async () => {
  const s = db.session();
  const tx = await s.beginTransaction();
  await (await tx.run('CREATE (:T {v: 1})')).discard();
  const inside = await (await tx.run('MATCH (t:T) RETURN t.v')).pull(-1);
  assert.deepEqual(inside.records, [[1n]]);
  await tx.rollback();
  assert.deepEqual(await rows(s, 'MATCH (t:T) RETURN count(t) AS c'), [{ c: 0n }]);
});

test('commit makes writes visible to other sessions and returns a bookmark', async () => {
  const s = db.session();
  const tx = await s.beginTransaction();
  await (await tx.run('CREATE (:C)')).discard();
  const bookmark = await tx.commit();
  assert.match(bookmark, /graphdb:/);
  assert.deepEqual(await rows(db.session(), 'MATCH (c:C) RETURN count(c) AS c'), [{ c: 1n }]);
  await exec(s, 'MATCH (n) DETACH DELETE n');
});

test('an error in an auto-commit statement rolls the whole statement back', async () => {
  const s = db.session();
  await assert.rejects(async () => exec(s, 'UNWIND [1, 0] AS x CREATE (:E {v: 10 / x})'));
  assert.deepEqual(await rows(s, 'MATCH (e:E) RETURN count(e) AS c'), [{ c: 0n }]);
});

test('a writer of other data does not wait for an idle transaction; a writer of the same node waits, then fails with a transient error', async () => {
  const slow = await GraphDBWithLockTimeout();
  const first = await slow.session().beginTransaction();
  await (await first.run('CREATE (:X {k: 1})')).discard();
  await exec(slow.session(), 'CREATE (:Y)');
  await first.commit();
  const holder = await slow.session().beginTransaction();
  await (await holder.run('MATCH (x:X) SET x.k = 2')).discard();
  await assert.rejects(
    async () => exec(slow.session(), 'MATCH (x:X) SET x.k = 3'),
    (error: { code?: string }) => (error.code ?? '').includes('TransientError'),
  );
  await holder.rollback();
  await slow.close();
});

async function GraphDBWithLockTimeout(): Promise<GraphDB> {
  const { GraphDB } = await import('../../src/engine/index.js');
  return GraphDB.open({ writeLockTimeoutMs: 50 });
}

test('USE selects another database; CREATE/SHOW/DROP DATABASE work as statements', async () => {
  const s = db.session();
  await exec(s, 'CREATE DATABASE other');
  const names = (await rows(s, 'SHOW DATABASES')).map((r) => r.name);
  assert.ok(names.includes('other'), JSON.stringify(names));
  await exec(s, 'USE other CREATE (:InOther)');
  assert.deepEqual(await rows(s, 'USE other MATCH (n:InOther) RETURN count(n) AS c'), [{ c: 1n }]);
  assert.deepEqual(await rows(s, 'MATCH (n:InOther) RETURN count(n) AS c'), [{ c: 0n }]);
  await exec(s, 'DROP DATABASE other');
});

test('CALL { } IN TRANSACTIONS OF n ROWS commits every n rows in auto-commit', async () => {
  const s = db.session();
  const store = storeOf(db);
  const before = store.version;
  const result = await s.run('UNWIND range(1, 5) AS i CALL (i) { CREATE (:Batch {i: i}) } IN TRANSACTIONS OF 2 ROWS');
  const summary = await result.discard();
  assert.equal(store.version - before, 3n, 'three batches, three commits');
  assert.equal(summary.counters.nodesCreated, 5);
  assert.deepEqual(await rows(s, 'MATCH (b:Batch) RETURN count(b) AS c'), [{ c: 5n }]);
  const tx = await s.beginTransaction();
  await assert.rejects(async () => tx.run('UNWIND [1] AS i CALL (i) { CREATE (:Batch) } IN TRANSACTIONS'));
  await exec(s, 'MATCH (n) DETACH DELETE n');
});

test('LOAD CSV into CALL { } IN TRANSACTIONS streams: batches before a bad record stay committed, as in Neo4j', async () => {
  const s = db.session();
  const lines = ['id'];
  for (let i = 1; i <= 25; i++) lines.push(String(i));
  lines.push('"unterminated');
  mkdirSync(db.importDirectory, { recursive: true });
  writeFileSync(join(db.importDirectory, 'stream-batches.csv'), `${lines.join('\n')}\n`);
  await assert.rejects(async () =>
    (
      await s.run(
        "LOAD CSV WITH HEADERS FROM 'file:///stream-batches.csv' AS r CALL (r) { CREATE (:Streamed {id: r.id}) } IN TRANSACTIONS OF 10 ROWS",
      )
    ).discard(),
  );
  assert.deepEqual(
    await rows(s, 'MATCH (n:Streamed) RETURN count(n) AS c'),
    [{ c: 20n }],
    'the two full batches read before the bad record',
  );
  await exec(s, 'MATCH (n:Streamed) DELETE n');
});
