import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { tempEngine } from './helpers.js';

test('the catalog has system and the default database; databases are created, listed, persisted and dropped', async () => {
  const env = tempEngine();
  try {
    const engine = env.engine;
    assert.deepEqual(
      engine.listDatabases().map((d) => [d.name, d.isDefault, d.isSystem]),
      [
        ['graphdb', true, false],
        ['system', false, true],
      ],
    );
    assert.equal(await engine.createDatabase('Movies'), true);
    assert.equal(await engine.createDatabase('movies', true), false);
    await assert.rejects(engine.createDatabase('movies'), { code: 'Neo.ClientError.Database.ExistingDatabaseFound' });
    await assert.rejects(engine.createDatabase('no_underscores'), { code: 'Neo.ClientError.Statement.ArgumentError' });
    const movies = engine.database('MOVIES');
    assert.equal(movies.name, 'movies');
    const tx = await movies.beginWrite();
    tx.createNode(['Movie'], new Map());
    tx.commit();
    assert.equal(engine.database().stats().nodes, 0, 'databases are separate');
    assert.ok(fs.existsSync(path.join(env.dir, 'movies.db')));

    const reopened = env.reopen();
    assert.deepEqual(
      reopened.listDatabases().map((d) => d.name),
      ['graphdb', 'movies', 'system'],
    );
    assert.equal(reopened.database('movies').stats().nodes, 1);
    assert.throws(() => reopened.database('nope'), { code: 'Neo.ClientError.Database.DatabaseNotFound' });
    await assert.rejects(reopened.dropDatabase('system'), { code: 'Neo.ClientError.Statement.UnsupportedOperationError' });
    assert.equal(await reopened.dropDatabase('movies'), true);
    assert.equal(await reopened.dropDatabase('movies', true), false);
    assert.ok(!fs.existsSync(path.join(env.dir, 'movies.db')));
    assert.equal(await reopened.createDatabase('movies'), true);
    assert.equal(reopened.database('movies').stats().nodes, 0, 'a recreated database starts empty');
    assert.ok(reopened.database('system').version >= 3n, 'catalog changes are system database commits');
  } finally {
    env.dispose();
  }
});

test('stats report counts, version and bytes on disk', async () => {
  const env = tempEngine();
  try {
    const db = env.engine.database();
    const tx = await db.beginWrite();
    const a = tx.createNode(['A'], new Map());
    tx.createRelationship('R', a, a, new Map());
    tx.commit();
    const stats = db.stats();
    assert.equal(stats.nodes, 1);
    assert.equal(stats.relationships, 1);
    assert.equal(stats.version, 1n);
    assert.ok(stats.dataSizeBytes > 0);
  } finally {
    env.dispose();
  }
});

test("two engines on one data directory see each other's commits (e.g. a CLI next to a server)", async () => {
  const env = tempEngine();
  const { StorageEngine } = await import('../../src/engine/storage/index.js');
  const second = StorageEngine.open({ dataDir: env.dir });
  try {
    const one = env.engine.database();
    const two = second.database();
    const a = await one.beginWrite();
    const first = a.createNode(['FromOne'], new Map([['k', 1n]]));
    a.commit();
    const b = await two.beginWrite();
    assert.equal(b.countNodes('FromOne'), 1);
    const next = b.createNode(['FromTwo'], new Map([['other', 2n]]));
    assert.notEqual(next, first, "ids continue after the other process's");
    b.createIndex(
      { name: 'two_other', type: 'RANGE', entityType: 'NODE', labelsOrTypes: ['FromTwo'], properties: ['other'], options: new Map() },
      false,
    );
    b.commit();
    const r = one.beginRead();
    assert.deepEqual(r.nodeLabels(next), ['FromTwo']);
    assert.equal(r.nodeProperty(next, 'other'), 2n);
    assert.deepEqual([...r.seekNodes('FromTwo', 'other', { kind: 'equals', value: 2n })], [next]);
    r.close();
  } finally {
    second.close();
    env.dispose();
  }
});
