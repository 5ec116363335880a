/**
 * Search through a real client: neo4j-driver over Bolt creates nodes and FULLTEXT / VECTOR
 * indexes, lists and drops them, and queries `db.index.fulltext.queryNodes` and
 * `db.index.vector.queryNodes` right after each commit.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import neo4j, { type Driver } from 'neo4j-driver';
import { startTestServer, type TestServer } from '../http/helpers.js';

let server: TestServer;
let driver: Driver;

before(async () => {
  server = await startTestServer({ 'server.bolt_enabled': true, 'server.bolt_port': 0, 'server.bolt_address': '127.0.0.1' });
  driver = neo4j.driver(server.server.bolt!.url, neo4j.auth.basic('neo4j', 'unused'), { maxConnectionPoolSize: 2 });
});

after(async () => {
  await driver?.close();
  await server?.stop();
});

/** SHOW INDEXES rows of one index (filtered here: the YIELD ... WHERE form is not what this file tests). */
async function indexRows(name: string) {
  return (await run('SHOW INDEXES YIELD name, type, labelsOrTypes, properties, options')).filter((r) => r.get('name') === name);
}

async function run(query: string, parameters: Record<string, unknown> = {}) {
  const session = driver.session();
  try {
    return (await session.run(query, parameters)).records;
  } finally {
    await session.close();
  }
}

test('FULLTEXT index: created, listed, queried right after each commit, dropped', async () => {
  await run("CREATE (:Article {title: 'Graph databases in practice', body: 'nodes and relationships'})");
  await run("CREATE (:Article {title: 'Cooking with herbs', body: 'basil and thyme'})");
  await run('CREATE FULLTEXT INDEX articleText FOR (n:Article) ON EACH [n.title, n.body]');

  const listed = await indexRows('articleText');
  assert.equal(listed.length, 1);
  assert.equal(listed[0].get('type'), 'FULLTEXT');
  assert.deepEqual(listed[0].get('labelsOrTypes'), ['Article']);
  assert.deepEqual(listed[0].get('properties'), ['title', 'body']);

  const graph = await run("CALL db.index.fulltext.queryNodes('articleText', 'graph') YIELD node, score RETURN node.title AS title, score");
  assert.deepEqual(
    graph.map((r) => r.get('title')),
    ['Graph databases in practice'],
  );
  assert.ok(graph[0].get('score') > 0);

  await run("CREATE (:Article {title: 'Property graph models', body: 'labels and properties'})");
  const fresh = await run("CALL db.index.fulltext.queryNodes('articleText', 'graph') YIELD node RETURN node.title AS title ORDER BY title");
  assert.deepEqual(
    fresh.map((r) => r.get('title')),
    ['Graph databases in practice', 'Property graph models'],
  );

  const phrase = await run(
    "CALL db.index.fulltext.queryNodes('articleText', '\"graph models\" OR thyme') YIELD node RETURN node.title AS title ORDER BY title",
  );
  assert.deepEqual(
    phrase.map((r) => r.get('title')),
    ['Cooking with herbs', 'Property graph models'],
  );

  const limited = await run("CALL db.index.fulltext.queryNodes('articleText', 'graph', {limit: 1}) YIELD node RETURN node");
  assert.equal(limited.length, 1);

  await run("MATCH (n:Article {title: 'Graph databases in practice'}) DETACH DELETE n");
  const afterDelete = await run("CALL db.index.fulltext.queryNodes('articleText', 'graph') YIELD node RETURN node.title AS title");
  assert.deepEqual(
    afterDelete.map((r) => r.get('title')),
    ['Property graph models'],
  );

  await run('DROP INDEX articleText');
  assert.equal((await indexRows('articleText')).length, 0);
  await assert.rejects(run("CALL db.index.fulltext.queryNodes('articleText', 'graph')"), (error: Error & { code?: string }) => {
    assert.equal(error.code, 'Neo.ClientError.Procedure.ProcedureCallFailed');
    assert.match(error.message, /There is no such fulltext schema index: articleText/);
    return true;
  });
});

test('VECTOR index: OPTIONS indexConfig kept, nearest neighbours with Neo4j cosine scores, fresh after commit', async () => {
  await run('CREATE (:Doc {name: $name, embedding: $embedding})', { name: 'x-axis', embedding: [1.0, 0.0, 0.0] });
  await run(
    "CREATE VECTOR INDEX docEmbedding FOR (n:Doc) ON n.embedding OPTIONS {indexConfig: {`vector.dimensions`: 3, `vector.similarity_function`: 'cosine'}}",
  );
  const listed = await indexRows('docEmbedding');
  assert.equal(listed[0].get('type'), 'VECTOR');
  const indexConfig = listed[0].get('options').indexConfig;
  assert.equal(Number(indexConfig['vector.dimensions']), 3);
  assert.equal(indexConfig['vector.similarity_function'], 'cosine');

  await run('CREATE (:Doc {name: $name, embedding: $embedding})', { name: 'y-axis', embedding: [0.0, 1.0, 0.0] });
  await run('CREATE (:Doc {name: $name, embedding: $embedding})', { name: 'near-x', embedding: [0.9, 0.1, 0.0] });
  const hits = await run(
    "CALL db.index.vector.queryNodes('docEmbedding', 2, [1.0, 0.0, 0.0]) YIELD node, score RETURN node.name AS name, score",
  );
  assert.deepEqual(
    hits.map((r) => r.get('name')),
    ['x-axis', 'near-x'],
  );
  assert.ok(Math.abs(hits[0].get('score') - 1) < 1e-6);
  const cos = 0.9 / Math.sqrt(0.82);
  assert.ok(Math.abs(hits[1].get('score') - (1 + cos) / 2) < 1e-6);

  await run("MATCH (n:Doc {name: 'y-axis'}) SET n.embedding = [1.0, 0.0, 0.0]");
  const moved = await run(
    "CALL db.index.vector.queryNodes('docEmbedding', 3, [0.0, 1.0, 0.0]) YIELD node, score RETURN node.name AS name, score",
  );
  assert.ok(
    moved.every((r) => r.get('score') < 0.75),
    'no vector near the y axis remains',
  );

  await assert.rejects(run("CALL db.index.vector.queryNodes('docEmbedding', 2, [1.0, 0.0])"), /3/);
});
