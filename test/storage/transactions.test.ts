import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChangeEvent } from '../../src/engine/storage/index.js';
import { props, tempEngine } from './helpers.js';

test('a reader keeps its snapshot while a writer commits; reads at older versions and times', async () => {
  const env = tempEngine();
  try {
    const db = env.engine.database();
    const w1 = await db.beginWrite();
    const a = w1.createNode(['P'], props({ n: 1n }));
    const v1 = w1.commit();
    assert.equal(v1, 1n);
    const afterV1 = new Date();
    // The next commit's time must be later than afterV1 (commit times have millisecond resolution).
    while (Date.now() <= afterV1.getTime()) await new Promise((resolve) => setImmediate(resolve));

    const reader = db.beginRead();
    assert.equal(reader.version, 1n);
    const w2 = await db.beginWrite();
    w2.setNodeProperty(a, 'n', 2n);
    const b = w2.createNode(['P'], props({ n: 10n }));
    w2.createRelationship('R', a, b, new Map());
    assert.equal(w2.nodeProperty(a, 'n'), 2n, 'writer sees its own writes');
    assert.equal(w2.countNodes('P'), 2);
    assert.equal(reader.nodeProperty(a, 'n'), 1n, 'reader does not see uncommitted writes');
    assert.equal(w2.commit(), 2n);

    assert.equal(reader.nodeProperty(a, 'n'), 1n, 'reader keeps its snapshot after the commit');
    assert.equal(reader.getNode(b), null);
    assert.equal(reader.countNodes(), 1);
    assert.deepEqual([...reader.expand(a, 'both')], []);
    reader.close();

    const w3 = await db.beginWrite();
    w3.deleteNode(a, true);
    w3.commit();

    const now = db.beginRead();
    assert.equal(now.version, 3n);
    assert.equal(now.getNode(a), null);
    assert.equal(now.countRelationships(), 0);
    now.close();

    for (const [version, expectedN, rels] of [
      [0n, undefined, 0],
      [1n, 1n, 0],
      [2n, 2n, 1],
      [3n, undefined, 0],
    ] as const) {
      const old = db.readAt(version);
      assert.equal(old.version, version);
      assert.equal(old.nodeProperty(a, 'n'), expectedN, `n at version ${version}`);
      assert.equal(old.countRelationships(), rels, `relationships at ${version}`);
      assert.equal([...old.expand(a, 'out', ['R'])].length, rels);
      old.close();
    }
    const atTime = db.readAtTime(afterV1);
    assert.equal(atTime.version, 1n);
    assert.deepEqual(atTime.getNode(a)?.labels, ['P']);
    atTime.close();
    assert.throws(() => db.readAt(9n), { code: 'Neo.ClientError.Statement.ArgumentError' });
  } finally {
    env.dispose();
  }
});

test('rollback leaves no trace: no rows, no history, no counter drift, no tokens, ids unconsumed', async () => {
  const env = tempEngine();
  try {
    const db = env.engine.database();
    const w1 = await db.beginWrite();
    const a = w1.createNode(['Keep'], props({ x: 1n }));
    w1.commit();
    const before = db.mvccStatus();

    const w2 = await db.beginWrite();
    const b = w2.createNode(['Ghost'], props({ ghostKey: 1n }));
    w2.createRelationship('GHOST_REL', a, b, props({ ghostKey: 2n }));
    w2.setNodeProperty(a, 'x', 99n);
    w2.addLabels(a, ['GhostLabel']);
    w2.createIndex(
      { name: 'ghost', type: 'RANGE', entityType: 'NODE', labelsOrTypes: ['Ghost'], properties: ['ghostKey'], options: new Map() },
      false,
    );
    w2.rollback();

    const r = db.beginRead();
    assert.equal(r.version, 1n);
    assert.equal(r.countNodes(), 1);
    assert.equal(r.countRelationships(), 0);
    assert.deepEqual(r.labels(), ['Keep']);
    assert.deepEqual(r.relationshipTypes(), []);
    assert.deepEqual(r.propertyKeys(), ['x']);
    assert.equal(r.nodeProperty(a, 'x'), 1n);
    assert.equal(r.indexes().filter((i) => i.type !== 'LOOKUP').length, 0);
    r.close();
    assert.deepEqual(db.mvccStatus().closedVersions, before.closedVersions);

    const w3 = await db.beginWrite();
    const c = w3.createNode(['Other'], new Map());
    assert.equal(c, b, 'the rolled back id is handed out again');
    w3.commit();
    const reopened = env.reopen().database();
    const r2 = reopened.beginRead();
    assert.deepEqual(r2.labels(), ['Keep', 'Other']);
    assert.deepEqual(r2.nodeLabels(c), ['Other']);
    r2.close();
  } finally {
    env.dispose();
  }
});

