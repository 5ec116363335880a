/**
 * GET /gdpr/export and POST /gdpr/delete against a real server with authentication: the caller's
 * account and owned nodes (with their relationships) across databases, erasure with counts and
 * optional account removal, admin requests on behalf of a subject, refusals.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { commit, request, startTestServer, type TestServer } from '../http/helpers.js';

const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });
const ROOT = basic('root', 'rootpw');
const ANA = basic('ana', 'ana-pw');
const BO = basic('bo', 'bo-pw');

describe('GDPR routes', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ 'auth.enabled': true }, { GRAPHDB_AUTH: 'root:rootpw' });
    for (const username of ['ana', 'bo']) {
      const created = await request(`${t.url}/admin/users`, {
        method: 'POST',
        headers: ROOT,
        json: { username, password: `${username}-pw`, roles: ['viewer'] },
      });
      assert.ok(created.status < 300, created.text);
    }
    const setup = await commit(
      t.url,
      [
        "CREATE (a:Person {owner: 'ana', name: 'Ana', born: date('1990-02-03')})-[:WROTE {at: 1}]->(:Post {owner: 'ana', text: 'hi'})",
        "CREATE (:Person {owner: 'bo', name: 'Bo'})-[:KNOWS]->(:Person {name: 'Shared'})",
      ],
      'graphdb',
      ROOT,
    );
    assert.deepEqual(setup.body.errors, []);
    const created = await commit(t.url, ['CREATE DATABASE second'], 'system', ROOT);
    assert.deepEqual(created.body.errors, []);
    const second = await commit(t.url, ["CREATE (:Note {owner: 'ana', text: 'elsewhere'})"], 'second', ROOT);
    assert.deepEqual(second.body.errors, []);
  });
  after(() => t.stop());

  it("exports the caller's account and owned data from every database, never another user's", async () => {
    const exported = await request(`${t.url}/gdpr/export`, { headers: ANA });
    assert.equal(exported.status, 200, exported.text);
    const body = exported.body;
    assert.equal(body.subject, 'ana');
    assert.equal(body.owner_property, 'owner');
    assert.deepEqual(body.account, { username: 'ana', roles: ['viewer'], suspended: false, service_account: false });
    assert.ok(!exported.text.includes('scrypt') && !exported.text.includes('hash'), 'no password material');
    const graph = body.databases.find((d: { name: string }) => d.name === 'graphdb');
    assert.deepEqual(graph.nodes.map((n: { labels: string[] }) => n.labels[0]).sort(), ['Person', 'Post']);
    const person = graph.nodes.find((n: { labels: string[] }) => n.labels[0] === 'Person');
    assert.deepEqual(person.properties, { owner: 'ana', name: 'Ana', born: '1990-02-03' });
    assert.equal(graph.relationships.length, 1);
    assert.equal(graph.relationships[0].type, 'WROTE');
    assert.equal(graph.relationships[0].start, person.element_id);
    assert.deepEqual(graph.relationships[0].properties, { at: 1 });
    const second = body.databases.find((d: { name: string }) => d.name === 'second');
    assert.equal(second.nodes[0].properties.text, 'elsewhere');
    assert.ok(!exported.text.includes('"Bo"'));
  });

  it('a non-admin may not name another subject; an admin may', async () => {
    const refused = await request(`${t.url}/gdpr/export?subject=ana`, { headers: BO });
    assert.equal(refused.status, 403);
    const own = await request(`${t.url}/gdpr/export?subject=bo`, { headers: BO });
    assert.equal(own.status, 200);
    const onBehalf = await request(`${t.url}/gdpr/export?subject=bo`, { headers: ROOT });
    assert.equal(onBehalf.status, 200);
    assert.equal(onBehalf.body.subject, 'bo');
    assert.equal(onBehalf.body.databases[0].nodes[0].properties.name, 'Bo');
    assert.equal((await request(`${t.url}/gdpr/export`)).status, 401);
    assert.equal(
      (await request(`${t.url}/gdpr/delete`, { method: 'POST', headers: BO, json: { confirm: true, subject: 'ana' } })).status,
      403,
    );
  });

  it('erasure needs confirm, deletes the owned nodes everywhere and keeps others; delete_account drops the user', async () => {
    const unconfirmed = await request(`${t.url}/gdpr/delete`, { method: 'POST', headers: ANA, json: { confirm: false } });
    assert.equal(unconfirmed.status, 400);
    const erased = await request(`${t.url}/gdpr/delete`, { method: 'POST', headers: ANA, json: { confirm: true } });
    assert.equal(erased.status, 200, erased.text);
    assert.equal(erased.body.subject, 'ana');
    assert.deepEqual(erased.body.databases, [
      { name: 'graphdb', nodes_deleted: 2, relationships_deleted: 1 },
      { name: 'second', nodes_deleted: 1, relationships_deleted: 0 },
    ]);
    assert.equal(erased.body.account_deleted, false);
    const after = await request(`${t.url}/gdpr/export`, { headers: ANA });
    assert.deepEqual(after.body.databases, []);
    const rest = await commit(t.url, ['MATCH (n) RETURN n.name ORDER BY n.name'], 'graphdb', ROOT);
    assert.deepEqual(
      rest.body.results[0].data.map((d: { row: unknown[] }) => d.row[0]),
      ['Bo', 'Shared'],
    );

    const withAccount = await request(`${t.url}/gdpr/delete`, {
      method: 'POST',
      headers: ROOT,
      json: { confirm: true, subject: 'bo', delete_account: true },
    });
    assert.equal(withAccount.status, 200, withAccount.text);
    assert.equal(withAccount.body.account_deleted, true);
    assert.equal(withAccount.body.databases[0].nodes_deleted, 1);
    assert.equal((await request(`${t.url}/gdpr/export`, { headers: BO })).status, 401, 'the account is gone');
    const shared = await commit(t.url, ['MATCH (n) RETURN n.name'], 'graphdb', ROOT);
    assert.deepEqual(
      shared.body.results[0].data.map((d: { row: unknown[] }) => d.row[0]),
      ['Shared'],
    );
  });
});

describe('GDPR routes with authentication disabled', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    const created = await commit(t.url, ["CREATE (:Person {owner: 'cy', name: 'Cy'})"]);
    assert.deepEqual(created.body.errors, []);
  });
  after(() => t.stop());

  it('there is no caller identity, so the subject must be named', async () => {
    const anonymous = await request(`${t.url}/gdpr/export`);
    assert.equal(anonymous.status, 400);
    assert.match(anonymous.body.errors[0].message, /subject/);
    const named = await request(`${t.url}/gdpr/export?subject=cy`);
    assert.equal(named.status, 200, named.text);
    assert.equal(named.body.account, null);
    assert.equal(named.body.databases.length, 1, named.text);
    assert.equal(named.body.databases[0].nodes[0].properties.name, 'Cy');
    const erased = await request(`${t.url}/gdpr/delete`, { method: 'POST', json: { confirm: true, subject: 'cy', delete_account: true } });
    assert.equal(erased.status, 200, erased.text);
    assert.equal(erased.body.account_deleted, false);
    assert.equal(erased.body.databases[0].nodes_deleted, 1);
  });
});
