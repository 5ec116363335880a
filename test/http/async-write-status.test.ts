/**
 * The outcome of an asynchronous (202) write, as a client reads it: a write that can be checked
 * up front and would fail is refused before any 202; an accepted write carries a `writeId` and a
 * `Location` to poll, which turns `flushed` with the commit version (or `failed` with the Neo4j
 * status code when only the flush finds a problem; the registry test covers that state). A CREATE
 * of a label a constraint covers runs synchronously, so a conflict is Neo4j's error, never a 202.
 * Another user cannot read the status; an admin can.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { WriteStatuses } from '../../src/server/http/tx/write-statuses.js';
import { eventually } from '../helpers/eventually.js';
import { commit, request, startTestServer, type JsonResponse, type TestServer } from './helpers.js';

const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });
const ADMIN = basic('root', 'rootpw');
const EDITOR = basic('ed', 'ed-pw');
const OTHER = basic('ot', 'ot-pw');

let t: TestServer;
before(async () => {
  t = await startTestServer(
    { 'auth.enabled': true, 'async_writes.enabled': true, 'async_writes.flush_interval': '200ms' },
    { GRAPHDB_AUTH: 'root:rootpw' },
  );
  for (const [username, password] of [
    ['ed', 'ed-pw'],
    ['ot', 'ot-pw'],
  ]) {
    const created = await request(`${t.url}/admin/users`, {
      method: 'POST',
      headers: ADMIN,
      json: { username, password, roles: ['editor'] },
    });
    assert.equal(created.status, 201);
  }
  const constraint = await commit(t.url, ['CREATE CONSTRAINT person_key FOR (p:Person) REQUIRE p.key IS UNIQUE'], 'graphdb', ADMIN);
  assert.deepEqual(constraint.body.errors, []);
});
after(() => t.stop());

/** Polls the status `location` until it leaves `queued` (deadline 15 s). */
async function settled(location: string, headers: Record<string, string>): Promise<JsonResponse> {
  return eventually(async () => {
    const status = await request(location, { headers });
    assert.equal(status.status, 200, status.text);
    return status.body.state === 'queued' ? undefined : status;
  }, 'the write to leave queued');
}