test('savepoints roll back one statement and its counters, keeping earlier work', async () => {
  const env = tempEngine();
  try {
    const db = env.engine.database();
    const tx = await db.beginWrite();
    const a = tx.createNode(['A'], props({ v: 1n }));
    const sp = tx.savepoint();
    tx.createNode(['B'], props({ brandNew: 2n }));
    tx.setNodeProperty(a, 'v', 5n);
    assert.equal(tx.counters.nodesCreated, 2);
    sp.rollbackTo();
    assert.equal(tx.counters.nodesCreated, 1);
    assert.equal(tx.counters.propertiesSet, 1);
    assert.equal(tx.countNodes(), 1);
    assert.equal(tx.nodeProperty(a, 'v'), 1n);
    const sp2 = tx.savepoint();
    tx.addLabels(a, ['C']);
    sp2.release();
    tx.commit();
    const r = db.beginRead();
    assert.deepEqual(r.labels(), ['A', 'C']);
    assert.deepEqual(r.propertyKeys(), ['v']);
    r.close();
  } finally {
    env.dispose();
  }
});

test('counters follow Neo4j conventions', async () => {
  const env = tempEngine();
  try {
    const tx = await env.engine.database().beginWrite();
    const a = tx.createNode(['A', 'A', 'B'], props({ x: 1n, y: null }));
    const b = tx.createNode([], new Map());
    tx.createRelationship('R', a, b, props({ w: 1n }));
    tx.setNodeProperty(b, 'missing', null);
    tx.setNodeProperty(a, 'x', 1n);
    tx.replaceNodeProperties(a, props({ z: 3n }));
    assert.equal(tx.addLabels(a, ['A', 'C']), 1);
    assert.equal(tx.removeLabels(a, ['B', 'Nope']), 1);
    tx.deleteNode(a, true);
    assert.deepEqual(
      { ...tx.counters },
      {
        nodesCreated: 2,
        nodesDeleted: 1,
        relationshipsCreated: 1,
        relationshipsDeleted: 1,
        propertiesSet: 1 + 1 + 1 + 2,
        labelsAdded: 3,
        labelsRemoved: 1,
        indexesAdded: 0,
        indexesRemoved: 0,
        constraintsAdded: 0,
        constraintsRemoved: 0,
      },
    );
    tx.rollback();
  } finally {
    env.dispose();
  }
});

test('change events are published after commit only, never for rollback', async () => {
  const env = tempEngine();
  try {
    const db = env.engine.database();
    const received: ChangeEvent[][] = [];
    const unsubscribe = env.engine.events.subscribe((events) => received.push([...events]));
    const w1 = await db.beginWrite();
    const a = w1.createNode(['A'], props({ v: 1n }));
    const b = w1.createNode(['B'], new Map());
    const r = w1.createRelationship('R', a, b, new Map());
    assert.equal(received.length, 0, 'nothing before commit');
    w1.commit();
    assert.equal(received.length, 1);
    assert.deepEqual(
      received[0].map((e) => e.kind),
      ['nodeCreated', 'nodeCreated', 'relationshipCreated'],
    );

    const w2 = await db.beginWrite();
    w2.setNodeProperty(a, 'v', 2n);
    w2.rollback();
    assert.equal(received.length, 1, 'nothing for rollback');

    const w3 = await db.beginWrite();
    w3.setNodeProperty(a, 'v', 3n);
    w3.deleteRelationship(r);
    const temp = w3.createNode(['Temp'], new Map());
    w3.deleteNode(temp, false);
    w3.commit();
    const last = received[1];
    assert.deepEqual(
      last.map((e) => e.kind),
      ['nodeUpdated', 'relationshipDeleted'],
    );
    const updated = last[0];
    assert.ok(updated.kind === 'nodeUpdated' && updated.node.properties.get('v') === 3n);
    unsubscribe();
  } finally {
    env.dispose();
  }
});

test('one writer at a time: the second waits, and past its timeout fails with a TransientError', async () => {
  const env = tempEngine();
  try {
    const db = env.engine.database();
    const first = await db.beginWrite();
    first.createNode(['First'], new Map());
    assert.equal(db.tryBeginWrite(), null);
    const timedOut = db.beginWrite({ timeoutMs: 30 });
    await assert.rejects(timedOut, (error: { code: string; isTransient: boolean }) => {
      assert.equal(error.code, 'Neo.TransientError.Transaction.DeadlockDetected');
      assert.equal(error.isTransient, true);
      return true;
    });
    let secondStarted = false;
    const waiting = db.beginWrite({ timeoutMs: 5000 }).then((tx) => {
      secondStarted = true;
      return tx;
    });
    for (let turn = 0; turn < 10; turn++) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(secondStarted, false, 'the second writer waits (the first holds the lock however long it takes)');
    assert.equal(first.commit(), 1n);
    const second = await waiting;
    assert.equal(second.countNodes('First'), 1, 'the second writer sees the first commit');
    second.createNode(['Second'], new Map());
    assert.equal(second.commit(), 2n);
  } finally {
    env.dispose();
  }
});

