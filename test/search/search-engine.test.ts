import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StorageEngine } from '../../src/engine/storage/index.js';
import { SearchManager } from '../../src/engine/search/search-manager.js';
import type { CypherValue } from '../../src/engine/values/types.js';
import { HashEmbedder, testSettings, testTuning } from './helpers/settings.js';

const props = (entries: Record<string, CypherValue>) => new Map(Object.entries(entries));

async function withEngine(
  run: (engine: StorageEngine, search: SearchManager, dbName: string) => Promise<void>,
  embedder?: HashEmbedder,
): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'graphdb-search-'));
  const engine = StorageEngine.open({ dataDir });
  const search = new SearchManager({
    settings: testSettings({ embeddings: { enabled: embedder !== undefined }, search: { min_similarity: 0 } }),
    events: engine.events,
    embedder: embedder ?? null,
    tuning: testTuning,
    embeddingDelayMs: 0,
    loadNode: (database, id) => {
      const reader = engine.database(database).beginRead();
      try {
        return reader.getNode(id);
      } finally {
        reader.close();
      }
    },
  });
  try {
    await run(engine, search, engine.database().name);
  } finally {
    await search.close();
    engine.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

test('a committed node is findable by text at once; deletes and rollbacks are respected', async () => {
  await withEngine(async (engine, search, name) => {
    const db = engine.database();
    const w = await db.beginWrite();
    const id = w.createNode(['Doc'], props({ title: 'Graph databases and query languages' }));
    w.createNode(['Doc'], props({ title: 'Cooking with cast iron' }));
    w.commit();
    const page = await search.database(name).search({ query: 'database', method: 'text' });
    assert.deepEqual(
      page.results.map((r) => r.nodeId),
      [id],
    );

    const rolledBack = await db.beginWrite();
    rolledBack.createNode(['Doc'], props({ title: 'another database' }));
    rolledBack.rollback();
    assert.equal((await search.database(name).search({ query: 'database', method: 'text' })).results.length, 1);

    const del = await db.beginWrite();
    del.deleteNode(id, true);
    del.commit();
    assert.equal((await search.database(name).search({ query: 'database', method: 'text' })).results.length, 0, 'cache invalidated');
  });
});

test('a large commit is indexed in slices after it returns, and every read applies what is still queued first', async () => {
  await withEngine(async (engine, search, name) => {
    const db = engine.database();
    const setup = await db.beginWrite();
    setup.createIndex(
      { name: 'titles', type: 'FULLTEXT', entityType: 'NODE', labelsOrTypes: ['Doc'], properties: ['title'], options: new Map() },
      false,
    );
    setup.commit();
    const reader = db.beginRead();
    search.database(name).syncIndexes(reader);
    reader.close();
    const service = search.database(name);
    const write = async (from: number, count: number): Promise<bigint[]> => {
      const w = await db.beginWrite();
      const ids: bigint[] = [];
      for (let i = from; i < from + count; i++) ids.push(w.createNode(['Doc'], props({ title: `document number${i}` })));
      w.commit();
      return ids;
    };
    const small = await write(0, 10);
    assert.equal(service.queuedEvents, 0, 'a small commit is applied at once');
    const large = await write(10, 2000);
    assert.equal(service.queuedEvents, 2000, 'a large commit is queued, not applied inside the commit');
    const last = large[large.length - 1];
    assert.deepEqual(
      service.queryFulltext('titles', 'number2009').map((h) => h.nodeId),
      [last],
      'a read applies the queue first',
    );
    assert.equal(service.queuedEvents, 0);

    const second = await write(2010, 2000);
    assert.equal(service.queuedEvents, 2000);
    let turns = 0;
    while (service.queuedEvents > 0) {
      await new Promise((resolve) => setImmediate(resolve));
      turns++;
    }
    assert.ok(turns >= 1, 'drained by the event loop, one slice per turn');
    const page = await service.search({ query: 'number4009', method: 'text' });
    assert.deepEqual(
      page.results.map((r) => r.nodeId),
      [second[second.length - 1]],
    );
    assert.equal(service.status().text_documents, small.length + large.length + second.length);
  });
});

test('FULLTEXT and VECTOR indexes from the catalog, queried like Neo4j procedures', async () => {
  await withEngine(async (engine, search, name) => {
    const db = engine.database();
    const w = await db.beginWrite();
    const a = w.createNode(['Movie'], props({ title: 'The Matrix', plot: 'a hacker learns the truth', embedding: [1, 0, 0] }));
    const b = w.createNode(['Movie'], props({ title: 'Matrix Reloaded', plot: 'more hackers', embedding: [0.8, 0.6, 0] }));
    w.createNode(['Book'], props({ title: 'Matrix algebra', embedding: [1, 0, 0] }));
    w.createIndex(
      { name: 'titles', type: 'FULLTEXT', entityType: 'NODE', labelsOrTypes: ['Movie'], properties: ['title', 'plot'], options: new Map() },
      false,
    );
    w.createIndex(
      {
        name: 'plots',
        type: 'VECTOR',
        entityType: 'NODE',
        labelsOrTypes: ['Movie'],
        properties: ['embedding'],
        options: props({ indexConfig: props({ 'vector.dimensions': 3n, 'vector.similarity_function': 'cosine' }) }),
      },
      false,
    );
    w.commit();
    const reader = db.beginRead();
    assert.deepEqual(search.database(name).syncIndexes(reader).sort(), ['plots', 'titles']);
    reader.close();
    const ft = search.database(name).queryFulltext('titles', 'matrix AND truth');
    assert.deepEqual(
      ft.map((h) => h.nodeId),
      [a],
    );
    const vec = search.database(name).queryVectorIndex('plots', 2, [1, 0, 0]);
    assert.deepEqual(
      vec.map((h) => h.nodeId),
      [a, b],
    );
    assert.equal(vec[0].score, 1);
    assert.ok(Math.abs(vec[1].score - 0.9) < 1e-6, 'score (1 + 0.8) / 2');

    const w2 = await db.beginWrite();
    const c = w2.createNode(['Movie'], props({ title: 'Matrix Resurrections', embedding: [0.99, 0.01, 0] }));
    w2.commit();
    assert.equal(search.database(name).queryVectorIndex('plots', 1, [0.99, 0.01, 0])[0].nodeId, c, 'fresh after commit');
    assert.ok(
      search
        .database(name)
        .queryFulltext('titles', 'resurrections')
        .some((h) => h.nodeId === c),
    );
    assert.throws(() => search.database(name).queryVectorIndex('plots', 1, [1, 0]), /3/);
    assert.throws(() => search.database(name).queryFulltext('nope', 'x'), /no such fulltext schema index/);
  });
});

test('hybrid search fuses BM25 and vectors with RRF, embeds in the background, reports status', async () => {
  const embedder = new HashEmbedder(64);
  await withEngine(async (engine, search, name) => {
    const db = engine.database();
    const w = await db.beginWrite();
    const graph = w.createNode(['Doc'], props({ text: 'graph database with vector search' }));
    const vectorOnly = w.createNode(['Note'], props({ text: 'vector search tutorial' }));
    w.createNode(['Doc'], props({ text: 'gardening tips' }));
    w.commit();
    const service = search.database(name);
    assert.equal(service.status().embeddings.pending, 3);
    await service.settle();
    assert.equal(service.status().embeddings.pending, 0);
    assert.equal(service.status().vectors, 3);
    const page = await service.search({ query: 'vector search', limit: 2 });
    assert.equal(page.results.length, 2);
    for (const result of page.results) {
      const expected = (result.textRank ? 1 / (60 + result.textRank) : 0) + (result.vectorRank ? 1 / (60 + result.vectorRank) : 0);
      assert.ok(Math.abs(result.rrfScore - expected) < 1e-12);
      assert.equal(result.score, result.rrfScore);
    }
    assert.deepEqual(new Set(page.results.map((r) => r.nodeId)), new Set([graph, vectorOnly]));
    const again = await service.search({ query: 'vector search', limit: 2 });
    assert.equal(again.cached, true);
    const filtered = await service.search({ query: 'vector search', labels: ['Note'] });
    assert.deepEqual(
      filtered.results.map((r) => r.nodeId),
      [vectorOnly],
    );
    const similar = service.similar({ nodeId: graph, limit: 1 });
    assert.equal(similar[0].nodeId, vectorOnly);
    const callsBefore = embedder.calls;
    const w2 = await db.beginWrite();
    w2.setNodeProperty(graph, 'unrelated', 5n);
    w2.commit();
    await service.settle();
    assert.equal(embedder.calls, callsBefore + 1, 'changed text is re-embedded');
  }, embedder);
});

test('dimension mismatch between embedder and stored embeddings is a client error', async () => {
  const embedder = new HashEmbedder(8);
  await withEngine(async (_engine, search, name) => {
    const service = search.database(name);
    service.setEmbedding(1n, [1, 0, 0, 0]);
    await assert.rejects(service.search({ query: 'x' }), /dimension mismatch/);
  }, embedder);
});

test('a VECTOR index past the exact-search threshold switches to HNSW and stays fresh across commits', async () => {
  await withEngine(async (engine, search, name) => {
    const { generateVectors } = await import('./helpers/vectors.js');
    const vectors = generateVectors(6002, 8, 21);
    const db = engine.database();
    const w = await db.beginWrite();
    for (let i = 0; i < 6000; i++) w.createNode(['Item'], props({ v: Array.from(vectors[i]) }));
    w.createIndex(
      {
        name: 'items',
        type: 'VECTOR',
        entityType: 'NODE',
        labelsOrTypes: ['Item'],
        properties: ['v'],
        options: props({ 'vector.dimensions': 8n }),
      },
      false,
    );
    w.commit();
    const reader = db.beginRead();
    search.database(name).syncIndexes(reader);
    reader.close();
    const service = search.database(name);
    const before = service.status();
    assert.equal(before.ready, true, 'exact search serves while the build is only scheduled');
    await service.settle();
    assert.equal(service.named.vector.get('items')!.collection.strategy, 'hnsw');
    const w2 = await db.beginWrite();
    const fresh = w2.createNode(['Item'], props({ v: Array.from(vectors[6000]) }));
    w2.commit();
    assert.equal(service.queryVectorIndex('items', 1, Array.from(vectors[6000]))[0].nodeId, fresh);
    const w3 = await db.beginWrite();
    w3.deleteNode(fresh, true);
    w3.commit();
    assert.notEqual(service.queryVectorIndex('items', 1, Array.from(vectors[6000]))[0].nodeId, fresh);
  });
});