describe('status of asynchronous writes', () => {
  it('refuses before any 202 a write whose parameters cannot be stored or are missing', async () => {
    const map = await commit(t.url, [{ statement: 'CREATE (:Person {key: $k})', parameters: { k: { nested: 1 } } }], 'graphdb', EDITOR);
    assert.equal(map.status, 200);
    assert.equal(map.headers.get('x-graphdb-consistency'), null);
    assert.equal(map.body.errors[0].code, 'Neo.ClientError.Statement.TypeError');
    const missing = await commit(t.url, ['CREATE (:Person {key: $absent})'], 'graphdb', EDITOR);
    assert.equal(missing.status, 200);
    assert.equal(missing.body.errors[0].code, 'Neo.ClientError.Statement.ParameterMissing');
    const denied = await commit(t.url, ['CREATE (:Person {key: 0})'], 'graphdb', basic('nobody', 'x'));
    assert.equal(denied.status, 401);
  });

  it('runs a CREATE a constraint covers synchronously: a conflict answers ConstraintValidationFailed, never a 202', async () => {
    const first = await commit(t.url, [{ statement: 'CREATE (:Person {key: $k})', parameters: { k: 1 } }], 'graphdb', EDITOR);
    const second = await commit(t.url, [{ statement: 'CREATE (:Person {key: $k})', parameters: { k: 1 } }], 'graphdb', EDITOR);
    for (const answered of [first, second]) {
      assert.equal(answered.status, 200);
      assert.equal(answered.headers.get('x-graphdb-consistency'), null);
      assert.equal(answered.headers.get('location'), null);
    }
    assert.deepEqual(first.body.errors, []);
    assert.equal(second.body.errors[0].code, 'Neo.ClientError.Schema.ConstraintValidationFailed');
    assert.match(second.body.errors[0].message, /Person/);
    const dynamic = await commit(t.url, [{ statement: 'CREATE (:$($l) {key: 1})', parameters: { l: 'Person' } }], 'graphdb', EDITOR);
    assert.equal(dynamic.status, 200, 'a dynamic label might be a constrained one');
    assert.equal(dynamic.body.errors[0].code, 'Neo.ClientError.Schema.ConstraintValidationFailed');
    const people = await commit(t.url, ['MATCH (p:Person {key: 1}) RETURN count(p)'], 'graphdb', EDITOR);
    assert.deepEqual(people.body.results[0].data[0].row, [1]);
  });

  it('reports flushed with the commit version for a write no constraint covers', async () => {
    const accepted = await commit(t.url, [{ statement: 'CREATE (:Item {key: $k})', parameters: { k: 1 } }], 'graphdb', EDITOR);
    assert.equal(accepted.status, 202);
    assert.equal(typeof accepted.body.writeId, 'string');
    assert.equal(accepted.headers.get('location'), `${t.url}/db/graphdb/tx/writes/${accepted.body.writeId}`);
    const ok = await settled(accepted.headers.get('location')!, EDITOR);
    assert.equal(ok.body.state, 'flushed');
    assert.equal(ok.body.writeId, accepted.body.writeId);
    assert.match(ok.body.version, /^\d+$/);
    assert.equal(ok.body.bookmark, `graphdb:graphdb:${ok.body.version}`);
  });

  it('shows a write only to its sender and to admins', async () => {
    const accepted = await commit(t.url, ['CREATE (:Item {key: 2})'], 'graphdb', EDITOR);
    assert.equal(accepted.status, 202);
    const location = accepted.headers.get('location')!;
    const other = await request(location, { headers: OTHER });
    assert.equal(other.status, 404);
    assert.equal((await request(location)).status, 401);
    assert.equal((await request(location.replace('/db/graphdb/', '/db/system/'), { headers: EDITOR })).status, 404);
    assert.equal((await settled(location, ADMIN)).body.state, 'flushed');
    assert.equal((await request(`${t.url}/db/graphdb/tx/writes/no-such-write`, { headers: EDITOR })).status, 404);
  });
});

describe('write status registry', () => {
  it('keeps only the most recent outcomes, evicting the oldest first', () => {
    const statuses = new WriteStatuses(2);
    const a = statuses.accept('db', 'u', 1);
    const b = statuses.accept('db', 'u', 2);
    statuses.written(b, 'graphdb:db:7');
    assert.deepEqual(statuses.read(b, 'db', 'u', false), { state: 'queued' }, 'one of two statements still pending');
    const c = statuses.accept('db', 'u', 1);
    assert.equal(statuses.size, 2);
    assert.equal(statuses.read(a, 'db', 'u', false), null, 'the oldest was evicted');
    statuses.written(b, 'graphdb:db:9');
    assert.deepEqual(statuses.read(b, 'db', 'u', false), { state: 'flushed', version: '9', bookmark: 'graphdb:db:9' });
    statuses.failed(c, 'Neo.ClientError.Schema.ConstraintValidationFailed', 'conflict');
    assert.equal(statuses.read(c, 'db', 'other', false), null);
    assert.deepEqual(statuses.read(c, 'db', 'other', true), {
      state: 'failed',
      code: 'Neo.ClientError.Schema.ConstraintValidationFailed',
      message: 'conflict',
    });
  });
});

describe('async_writes.status_capacity', () => {
  it('bounds the outcomes a server keeps: with capacity 1 the older write reads as unknown', async () => {
    const small = await startTestServer({ 'async_writes.enabled': true, 'async_writes.status_capacity': 1 });
    try {
      const first = await commit(small.url, ['CREATE (:Capped {n: 1})'], 'graphdb');
      const second = await commit(small.url, ['CREATE (:Capped {n: 2})'], 'graphdb');
      assert.deepEqual([first.status, second.status], [202, 202]);
      const older = await request(first.headers.get('location')!);
      assert.equal(older.status, 404, 'evicted by the newer write');
      const newer = await request(second.headers.get('location')!);
      assert.equal(newer.status, 200);
    } finally {
      await small.stop();
    }
  });
});
