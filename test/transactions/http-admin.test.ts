/**
 * Over the HTTP transactional endpoint of a real server: an open HTTP transaction appears in
 * SHOW TRANSACTIONS with protocol `http` and its request URI, does not hold the write lock until
 * it writes, and fails with Transaction.Terminated once terminated; SHOW SETTINGS lists the
 * server's loaded configuration with secrets redacted.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { request, startTestServer, type TestServer } from '../http/helpers.js';

describe('transaction administration over HTTP', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ 'server.transaction_idle_timeout': 60_000 });
  });
  after(() => t.stop());

  const commit = (statement: string, parameters: Record<string, unknown> = {}) =>
    request(`${t.url}/db/graphdb/tx/commit`, { method: 'POST', json: { statements: [{ statement, parameters }] } });

  it('an open HTTP transaction is listed, takes the lock only when it writes, and can be terminated', async () => {
    const begin = await request(`${t.url}/db/graphdb/tx`, {
      method: 'POST',
      json: { statements: [{ statement: 'MATCH (n) RETURN count(n)' }] },
    });
    assert.equal(begin.status, 201);
    const location = begin.headers.get('location')!;
    const listed = await commit(
      'SHOW TRANSACTIONS YIELD transactionId, protocol, requestUri, connectionId, activeLockCount WHERE protocol = "http" AND activeLockCount = 0 RETURN *',
    );
    assert.deepEqual(listed.body.errors, []);
    const rows = listed.body.results[0].data.map((d: { row: unknown[] }) =>
      Object.fromEntries(listed.body.results[0].columns.map((c: string, i: number) => [c, d.row[i]])),
    );
    const open = rows.find((r: Record<string, unknown>) => r.requestUri === '/db/graphdb/tx');
    assert.ok(open, JSON.stringify(rows));
    assert.match(String(open.connectionId), /^http-/);
    const write = await commit('CREATE (:WhileOpen)');
    assert.deepEqual(write.body.errors, [], 'the idle HTTP transaction does not block an auto-commit write');
    const terminated = await commit('TERMINATE TRANSACTIONS $id', { id: open.transactionId });
    assert.equal(terminated.body.results[0].data[0].row[2], 'Transaction terminated.');
    const next = await request(location, { method: 'POST', json: { statements: [{ statement: 'RETURN 1' }] } });
    assert.equal(next.body.errors[0]?.code, 'Neo.ClientError.Transaction.Terminated');
  });

  it('SHOW SETTINGS lists the loaded configuration with the JWT secret redacted', async () => {
    const response = await commit("SHOW SETTINGS 'auth.jwt_secret', 'server.http_address' YIELD name, value ORDER BY name");
    assert.deepEqual(response.body.errors, []);
    assert.deepEqual(
      response.body.results[0].data.map((d: { row: unknown[] }) => d.row),
      [
        ['auth.jwt_secret', '********'],
        ['server.http_address', '127.0.0.1'],
      ],
    );
  });
});
