import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually } from '../helpers/eventually.js';
import { commit, request, rows, startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
/** About 400M rows produced lazily: runs for minutes unless the timeout stops it. */
const SLOW_QUERY = 'UNWIND range(1, 20000) AS a UNWIND range(1, 20000) AS b WITH a, b WHERE (a + b) % 7 = 0 RETURN count(*)';
before(async () => {
  t = await startTestServer({
    'async_writes.enabled': false,
    'server.transaction_idle_timeout': '10s',
    'server.body_limit': 64 * 1024,
  });
});
after(() => t.stop());

describe('POST /db/{db}/tx/commit', () => {
  it('runs a statement and answers columns and rows', async () => {
    const response = await commit(t.url, ['RETURN 1 AS one, "x" AS s']);
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.errors, []);
    assert.deepEqual(response.body.results[0].columns, ['one', 's']);
    assert.deepEqual(response.body.results[0].data, [{ row: [1, 'x'], meta: [null, null] }]);
  });

  it('keeps 64-bit integers exact both ways and floats as floats', async () => {
    const response = await request(`${t.url}/db/graphdb/tx/commit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"statements":[{"statement":"RETURN $big AS big, $big - 1 AS less, $f AS f, 2.0 AS two","parameters":{"big":9223372036854775807,"f":1.5}}]}',
    });
    assert.deepEqual(response.body.errors, []);
    assert.match(response.text, /"row":\[9223372036854775807,9223372036854775806,1\.5,2\.0\]/);
  });

  it('returns nodes with meta, graph format and stats', async () => {
    const response = await commit(t.url, [
      {
        statement: 'CREATE (a:Person {name: "Ann"})-[r:KNOWS {since: 2020}]->(b:Person {name: "Bo"}) RETURN a, r, b',
        resultDataContents: ['row', 'graph'],
        includeStats: true,
      },
    ]);
    assert.deepEqual(response.body.errors, []);
    const [result] = response.body.results;
    const [entry] = result.data;
    assert.deepEqual(entry.row, [{ name: 'Ann' }, { since: 2020 }, { name: 'Bo' }]);
    assert.equal(entry.meta[0].type, 'node');
    assert.equal(entry.meta[1].type, 'relationship');
    assert.equal(typeof entry.meta[0].elementId, 'string');
    assert.equal(entry.graph.nodes.length, 2);
    assert.equal(entry.graph.relationships[0].type, 'KNOWS');
    assert.deepEqual(
      entry.graph.nodes.map((n: { labels: string[] }) => n.labels),
      [['Person'], ['Person']],
    );
    assert.equal(result.stats.nodes_created, 2);
    assert.equal(result.stats.relationships_created, 1);
    assert.equal(result.stats.contains_updates, true);
    assert.ok(Array.isArray(response.body.lastBookmarks));
  });

  it('runs several statements in one transaction and rolls all back on error', async () => {
    const response = await commit(t.url, ['CREATE (:Multi {n: 1})', 'CREATE (:Multi {n: 2})', 'RETURN 1/0']);
    assert.equal(response.status, 200);
    assert.equal(response.body.results.length, 2);
    assert.equal(response.body.errors[0].code, 'Neo.ClientError.Statement.ArithmeticError');
    assert.deepEqual(await rows(t.url, 'MATCH (n:Multi) RETURN count(n)'), [[0]]);
    const ok = await commit(t.url, ['CREATE (:Multi {n: 1})', 'MATCH (m:Multi) RETURN count(m)']);
    assert.deepEqual(ok.body.results[1].data[0].row, [1]);
  });

  it('reports a syntax error in the body', async () => {
    const response = await commit(t.url, ['MATCH (n RETURN n']);
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.results, []);
    assert.equal(response.body.errors[0].code, 'Neo.ClientError.Statement.SyntaxError');
    assert.ok(response.body.errors[0].message.length > 0);
  });

  it('rejects bad JSON with 400 InvalidFormat', async () => {
    const response = await request(`${t.url}/db/graphdb/tx/commit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"statements": [',
    });
    assert.equal(response.status, 400);
    assert.equal(response.body.errors[0].code, 'Neo.ClientError.Request.InvalidFormat');
    assert.match(response.body.errors[0].message, /Unable to deserialize request/);
  });

  it('rejects a body of the wrong shape with 400 Invalid', async () => {
    const response = await request(`${t.url}/db/graphdb/tx/commit`, { method: 'POST', json: { statements: [{ parameters: {} }] } });
    assert.equal(response.status, 400);
    assert.equal(response.body.errors[0].code, 'Neo.ClientError.Request.Invalid');
  });

  it('rejects a body that is not JSON with 415', async () => {
    const response = await request(`${t.url}/db/graphdb/tx/commit`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{}',
    });
    assert.equal(response.status, 415);
    assert.equal(response.body.errors[0].code, 'Neo.ClientError.Request.InvalidFormat');
  });

  it('rejects a body over the limit with 413', async () => {
    const response = await commit(t.url, [`RETURN "${'x'.repeat(70 * 1024)}"`]);
    assert.equal(response.status, 413);
    assert.match(response.body.errors[0].message, /too large/);
  });

  it('answers 404 DatabaseNotFound for an unknown database', async () => {
    const response = await commit(t.url, ['RETURN 1'], 'nosuchdb');
    assert.equal(response.status, 404);
    assert.equal(response.body.errors[0].code, 'Neo.ClientError.Database.DatabaseNotFound');
    assert.match(response.body.errors[0].message, /nosuchdb/);
  });

  it('times out a long statement with TransactionTimedOut', async () => {
    const started = Date.now();
    const response = await commit(t.url, [SLOW_QUERY], 'graphdb', { 'max-execution-time': '100' });
    assert.equal(response.body.errors[0]?.code, 'Neo.ClientError.Transaction.TransactionTimedOut');
    assert.ok(Date.now() - started < 10_000);
  });

  it('keeps /health responsive while a long statement runs', async () => {
    const slow = commit(t.url, [SLOW_QUERY], 'graphdb', { 'max-execution-time': '1500' });
    const running = () => t.server.engine.graphdb.transactions.list({ username: null, admin: true }).some((tx) => tx.currentQuery !== '');
    await eventually(() => (running() ? true : undefined), 'the slow statement to run');
    const started = Date.now();
    const health = await request(`${t.url}/health`);
    assert.equal(health.status, 200);
    assert.ok(Date.now() - started < 1000, 'health answered while the query ran');
    await slow;
  });
});

