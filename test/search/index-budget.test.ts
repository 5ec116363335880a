/**
 * `dbms.memory.search_index.max_size` bounds the heap of the automatic full-text index: below the
 * bound search answers and `/status` reports the estimated bytes against it; past it the index is
 * released, `/status` says `over_budget`, search answers a memory error that names the setting,
 * and everything else goes on being served.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { commit, request, rows, startTestServer, type TestServer } from '../http/helpers.js';

const MAX_BYTES = 256 * 1024;
let server: TestServer;

before(async () => {
  server = await startTestServer({ 'async_writes.enabled': false, 'dbms.memory.search_index.max_size': '256KiB' });
});
after(() => server?.stop());

const search = (query: string) => request(`${server.url}/graphdb/search`, { method: 'POST', json: { query, method: 'text', limit: 5 } });

async function searchStatus(): Promise<{ ready: boolean; build_phase: string; index_bytes: number; index_max_bytes: number }> {
  return (await request(`${server.url}/status`)).body.search;
}

test('below the bound search answers; past it the index is released and search names the setting', async () => {
  const small = await commit(server.url, ["UNWIND range(1, 50) AS i CREATE (:Note {text: 'sourdough note ' + toString(i)})"]);
  assert.deepEqual(small.body.errors, []);
  const found = await search('sourdough');
  assert.equal(found.status, 200, found.text);
  assert.equal(found.body.results.length, 5);
  const within = await searchStatus();
  assert.equal(within.index_max_bytes, MAX_BYTES);
  assert.ok(within.index_bytes > 0 && within.index_bytes <= MAX_BYTES, JSON.stringify(within));
  assert.equal(within.build_phase, 'ready');

  // About 500 B of estimated index per node with its own words: 2,000 nodes need about 1 MiB.
  const large = await commit(server.url, [
    "UNWIND range(1, 2000) AS i CREATE (:Note {text: 'word' + toString(i) + ' other' + toString(i) + ' more' + toString(i)})",
  ]);
  assert.deepEqual(large.body.errors, []);
  const over = await search('sourdough');
  assert.equal(over.status, 503, over.text);
  assert.equal(over.body.errors?.[0]?.code ?? over.body.code, 'Neo.TransientError.General.MemoryPoolOutOfMemoryError', over.text);
  assert.match(over.text, /dbms\.memory\.search_index\.max_size/);
  const status = await searchStatus();
  assert.equal(status.build_phase, 'over_budget');
  assert.equal(status.ready, false);
  assert.equal(status.index_bytes, 0, 'the released index holds nothing');

  assert.deepEqual(await rows(server.url, 'MATCH (n:Note) RETURN count(n)'), [[2050]], 'Cypher is served as before');
});
