import { test } from 'node:test';
import assert from 'node:assert/strict';
import { props, tempEngine } from './helpers.js';

async function churn(db: ReturnType<ReturnType<typeof tempEngine>['engine']['database']>, id: bigint, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    const tx = await db.beginWrite();
    tx.setNodeProperty(id, 'v', BigInt(i));
    tx.commit();
  }
}

test('prune keeps heads, respects maxVersions and open readers, and raises the floor', async () => {
  const env = tempEngine();
  try {
    const db = env.engine.database();
    const setup = await db.beginWrite();
    const a = setup.createNode(['A'], props({ v: -1n }));
    const b = setup.createNode(['B'], props({ v: -1n }));
    setup.commit();
    await churn(db, a, 10);
    assert.equal(db.mvccStatus().closedVersions.nodes, 10);

    const pinned = db.readAt(3n);
    const pinnedValue = pinned.nodeProperty(a, 'v');
    const status = db.mvccStatus();
    assert.equal(status.activeReaders, 1);
    assert.equal(status.oldestReaderVersion, 3n);
    assert.ok(status.bytesPinnedByOldestReader > 0);

    const first = await db.prune({ maxVersions: 2 });
    assert.equal(first.prunedVersions, 2, 'only versions closed before the pinned reader (3) go');
    assert.equal(pinned.nodeProperty(a, 'v'), pinnedValue, 'the open reader still reads its version');
    pinned.close();

    const second = await db.prune({ maxVersions: 2 });
    assert.equal(second.prunedVersions, 6);
    assert.equal(db.mvccStatus().closedVersions.nodes, 2);
    assert.equal(second.pruneFloor, 9n, 'versions before 9 are no longer complete');
    const below = db.readAt(8n);
    assert.equal(below.getNode(a), null, 'below the floor a pruned version answers not-found');
    assert.equal(below.nodeProperty(b, 'v'), -1n, 'a key that was never pruned still reads below the floor');
    below.close();
    const recent = db.readAt(10n);
    assert.equal(recent.nodeProperty(a, 'v'), 8n);
    recent.close();

    const r = db.beginRead();
    assert.equal(r.nodeProperty(a, 'v'), 9n, 'head untouched');
    assert.equal(r.nodeProperty(b, 'v'), -1n, 'an unchanged head is never pruned');
    r.close();
  } finally {
    env.dispose();
  }
});

test('prune with a TTL keeps recently closed versions', async () => {
  const env = tempEngine();
  try {
    const db = env.engine.database();
    const setup = await db.beginWrite();
    const a = setup.createNode([], props({ v: 0n }));
    setup.commit();
    await churn(db, a, 3);
    assert.equal((await db.prune({ ttlMs: 60_000 })).prunedVersions, 0);
    assert.equal((await db.prune({ ttlMs: 0 })).prunedVersions, 3);
    assert.equal(db.mvccStatus().closedVersions.nodes, 0);
  } finally {
    env.dispose();
  }
});
