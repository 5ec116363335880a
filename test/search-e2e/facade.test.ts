/**
 * The GraphDB facade's search wiring: indexes built from existing data on first use and kept
 * fresh by commits, the Cypher procedures inside transactions, persisted embeddings across a
 * reopen (`persist_search_indexes`), databases created and dropped, and `search: false`.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { DEFAULT_CONFIG } from '../../src/engine/config/index.js';
import { GraphDB } from '../../src/engine/index.js';
import { searchSettingsFrom } from '../../src/engine/search/index.js';
import type { CypherValue } from '../../src/engine/values/types.js';

async function rows(db: GraphDB, query: string, database?: string): Promise<(readonly CypherValue[])[]> {
  const session = db.session(database === undefined ? {} : { database });
  try {
    const { records } = await (await session.run(query)).pull(-1);
    return [...records];
  } finally {
    await session.close();
  }
}

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-search-e2e-'));
}

test('existing nodes are indexed on first use; commits keep text search fresh; procedures see only their snapshot', async () => {
  const db = await GraphDB.open();
  try {
    await rows(db, "CREATE (:Movie {title: 'The Matrix'}), (:Movie {title: 'Matrix Reloaded'})");
    const first = await db.search().search({ query: 'matrix', method: 'text', limit: 10 });
    assert.equal(first.results.length, 2);
    await rows(db, "CREATE (:Movie {title: 'Matrix Resurrections'})");
    const second = await db.search().search({ query: 'matrix', method: 'text', limit: 10 });
    assert.equal(second.results.length, 3);

    await rows(db, 'CREATE FULLTEXT INDEX movieTitles FOR (n:Movie) ON EACH [n.title]');
    const session = db.session();
    const tx = await session.beginTransaction();
    try {
      await (await tx.run("MATCH (n:Movie {title: 'The Matrix'}) DELETE n")).pull(-1);
      const inside = await (
        await tx.run("CALL db.index.fulltext.queryNodes('movieTitles', 'matrix') YIELD node RETURN node.title")
      ).pull(-1);
      assert.deepEqual(
        inside.records.map((r) => r[0]).sort(),
        ['Matrix Reloaded', 'Matrix Resurrections'],
        'a node deleted in the transaction is left out',
      );
    } finally {
      await tx.rollback();
      await session.close();
    }
    const outside = await rows(
      db,
      "CALL db.index.fulltext.queryNodes('movieTitles', 'matrix', {skip: 1, limit: 5}) YIELD node RETURN node.title",
    );
    assert.equal(outside.length, 2);
  } finally {
    await db.close();
  }
});

test('persisted embeddings are loaded on reopen; a created database is searchable and a dropped one forgotten', async () => {
  const dataDir = tempDir();
  const settings = {
    ...searchSettingsFrom(DEFAULT_CONFIG),
    persistIndexes: true,
    embeddings: { ...DEFAULT_CONFIG.embeddings, dimensions: 3 },
  };
  try {
    const db = await GraphDB.open({ dataDir, search: { settings, eager: true } });
    await rows(db, "CREATE (:Point {name: 'a'}), (:Point {name: 'b'})");
    const [[idA], [idB]] = (await rows(db, 'MATCH (p:Point) RETURN id(p) ORDER BY p.name')) as [[bigint], [bigint]];
    db.search().setEmbedding(idA, [1, 0, 0]);
    db.search().setEmbedding(idB, [0, 1, 0]);
    await db.createDatabase('other');
    await rows(db, "CREATE (:Doc {text: 'only in other'})", 'other');
    assert.equal((await db.search('other').search({ query: 'other', method: 'text' })).results.length, 1);
    await db.close();
    assert.ok(fs.existsSync(path.join(dataDir, 'search', 'graphdb', 'node-embeddings.gdbv')));

    const reopened = await GraphDB.open({ dataDir, search: { settings, eager: true } });
    try {
      assert.equal(reopened.search().hasEmbedding(idA), true);
      const near = reopened.search().similar({ vector: [0.1, 1, 0], limit: 1 });
      assert.equal(near[0].nodeId, idB);
      assert.equal((await reopened.search('other').search({ query: 'other', method: 'text' })).results.length, 1);
      await reopened.dropDatabase('other');
      assert.throws(() => reopened.search('other'), /other/);
    } finally {
      await reopened.close();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('an index dropped and re-created under the same name with another definition is rebuilt', async () => {
  const db = await GraphDB.open();
  try {
    await rows(db, "CREATE (:Item {name: 'alpha', note: 'beta', v: [1.0, 0.0], w: [0.0, 1.0, 0.0]})");
    await rows(db, 'CREATE FULLTEXT INDEX items FOR (n:Item) ON EACH [n.name]');
    assert.equal((await rows(db, "CALL db.index.fulltext.queryNodes('items', 'beta')")).length, 0);
    await rows(db, 'DROP INDEX items');
    await rows(db, 'CREATE FULLTEXT INDEX items FOR (n:Item) ON EACH [n.note]');
    assert.equal((await rows(db, "CALL db.index.fulltext.queryNodes('items', 'beta')")).length, 1);

    await rows(
      db,
      "CREATE VECTOR INDEX vecs FOR (n:Item) ON n.v OPTIONS {indexConfig: {`vector.dimensions`: 2, `vector.similarity_function`: 'cosine'}}",
    );
    assert.equal((await rows(db, "CALL db.index.vector.queryNodes('vecs', 1, [1.0, 0.0])")).length, 1);
    await rows(db, 'DROP INDEX vecs');
    await rows(
      db,
      "CREATE VECTOR INDEX vecs FOR (n:Item) ON n.w OPTIONS {indexConfig: {`vector.dimensions`: 3, `vector.similarity_function`: 'euclidean'}}",
    );
    const hits = await rows(db, "CALL db.index.vector.queryNodes('vecs', 1, [0.0, 1.0, 0.0]) YIELD node, score RETURN node.name, score");
    assert.deepEqual(hits, [['alpha', 1]]);
  } finally {
    await db.close();
  }
});

test('search: false leaves the procedures out', async () => {
  const db = await GraphDB.open({ search: false });
  try {
    assert.equal(db.searchServices, null);
    await assert.rejects(rows(db, "CALL db.index.fulltext.queryNodes('x', 'y')"), /no procedure/i);
    assert.throws(() => db.search(), /disabled/);
  } finally {
    await db.close();
  }
});
