import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually } from '../helpers/eventually.js';
import { commit, request, rows, startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
before(async () => {
  t = await startTestServer({ 'async_writes.enabled': true, 'async_writes.flush_interval': '1s' });
});
after(() => t.stop());

const count = async (label: string, db = 'graphdb'): Promise<unknown> =>
  (await rows(t.url, `MATCH (n:${label}) RETURN count(n)`, db))[0][0];

describe('write consistency on the transactional endpoint', () => {
  it('answers a pure CREATE with 202 eventual, visible after the flush interval', async () => {
    const response = await commit(t.url, [
      { statement: 'UNWIND $rows AS r CREATE (:Async {id: r})', parameters: { rows: [1, 2, 3] }, includeStats: true },
    ]);
    assert.equal(response.status, 202);
    assert.equal(response.headers.get('x-graphdb-consistency'), 'eventual');
    assert.deepEqual(response.body.errors, []);
    assert.equal(response.body.results[0].stats.nodes_created, 3);
    const stats = await request(`${t.url}/admin/stats`);
    assert.equal(stats.body.async_writes.pendingStatements, 1, 'still queued right after the 202');
    // Waits for the flush timer's effect (polling a read-only route, which flushes nothing), with a deadline.
    const flushed = await eventually(async () => {
      const stats = await request(`${t.url}/admin/stats`);
      return stats.body.async_writes.pendingStatements === 0 ? stats : undefined;
    }, 'the timed flush');
    assert.equal(flushed.body.async_writes.pendingStatements, 0, 'the timer flushed it (no synchronous request did)');
    assert.equal(flushed.body.async_writes.flushedStatements, 1);
    assert.equal(await count('Async'), 3);
  });

  it('keeps read-modify-write, MERGE, SET, DELETE, RETURN and schema statements synchronous', async () => {
    const synchronous = [
      'MATCH (a:Async {id: 1}) CREATE (a)-[:NEXT]->(:Async2)',
      'MERGE (:Merged {k: 1})',
      'CREATE (n:SetAfter) SET n.x = 1',
      'MATCH (n:Merged) DELETE n',
      'CREATE (n:Returned) RETURN n',
      'CREATE INDEX async_idx IF NOT EXISTS FOR (n:Indexed) ON (n.k)',
      'EXPLAIN CREATE (:Explained)',
    ];
    for (const statement of synchronous) {
      const response = await commit(t.url, [statement]);
      assert.equal(response.status, 200, statement);
      assert.equal(response.headers.get('x-graphdb-consistency'), null, statement);
      assert.deepEqual(response.body.errors, [], statement);
    }
    assert.equal(await count('Returned'), 1, 'synchronous write visible at once');
  });

  it('a synchronous request on the database first flushes pending async writes', async () => {
    const queued = await commit(t.url, ['CREATE (:Ordered {n: 1})']);
    assert.equal(queued.status, 202);
    const response = await commit(t.url, ['MATCH (o:Ordered) SET o.n = 2 RETURN o.n']);
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.results[0].data[0].row, [2]);
  });

  it('an explicit transaction is always synchronous', async () => {
    const begin = await request(`${t.url}/db/graphdb/tx`, { method: 'POST', json: { statements: [{ statement: 'CREATE (:InTx)' }] } });
    assert.equal(begin.status, 201);
    const done = await request(begin.body.commit, { method: 'POST', json: { statements: [] } });
    assert.equal(done.status, 200);
    assert.equal(await count('InTx'), 1);
  });

  it('a per-database override disables async writes', async () => {
    await commit(t.url, ['CREATE DATABASE syncdb'], 'system');
    const put = await request(`${t.url}/admin/databases/syncdb/config`, {
      method: 'PUT',
      json: { overrides: { GRAPHDB_ASYNC_WRITES_ENABLED: 'false' } },
    });
    assert.equal(put.status, 200);
    const response = await commit(t.url, ['CREATE (:Direct)'], 'syncdb');
    assert.equal(response.status, 200);
    assert.equal(await count('Direct', 'syncdb'), 1);
  });

  it('a bad statement is not eligible: its syntax error is reported synchronously', async () => {
    const response = await commit(t.url, ['CREATE (:Bad {x: })']);
    assert.equal(response.status, 200);
    assert.equal(response.body.errors[0].code, 'Neo.ClientError.Statement.SyntaxError');
  });
});