test('element ids carry the database uuid and parse back', async () => {
  const env = tempEngine();
  try {
    const db = env.engine.database();
    const tx = await db.beginWrite();
    const n = tx.createNode([], new Map());
    const r = tx.createRelationship('R', n, n, new Map());
    tx.commit();
    const reader = db.beginRead();
    const nodeElementId = reader.nodeElementId(n);
    assert.equal(nodeElementId, `4:${db.uuid}:${n}`);
    assert.equal(reader.relationshipElementId(r), `5:${db.uuid}:${r}`);
    assert.equal(reader.idFromElementId(nodeElementId), n);
    assert.equal(reader.idFromElementId('4:someone-else:1'), null);
    assert.equal(reader.idFromElementId('garbage'), null);
    assert.equal(reader.degree(n, 'both'), 1, 'a self loop counts once');
    assert.equal([...reader.expand(n, 'both')].length, 1);
    assert.equal(reader.degree(n, 'out', ['R']), 1);
    reader.close();
    const uuid = db.uuid;
    assert.equal(env.reopen().database().uuid, uuid, 'uuid is stable across reopen');
  } finally {
    env.dispose();
  }
});

test('labels are reported in label-token order, like Neo4j', async () => {
  const env = tempEngine();
  try {
    const tx = await env.engine.database().beginWrite();
    tx.createNode(['A'], new Map());
    const n = tx.createNode(['C', 'B', 'A', 'C'], new Map());
    assert.deepEqual(tx.nodeLabels(n), ['A', 'C', 'B']);
    tx.addLabels(n, ['D', 'A']);
    assert.deepEqual(tx.nodeLabels(n), ['A', 'C', 'B', 'D']);
    tx.removeLabels(n, ['C']);
    assert.deepEqual(tx.getNode(n)?.labels, ['A', 'B', 'D']);
    tx.rollback();
  } finally {
    env.dispose();
  }
});

test('read-transaction scans return correct rows across pages, nested scans and concurrent commits', async () => {
  const env = tempEngine();
  try {
    const db = env.engine.database();
    const tx = await db.beginWrite();
    for (let i = 0; i < 700; i++) tx.createNode(i % 3 === 0 ? ['A'] : ['B'], props({ i: BigInt(i) }));
    tx.commit();
    const reader = db.beginRead();
    const writer = await db.beginWrite();
    for (const id of writer.allNodeIds()) writer.setNodeProperty(id, 'i', -1n);
    writer.commit();
    let outer = 0;
    for (const a of reader.nodeIdsByLabel('A')) {
      assert.equal(reader.nodeProperty(a, 'i'), a);
      if (outer++ % 50 === 0) {
        let inner = 0;
        for (const b of reader.nodeIdsByLabel('B')) {
          assert.equal(reader.nodeProperty(b, 'i'), b);
          assert.deepEqual(reader.nodeLabels(b), ['B']);
          inner++;
        }
        assert.equal(inner, 466);
        assert.equal(reader.nodeProperty(a, 'i'), a, 'outer rows still correct after a nested scan');
      }
    }
    assert.equal(outer, 234);
    let all = 0;
    for (const id of reader.allNodeIds()) {
      assert.equal(reader.getNode(id)?.properties.get('i'), id);
      all++;
    }
    assert.equal(all, 700);
    reader.close();
  } finally {
    env.dispose();
  }
});

test('closing a database fails waiting writers and rolls back the open one', async () => {
  const env = tempEngine();
  try {
    const db = env.engine.database();
    const first = await db.beginWrite();
    first.createNode(['Lost'], new Map());
    const waiting = db.beginWrite({ timeoutMs: 60_000 });
    db.close();
    await assert.rejects(waiting, { code: 'Neo.TransientError.General.DatabaseUnavailable' });
    assert.equal(first.isOpen, false);
    const reopened = env.reopen().database().beginRead();
    assert.equal(reopened.countNodes(), 0);
    reopened.close();
  } finally {
    env.dispose();
  }
});

test('a closed read transaction refuses further reads instead of reading another snapshot', async () => {
  const env = tempEngine();
  try {
    const db = env.engine.database();
    const tx = await db.beginWrite();
    for (let i = 0; i < 100; i++) tx.createNode(['N'], new Map());
    tx.commit();
    const reader = db.beginRead();
    const scan = reader.nodeIdsByLabel('N')[Symbol.iterator]();
    scan.next();
    reader.close();
    assert.equal(reader.isOpen, false);
    assert.throws(() => reader.getNode(0n), { code: 'Neo.ClientError.Transaction.TransactionNotFound' });
    const old = db.readAt(1n);
    old.close();
    assert.throws(() => old.countNodes(), { code: 'Neo.ClientError.Transaction.TransactionNotFound' });
    const other = db.beginRead();
    assert.throws(
      () => {
        for (let i = 0; i < 100; i++) scan.next();
      },
      { code: 'Neo.ClientError.Transaction.TransactionNotFound' },
    );
    assert.equal(other.countNodes('N'), 100);
    other.close();
  } finally {
    env.dispose();
  }
});
