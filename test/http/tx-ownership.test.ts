/**
 * The hijack of an HTTP transaction, written as the attack: a viewer learns (or guesses) the id of
 * the admin's open transaction and tries to run a write in it, commit it, roll it back or delete
 * it. Every attempt answers 404 TransactionNotFound, exactly as for an id that never existed; the
 * admin's transaction is untouched and nothing is written with the admin's privileges. Ids are
 * random and URL-safe. SHOW/TERMINATE TRANSACTIONS give a non-admin only their own transactions.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { commit, request, startTestServer, type TestServer } from './helpers.js';

const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });
const ADMIN = basic('root', 'rootpw');
const VIEWER = basic('vi', 'vi-pw');
const EDITOR = basic('ed', 'ed-pw');
const NOT_FOUND = 'Neo.ClientError.Transaction.TransactionNotFound';

describe('HTTP transactions belong to the principal that opened them', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer(
      { 'auth.enabled': true, 'async_writes.enabled': false, 'server.transaction_idle_timeout': '60s' },
      { GRAPHDB_AUTH: 'root:rootpw' },
    );
    for (const [username, password, role] of [
      ['vi', 'vi-pw', 'viewer'],
      ['ed', 'ed-pw', 'editor'],
    ]) {
      const created = await request(`${t.url}/admin/users`, {
        method: 'POST',
        headers: ADMIN,
        json: { username, password, roles: [role] },
      });
      assert.equal(created.status, 201);
    }
  });
  after(() => t.stop());

  const begin = async (headers: Record<string, string>) => {
    const response = await request(`${t.url}/db/graphdb/tx`, {
      method: 'POST',
      headers,
      json: { statements: [{ statement: 'RETURN 1' }] },
    });
    assert.equal(response.status, 201, response.text);
    return response.headers.get('location')!;
  };

  it('gives unguessable, URL-safe ids', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const location = await begin(ADMIN);
      const id = location.slice(location.lastIndexOf('/') + 1);
      assert.match(id, /^[A-Za-z0-9_-]{22,}$/);
      ids.add(id);
      assert.equal((await request(location, { method: 'DELETE', headers: ADMIN })).status, 200);
    }
    assert.equal(ids.size, 5);
  });

  it('refuses every use of the admin transaction by a viewer or an editor, as not found', async () => {
    const location = await begin(ADMIN);
    const write = { statements: [{ statement: 'CREATE (:Hijack)' }] };
    for (const intruder of [VIEWER, EDITOR]) {
      const attempts = [
        await request(location, { method: 'POST', headers: intruder, json: write }),
        await request(`${location}/commit`, { method: 'POST', headers: intruder, json: write }),
        await request(location, { method: 'DELETE', headers: intruder }),
      ];
      for (const attempt of attempts) {
        assert.equal(attempt.status, 404, attempt.text);
        assert.equal(attempt.body.errors[0].code, NOT_FOUND);
      }
    }
    const unknown = await request(`${location.slice(0, location.lastIndexOf('/'))}/doesNotExist`, { method: 'DELETE', headers: VIEWER });
    assert.equal(unknown.status, 404);
    assert.equal(
      unknown.body.errors[0].message.replace('doesNotExist', 'ID'),
      (await request(location, { method: 'DELETE', headers: VIEWER })).body.errors[0].message.replace(
        location.slice(location.lastIndexOf('/') + 1),
        'ID',
      ),
    );
    const own = await request(`${location}/commit`, {
      method: 'POST',
      headers: ADMIN,
      json: { statements: [{ statement: 'RETURN 2 AS two' }] },
    });
    assert.equal(own.status, 200);
    assert.deepEqual(own.body.errors, []);
    assert.deepEqual(own.body.results[0].data[0].row, [2]);
    const hijacked = await commit(t.url, ['MATCH (n:Hijack) RETURN count(n)'], 'graphdb', ADMIN);
    assert.deepEqual(hijacked.body.results[0].data[0].row, [0]);
  });

  it('shows and terminates only their own transactions for a non-admin', async () => {
    const location = await begin(ADMIN);
    const listed = await commit(
      t.url,
      [{ statement: 'SHOW TRANSACTIONS YIELD transactionId, username RETURN transactionId, username' }],
      'graphdb',
      ADMIN,
    );
    const adminTx = listed.body.results[0].data.map((d: { row: string[] }) => d.row).find((row: string[]) => row[1] === 'root');
    assert.ok(adminTx, listed.text);
    const seen = await commit(t.url, ['SHOW TRANSACTIONS YIELD username RETURN collect(username) AS users'], 'graphdb', VIEWER);
    assert.ok(!seen.body.results[0].data[0].row[0].includes('root'), seen.text);
    const terminate = await commit(t.url, [{ statement: 'TERMINATE TRANSACTIONS $id', parameters: { id: adminTx[0] } }], 'graphdb', VIEWER);
    assert.equal(terminate.body.results[0].data[0].row[2], 'Transaction not found.');
    const still = await request(location, { method: 'POST', headers: ADMIN, json: { statements: [{ statement: 'RETURN 3' }] } });
    assert.deepEqual(still.body.errors, []);
    await request(location, { method: 'DELETE', headers: ADMIN });
  });
});
