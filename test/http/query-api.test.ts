/**
 * Neo4j Query API v2 with fetch against a real server (auth on): auto-commit queries in plain
 * and typed JSON (responses and parameters), counters, bookmarks, access mode, errors, explicit
 * transactions (begin, run, commit, rollback, failure), ownership and the neo4j alias.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from './helpers.js';

const TYPED = 'application/vnd.neo4j.query';
const auth = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const ROOT = auth('root', 'rootpw');

describe('Query API v2', () => {
  let t: TestServer;

  async function post(path: string, body: unknown, headers: Record<string, string> = {}, method = 'POST') {
    const response = await fetch(`${t.url}${path}`, {
      method,
      headers: { authorization: ROOT, 'content-type': 'application/json', accept: 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return {
      status: response.status,
      type: response.headers.get('content-type') ?? '',
      body: text === '' ? null : (JSON.parse(text) as Record<string, any>),
    };
  }

  before(async () => {
    t = await startTestServer({ 'auth.enabled': true, 'async_writes.enabled': false }, { GRAPHDB_AUTH: 'root:rootpw' });
  });
  after(() => t.stop());

  it('runs a statement and answers 202 with fields, values, counters and bookmarks', async () => {
    const created = await post('/db/neo4j/query/v2', {
      statement:
        'CREATE (a:Person {name: $name, age: 42})-[r:KNOWS {since: 2020}]->(b:Person {name: "Bob"}) RETURN a, r, a.age AS age, 1.5 AS f',
      parameters: { name: 'Alice' },
      includeCounters: true,
    });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    assert.match(created.type, /application\/json/);
    assert.deepEqual(created.body!.data.fields, ['a', 'r', 'age', 'f']);
    const [a, r, age, f] = created.body!.data.values[0];
    assert.deepEqual(a.labels, ['Person']);
    assert.deepEqual(a.properties, { name: 'Alice', age: 42 });
    assert.match(a.elementId, /^4:/);
    assert.equal(r.type, 'KNOWS');
    assert.equal(r.startNodeElementId, a.elementId);
    assert.equal(age, 42);
    assert.equal(f, 1.5);
    assert.equal(created.body!.counters.nodesCreated, 2);
    assert.equal(created.body!.counters.containsUpdates, true);
    assert.equal(created.body!.bookmarks.length, 1);
  });

  it('typed JSON: typed responses and typed parameters (integers, temporals, points, lists, maps)', async () => {
    const response = await post(
      '/db/neo4j/query/v2',
      {
        statement: 'MATCH (a:Person {name: $name}) RETURN a, $n + 1 AS n, $d AS d, $p AS p, $l AS l, $m AS m, null AS z',
        parameters: {
          name: { $type: 'String', _value: 'Alice' },
          n: { $type: 'Integer', _value: '9007199254740993' },
          d: { $type: 'Date', _value: '2024-02-29' },
          p: { $type: 'Point', _value: 'SRID=4326;POINT (1.5 2.5)' },
          l: { $type: 'List', _value: [{ $type: 'Float', _value: '0.5' }] },
          m: { $type: 'Map', _value: { k: { $type: 'Boolean', _value: true } } },
        },
      },
      { 'content-type': TYPED, accept: TYPED },
    );
    assert.equal(response.status, 202, JSON.stringify(response.body));
    assert.match(response.type, /application\/vnd\.neo4j\.query/);
    const [a, n, d, p, l, m, z] = response.body!.data.values[0];
    assert.equal(a.$type, 'Node');
    assert.deepEqual(a._value._labels, ['Person']);
    assert.deepEqual(a._value._properties.age, { $type: 'Integer', _value: '42' });
    assert.deepEqual(n, { $type: 'Integer', _value: '9007199254740994' });
    assert.deepEqual(d, { $type: 'Date', _value: '2024-02-29' });
    assert.deepEqual(p, { $type: 'Point', _value: 'SRID=4326;POINT (1.5 2.5)' });
    assert.deepEqual(l, { $type: 'List', _value: [{ $type: 'Float', _value: '0.5' }] });
    assert.deepEqual(m, { $type: 'Map', _value: { k: { $type: 'Boolean', _value: true } } });
    assert.deepEqual(z, { $type: 'Null', _value: null });
  });

  it('errors: bad statements, READ access mode, unknown database, missing auth', async () => {
    const syntax = await post('/db/neo4j/query/v2', { statement: 'RETURN RETURN' });
    assert.equal(syntax.status, 400);
    assert.equal(syntax.body!.errors[0].code, 'Neo.ClientError.Statement.SyntaxError');
    const readOnly = await post('/db/neo4j/query/v2', { statement: 'CREATE (:X)', accessMode: 'READ' });
    assert.equal(readOnly.status, 400);
    assert.match(readOnly.body!.errors[0].code, /^Neo\.ClientError\./);
    const missing = await post('/db/nope/query/v2', { statement: 'RETURN 1' });
    assert.equal(missing.status, 404);
    assert.equal(missing.body!.errors[0].code, 'Neo.ClientError.Database.DatabaseNotFound');
    const noStatement = await post('/db/neo4j/query/v2', {});
    assert.equal(noStatement.status, 400);
    const anonymous = await fetch(`${t.url}/db/neo4j/query/v2`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"statement":"RETURN 1"}',
    });
    assert.equal(anonymous.status, 401);
  });

  it('explicit transactions: begin, run, commit; rollback; a failing statement ends the transaction', async () => {
    const begun = await post('/db/neo4j/query/v2/tx', { statement: 'CREATE (:Tx {n: 1}) RETURN 1 AS one' });
    assert.equal(begun.status, 202, JSON.stringify(begun.body));
    const id = begun.body!.transaction.id as string;
    assert.ok(id.length >= 16 && !Number.isNaN(Date.parse(begun.body!.transaction.expires)));
    const outside = await post('/db/neo4j/query/v2', { statement: 'MATCH (t:Tx) RETURN count(t) AS c' });
    assert.deepEqual(outside.body!.data.values, [[0]], 'not visible before commit');
    const inside = await post(`/db/neo4j/query/v2/tx/${id}`, { statement: 'MATCH (t:Tx) RETURN count(t) AS c' });
    assert.deepEqual(inside.body!.data.values, [[1]]);
    const committed = await post(`/db/neo4j/query/v2/tx/${id}/commit`, { statement: 'CREATE (:Tx {n: 2})' });
    assert.equal(committed.status, 202);
    assert.equal(committed.body!.bookmarks.length, 1);
    assert.deepEqual((await post('/db/neo4j/query/v2', { statement: 'MATCH (t:Tx) RETURN count(t) AS c' })).body!.data.values, [[2]]);
    assert.equal((await post(`/db/neo4j/query/v2/tx/${id}`, { statement: 'RETURN 1' })).status, 404, 'a committed transaction is gone');

    const second = (await post('/db/neo4j/query/v2/tx', {})).body!.transaction.id as string;
    await post(`/db/neo4j/query/v2/tx/${second}`, { statement: 'CREATE (:Tx {n: 3})' });
    assert.equal((await post(`/db/neo4j/query/v2/tx/${second}`, undefined, {}, 'DELETE')).status, 200);
    assert.deepEqual(
      (await post('/db/neo4j/query/v2', { statement: 'MATCH (t:Tx) RETURN count(t) AS c' })).body!.data.values,
      [[2]],
      'rolled back',
    );

    const third = (await post('/db/neo4j/query/v2/tx', { statement: 'CREATE (:Tx {n: 4})' })).body!.transaction.id as string;
    const failed = await post(`/db/neo4j/query/v2/tx/${third}`, { statement: 'RETURN 1/0' });
    assert.equal(failed.status, 400);
    assert.equal((await post(`/db/neo4j/query/v2/tx/${third}/commit`, {})).status, 404, 'the failure rolled it back');
    assert.deepEqual((await post('/db/neo4j/query/v2', { statement: 'MATCH (t:Tx) RETURN count(t) AS c' })).body!.data.values, [[2]]);
  });

  it('a transaction belongs to the principal that opened it', async () => {
    await post('/db/system/query/v2', { statement: "CREATE USER eve SET PASSWORD 'evepassword' CHANGE NOT REQUIRED" });
    assert.equal((await post('/db/system/query/v2', { statement: 'GRANT ROLE viewer TO eve' })).status, 202);
    const id = (await post('/db/neo4j/query/v2/tx', {})).body!.transaction.id as string;
    const stolen = await post(`/db/neo4j/query/v2/tx/${id}`, { statement: 'RETURN 1' }, { authorization: auth('eve', 'evepassword') });
    assert.equal(stolen.status, 404);
    assert.equal((await post(`/db/neo4j/query/v2/tx/${id}`, undefined, {}, 'DELETE')).status, 200);
  });

  it('dbms.showCurrentUser names the caller; dbms.listConfig needs the admin permission', async () => {
    const eve = { authorization: auth('eve', 'evepassword') };
    const me = await post('/db/neo4j/query/v2', { statement: 'CALL dbms.showCurrentUser()' }, eve);
    assert.equal(me.status, 202, JSON.stringify(me.body));
    assert.equal(me.body!.data.values[0][0], 'eve');
    assert.ok((me.body!.data.values[0][1] as string[]).includes('viewer'));
    const denied = await post('/db/neo4j/query/v2', { statement: 'CALL dbms.listConfig()' }, eve);
    assert.equal(denied.status, 403);
    assert.equal(denied.body!.errors[0].code, 'Neo.ClientError.Security.Forbidden');
    const config = await post('/db/neo4j/query/v2', {
      statement: "CALL dbms.listConfig('home_alias') YIELD name, value RETURN name, value",
    });
    assert.deepEqual(config.body!.data.values, [['database.home_alias', 'neo4j']]);
  });
});
