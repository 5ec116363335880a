import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StorageEngine } from '../../src/engine/storage/index.js';
import { props, tempEngine } from './helpers.js';

test('readers of one version share a snapshot; a commit starts a new one and the old ends with its last reader', async () => {
  const env = tempEngine();
  try {
    const db = env.engine.database();
    const setup = await db.beginWrite();
    const a = setup.createNode(['A'], props({ v: 1n }));
    setup.commit();

    const r1 = db.beginRead();
    const r2 = db.beginRead();
    assert.equal(r1.version, r2.version);
    assert.equal(db.readConnectionsInUse, 1, 'two readers of one version use one connection');
    assert.equal(db.mvccStatus().activeReaders, 2);

    const tx = await db.beginWrite();
    tx.setNodeProperty(a, 'v', 2n);
    tx.createNode(['A'], props({ v: 3n }));
    tx.commit();

    const r3 = db.beginRead();
    assert.equal(r3.version, r1.version + 1n);
    assert.equal(r3.nodeProperty(a, 'v'), 2n);
    assert.equal(r3.countNodes('A'), 2);
    assert.equal(r1.nodeProperty(a, 'v'), 1n, 'an open reader keeps its snapshot after a commit');
    assert.equal(r1.countNodes('A'), 1);
    assert.equal(r2.countNodes(), 1);
    assert.equal(db.readConnectionsInUse, 2);

    r1.close();
    assert.equal(db.readConnectionsInUse, 2, 'the old snapshot still has a reader');
    r2.close();
    assert.equal(db.readConnectionsInUse, 1, 'the old snapshot ended with its last reader');
    assert.throws(() => r2.nodeProperty(a, 'v'), { code: 'Neo.ClientError.Transaction.TransactionNotFound' });
    r2.close();
    assert.equal(db.readConnectionsInUse, 1, 'closing twice is harmless');

    r3.close();
    assert.equal(db.mvccStatus().activeReaders, 0);
    const r4 = db.beginRead();
    assert.equal(r4.version, r3.version, 'an idle snapshot of the current version is reused');
    assert.equal(db.readConnectionsInUse, 1);
    r4.close();

    const tx2 = await db.beginWrite();
    tx2.setNodeProperty(a, 'v', 4n);
    tx2.commit();
    assert.equal(db.readConnectionsInUse, 0, 'a commit ends an idle snapshot (nothing holds the WAL back)');
    const r5 = db.beginRead();
    assert.equal(r5.nodeProperty(a, 'v'), 4n);
    r5.close();
  } finally {
    env.dispose();
  }
});

test('counts a snapshot remembers belong to its version only', async () => {
  const env = tempEngine();
  try {
    const db = env.engine.database();
    const before = db.beginRead();
    assert.equal(before.countNodes(), 0);
    assert.equal(before.countRelationships('R'), 0);
    const tx = await db.beginWrite();
    const x = tx.createNode(['L'], props({}));
    tx.createRelationship('R', x, x, props({}));
    assert.equal(tx.countNodes('L'), 1, 'a writer sees its own uncommitted counts');
    tx.commit();
    assert.equal(before.countNodes(), 0);
    const after = db.beginRead();
    assert.equal(after.countNodes(), 1);
    assert.equal(after.countNodes('L'), 1);
    assert.equal(after.countRelationships('R'), 1);
    assert.equal(after.countRelationships(), 1);
    before.close();
    after.close();
  } finally {
    env.dispose();
  }
});

test('a commit by another connection to the same file is seen by the next reader', async () => {
  const env = tempEngine();
  const other = StorageEngine.open({ dataDir: env.dir });
  try {
    const db = env.engine.database();
    const seed = await db.beginWrite();
    const a = seed.createNode(['A'], props({ v: 1n }));
    seed.commit();
    const idle = db.beginRead();
    assert.equal(idle.nodeProperty(a, 'v'), 1n);
    idle.close();

    const foreign = await other.database().beginWrite();
    foreign.setNodeProperty(a, 'v', 2n);
    foreign.createNode(['NewLabel'], props({ w: 5n }));
    foreign.commit();

    const reader = db.beginRead();
    assert.equal(reader.nodeProperty(a, 'v'), 2n, 'the shared snapshot was replaced');
    assert.equal(reader.countNodes('NewLabel'), 1, 'tokens created by the other connection are known');
    assert.equal(reader.version, db.version);
    reader.close();

    const own = await db.beginWrite();
    const b = own.createNode(['A'], props({ v: 9n }));
    own.commit();
    const check = other.database().beginRead();
    assert.equal(check.nodeProperty(b, 'v'), 9n);
    check.close();
  } finally {
    other.close();
    env.dispose();
  }
});

test('the oldest reader is reported after readers close out of order', async () => {
  const env = tempEngine();
  try {
    const db = env.engine.database();
    let now = Date.now();
    db.readerRegistry.clock = () => now;
    const first = db.beginRead();
    now += 5;
    const second = db.readAt(0n);
    const third = db.beginRead();
    const status = db.mvccStatus();
    assert.equal(status.activeReaders, 3);
    assert.equal(status.oldestReaderVersion, 0n);
    first.close();
    const later = db.mvccStatus();
    assert.equal(later.activeReaders, 2);
    assert.ok(later.oldestReaderAgeSeconds !== null && later.oldestReaderAgeSeconds < status.oldestReaderAgeSeconds!);
    second.close();
    third.close();
    assert.equal(db.mvccStatus().activeReaders, 0);
    assert.equal(db.mvccStatus().oldestReaderAgeSeconds, null);
    assert.equal(db.readConnectionsInUse, 1, 'only the idle shared snapshot stays open');
  } finally {
    env.dispose();
  }
});
