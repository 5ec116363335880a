/**
 * `dbms.memory.search_index.max_size` bounds the named FULLTEXT and VECTOR indexes too: an index
 * whose population (or later growth) takes the process's search indexes past the bound is
 * released, SHOW INDEXES shows it FAILED with the reason, its queries answer the memory error
 * naming the setting, and every other query goes on being served. Under a large bound the same
 * indexes work.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { commit, rows, startTestServer, type TestServer } from '../http/helpers.js';

const MEMORY_ERROR = 'Neo.TransientError.General.MemoryPoolOutOfMemoryError';
const SETTING = /dbms\.memory\.search_index\.max_size/;

/** `count` :Doc nodes with their own words and `count` :Vec nodes with 8-dimensional vectors. */
const DATA = (count: number) =>
  `UNWIND range(1, ${count}) AS i
   CREATE (:Doc {text: 'word' + toString(i) + ' other' + toString(i) + ' sourdough'}),
          (:Vec {embedding: [x IN range(1, 8) | toFloat((i * x) % 97 + 1)]})`;

const CREATE_INDEXES = [
  'CREATE FULLTEXT INDEX docs FOR (n:Doc) ON EACH [n.text]',
  "CREATE VECTOR INDEX vecs FOR (n:Vec) ON (n.embedding) OPTIONS {indexConfig: {`vector.dimensions`: 8, `vector.similarity_function`: 'cosine'}}",
];

const queryDocs = "CALL db.index.fulltext.queryNodes('docs', 'sourdough') YIELD node RETURN count(node)";
const queryVecs = "CALL db.index.vector.queryNodes('vecs', 3, [1.0, 2, 3, 4, 5, 6, 7, 8]) YIELD node RETURN count(node)";

async function indexStates(server: TestServer): Promise<Map<string, [string, string]>> {
  const listed = await rows(server.url, 'SHOW INDEXES YIELD name, state, failureMessage RETURN name, state, failureMessage');
  return new Map(listed.map((row) => [row[0] as string, [row[1] as string, row[2] as string]]));
}

async function failsWithMemoryError(server: TestServer, statement: string, index: string): Promise<void> {
  const response = await commit(server.url, [statement]);
  const error = response.body.errors?.[0];
  assert.equal(error?.code, MEMORY_ERROR, response.text);
  assert.match(error.message, SETTING);
  assert.match(error.message, new RegExp(`'${index}'`));
}

describe('under a small bound', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ 'async_writes.enabled': false, 'dbms.memory.search_index.max_size': '256KiB' });
  });
  after(() => server?.stop());

  test('named indexes whose population exceeds it are FAILED and answer the memory error', async () => {
    // About 500 B of full-text index per :Doc, and 8 floats plus the node map per :Vec: 3,000 of each need more than 256 KiB.
    assert.deepEqual((await commit(server.url, [DATA(3000)])).body.errors, []);
    for (const statement of CREATE_INDEXES) assert.deepEqual((await commit(server.url, [statement])).body.errors, []);

    await failsWithMemoryError(server, queryDocs, 'docs');
    await failsWithMemoryError(server, queryVecs, 'vecs');
    const states = await indexStates(server);
    for (const name of ['docs', 'vecs']) {
      const [state, failure] = states.get(name) ?? [];
      assert.equal(state, 'FAILED', name);
      assert.match(failure ?? '', SETTING);
    }

    assert.deepEqual(await rows(server.url, 'MATCH (n:Doc) RETURN count(n)'), [[3000]], 'Cypher is served as before');
  });

  test('a small named index fits beside the released ones, and is released when it outgrows the bound', async () => {
    assert.deepEqual(
      (await commit(server.url, ["CREATE (:Grow {text: 'rye starter'})", 'CREATE FULLTEXT INDEX grow FOR (n:Grow) ON EACH [n.text]'])).body
        .errors,
      [],
    );
    const query = "CALL db.index.fulltext.queryNodes('grow', 'rye') YIELD node RETURN count(node)";
    assert.deepEqual(await rows(server.url, query), [[1]]);
    assert.equal((await indexStates(server)).get('grow')?.[0], 'ONLINE');

    assert.deepEqual(
      (await commit(server.url, ["UNWIND range(1, 3000) AS i CREATE (:Grow {text: 'rye' + toString(i) + ' loaf' + toString(i)})"])).body
        .errors,
      [],
    );
    await failsWithMemoryError(server, query, 'grow');
    assert.equal((await indexStates(server)).get('grow')?.[0], 'FAILED');
    assert.deepEqual(await rows(server.url, 'MATCH (n:Grow) RETURN count(n)'), [[3001]]);
  });
});

describe('under a large bound', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ 'async_writes.enabled': false, 'dbms.memory.search_index.max_size': '64MiB' });
  });
  after(() => server?.stop());

  test('the same named indexes are ONLINE and answer', async () => {
    assert.deepEqual((await commit(server.url, [DATA(3000)])).body.errors, []);
    for (const statement of CREATE_INDEXES) assert.deepEqual((await commit(server.url, [statement])).body.errors, []);
    assert.deepEqual(await rows(server.url, queryDocs), [[3000]]);
    assert.deepEqual(await rows(server.url, queryVecs), [[3]]);
    const states = await indexStates(server);
    assert.deepEqual(states.get('docs'), ['ONLINE', '']);
    assert.deepEqual(states.get('vecs'), ['ONLINE', '']);
  });
});