describe('explicit transactions', () => {
  it('begin, run, commit: read-your-writes inside, visible after commit only', async () => {
    const begin = await request(`${t.url}/db/graphdb/tx`, { method: 'POST', json: { statements: [{ statement: 'CREATE (:Tx {v: 1})' }] } });
    assert.equal(begin.status, 201);
    const location = begin.headers.get('location')!;
    assert.match(location, /\/db\/graphdb\/tx\/[A-Za-z0-9_-]{22}$/);
    assert.equal(begin.body.commit, `${location}/commit`);
    assert.ok(!Number.isNaN(Date.parse(begin.body.transaction.expires)));

    const inside = await request(location, { method: 'POST', json: { statements: [{ statement: 'MATCH (n:Tx) RETURN count(n)' }] } });
    assert.equal(inside.status, 200);
    assert.deepEqual(inside.body.results[0].data[0].row, [1]);
    assert.deepEqual(await rows(t.url, 'MATCH (n:Tx) RETURN count(n)'), [[0]], 'not visible outside before commit');

    const done = await request(begin.body.commit, { method: 'POST', json: { statements: [{ statement: 'CREATE (:Tx {v: 2})' }] } });
    assert.equal(done.status, 200);
    assert.deepEqual(done.body.errors, []);
    assert.deepEqual(await rows(t.url, 'MATCH (n:Tx) RETURN count(n)'), [[2]]);
    const again = await request(begin.body.commit, { method: 'POST', json: { statements: [] } });
    assert.equal(again.status, 404);
    assert.equal(again.body.errors[0].code, 'Neo.ClientError.Transaction.TransactionNotFound');
  });

  it('DELETE rolls back', async () => {
    const begin = await request(`${t.url}/db/graphdb/tx`, { method: 'POST', json: { statements: [{ statement: 'CREATE (:Rolled)' }] } });
    const location = begin.headers.get('location')!;
    const rolled = await request(location, { method: 'DELETE' });
    assert.equal(rolled.status, 200);
    assert.deepEqual(await rows(t.url, 'MATCH (n:Rolled) RETURN count(n)'), [[0]]);
    assert.equal((await request(location, { method: 'DELETE' })).status, 404);
  });

  it('a statement error rolls the transaction back and closes it', async () => {
    const begin = await request(`${t.url}/db/graphdb/tx`, { method: 'POST', json: { statements: [{ statement: 'CREATE (:Broken)' }] } });
    const location = begin.headers.get('location')!;
    const failed = await request(location, { method: 'POST', json: { statements: [{ statement: 'RETURN ,' }] } });
    assert.equal(failed.body.errors[0].code, 'Neo.ClientError.Statement.SyntaxError');
    assert.equal((await request(location, { method: 'POST', json: { statements: [] } })).status, 404);
    assert.deepEqual(await rows(t.url, 'MATCH (n:Broken) RETURN count(n)'), [[0]]);
  });

  it('expires idle transactions', async () => {
    const short = await startTestServer({ 'server.transaction_idle_timeout': '200ms' });
    try {
      const begin = await request(`${short.url}/db/graphdb/tx`, {
        method: 'POST',
        json: { statements: [{ statement: 'CREATE (:Idle)' }] },
      });
      assert.equal(begin.status, 201);
      await eventually(
        async () => ((await request(`${short.url}/admin/stats`)).body.transactions.open === 0 ? true : undefined),
        'the expiry',
      );
      const late = await request(begin.headers.get('location')!, { method: 'POST', json: { statements: [] } });
      assert.equal(late.status, 404);
      assert.deepEqual(await rows(short.url, 'MATCH (n:Idle) RETURN count(n)'), [[0]]);
    } finally {
      await short.stop();
    }
  });

  it('refuses a transaction id of another database', async () => {
    const begin = await request(`${t.url}/db/graphdb/tx`, { method: 'POST', json: { statements: [] } });
    const id = begin.headers.get('location')!.split('/').pop();
    const response = await request(`${t.url}/db/system/tx/${id}`, { method: 'POST', json: { statements: [] } });
    assert.equal(response.status, 404);
    await request(begin.headers.get('location')!, { method: 'DELETE' });
  });
});

describe('system commands', () => {
  it('creates, lists, uses and drops isolated databases', async () => {
    const created = await commit(t.url, ['CREATE DATABASE movies'], 'system');
    assert.deepEqual(created.body.errors, []);
    const names = (await rows(t.url, 'SHOW DATABASES YIELD name RETURN name', 'system')).map((r) => r[0]);
    assert.ok(names.includes('movies') && names.includes('graphdb') && names.includes('system'), JSON.stringify(names));
    await commit(t.url, ['CREATE (:Movie {title: "Alien"})'], 'movies');
    assert.deepEqual(await rows(t.url, 'MATCH (m:Movie) RETURN m.title', 'movies'), [['Alien']]);
    assert.deepEqual(await rows(t.url, 'MATCH (m:Movie) RETURN count(m)'), [[0]], 'isolated from the default database');
    const dropped = await commit(t.url, ['DROP DATABASE movies'], 'system');
    assert.deepEqual(dropped.body.errors, []);
    assert.equal((await commit(t.url, ['RETURN 1'], 'movies')).status, 404);
  });
});
