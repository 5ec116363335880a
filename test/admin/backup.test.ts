/**
 * POST /admin/backup and /admin/restore against a real server: an online backup with the
 * transfer module's layout, a verified offline restore (`target`) into a new data directory that a
 * second server then serves (data and user accounts), a dry run of a restore into the running
 * server (test/admin/restore-running.test.ts covers the restore itself), refusals (non-empty output, live data dir, corrupt file,
 * not a backup) and the admin-only access level.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { commit, request, startTestServer, type TestServer } from '../http/helpers.js';

const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });
const ROOT = basic('root', 'rootpw');

describe('backup and restore routes', () => {
  let t: TestServer;
  let scratch: string;
  before(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-admin-backup-'));
    t = await startTestServer({ 'auth.enabled': true }, { GRAPHDB_AUTH: 'root:rootpw' });
    const created = await request(`${t.url}/admin/users`, {
      method: 'POST',
      headers: ROOT,
      json: { username: 'vi', password: 'vi-pw', roles: ['viewer'] },
    });
    assert.ok(created.status < 300, created.text);
    const written = await commit(t.url, ['UNWIND range(1, 50) AS i CREATE (:Item {i: i})-[:NEXT]->(:Item {i: -i})'], 'graphdb', ROOT);
    assert.deepEqual(written.body.errors, []);
  });
  after(async () => {
    await t.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('writes an online backup of every database and restores it into a directory another server serves', async () => {
    const output = path.join(scratch, 'b1');
    const backup = await request(`${t.url}/admin/backup`, { method: 'POST', headers: ROOT, json: { output } });
    assert.equal(backup.status, 200, backup.text);
    assert.equal(backup.body.output, output);
    const names = backup.body.manifest.databases.map((d: { name: string }) => d.name).sort();
    assert.deepEqual(names, ['graphdb', 'system']);
    const graph = backup.body.manifest.databases.find((d: { name: string }) => d.name === 'graphdb');
    assert.equal(graph.nodes, 100);
    assert.equal(graph.relationships, 50);
    assert.ok(fs.existsSync(path.join(output, 'manifest.json')));

    const target = path.join(scratch, 'restored');
    const restore = await request(`${t.url}/admin/restore`, {
      method: 'POST',
      headers: ROOT,
      json: { input: path.join(output, 'manifest.json'), target },
    });
    assert.equal(restore.status, 200, restore.text);
    assert.equal(restore.body.data_dir, target);
    assert.match(restore.body.next_step, /--data-dir/);

    const second = await startTestServer({ 'auth.enabled': true, 'database.path': target });
    try {
      const rows = await commit(second.url, ['MATCH (n:Item) RETURN count(n)'], 'graphdb', basic('vi', 'vi-pw'));
      assert.deepEqual(rows.body.errors, [], 'the user account came back with the system database');
      assert.deepEqual(rows.body.results[0].data[0].row, [100]);
    } finally {
      await second.server.close();
    }
  });

  it('a viewer may not restore into the running server, and an admin dry run changes nothing', async () => {
    const output = path.join(scratch, 'b2');
    assert.equal((await request(`${t.url}/admin/backup`, { method: 'POST', headers: ROOT, json: { output } })).status, 200);
    const viewer = await request(`${t.url}/admin/restore`, { method: 'POST', headers: basic('vi', 'vi-pw'), json: { input: output } });
    assert.equal(viewer.status, 403);
    const dry = await request(`${t.url}/admin/restore`, { method: 'POST', headers: ROOT, json: { input: output, dryRun: true } });
    assert.equal(dry.status, 200, dry.text);
    assert.deepEqual(
      dry.body.databases.map((d: { database: string; action: string }) => [d.database, d.action]),
      [['graphdb', 'replace']],
    );
    const rows = await commit(t.url, ['MATCH (n:Item) RETURN count(n)'], 'graphdb', ROOT);
    assert.deepEqual(rows.body.results[0].data[0].row, [100]);
  });

  it('refuses a non-empty output, the live data directory, a corrupt backup and a non-backup', async () => {
    const full = path.join(scratch, 'full');
    fs.mkdirSync(full);
    fs.writeFileSync(path.join(full, 'x'), 'x');
    const nonEmpty = await request(`${t.url}/admin/backup`, { method: 'POST', headers: ROOT, json: { output: full } });
    assert.equal(nonEmpty.status, 400);
    assert.match(nonEmpty.body.errors[0].message, /not empty/);
    assert.equal(
      (await request(`${t.url}/admin/backup`, { method: 'POST', headers: ROOT, json: { output: path.join(t.dataDir, 'inside') } })).status,
      400,
    );
    assert.equal((await request(`${t.url}/admin/backup`, { method: 'POST', headers: ROOT, json: {} })).status, 400);

    const output = path.join(scratch, 'b3');
    assert.equal((await request(`${t.url}/admin/backup`, { method: 'POST', headers: ROOT, json: { output } })).status, 200);
    const live = await request(`${t.url}/admin/restore`, { method: 'POST', headers: ROOT, json: { input: output, target: t.dataDir } });
    assert.equal(live.status, 400);
    assert.match(live.body.errors[0].message, /live data directory/);
    fs.appendFileSync(path.join(output, 'graphdb.db'), 'garbage');
    const corrupt = await request(`${t.url}/admin/restore`, {
      method: 'POST',
      headers: ROOT,
      json: { input: output, target: path.join(scratch, 'r3') },
    });
    assert.equal(corrupt.status, 400);
    assert.match(corrupt.body.errors[0].message, /checksum/);
    assert.equal(fs.existsSync(path.join(scratch, 'r3')), false, 'nothing restored from a corrupt backup');
    const notBackup = await request(`${t.url}/admin/restore`, {
      method: 'POST',
      headers: ROOT,
      json: { input: full, target: path.join(scratch, 'r4') },
    });
    assert.equal(notBackup.status, 400);
    assert.match(notBackup.body.errors[0].message, /not a graphdb backup/);
  });

  it('backup, restore and the MVCC routes are admin only', async () => {
    const viewer = await request(`${t.url}/admin/backup`, {
      method: 'POST',
      headers: basic('vi', 'vi-pw'),
      json: { output: path.join(scratch, 'b4') },
    });
    assert.equal(viewer.status, 403);
    assert.equal((await request(`${t.url}/admin/restore`, { method: 'POST', json: { input: scratch } })).status, 401);
    assert.equal(fs.existsSync(path.join(scratch, 'b4')), false);
    for (const [method, route] of [
      ['GET', 'mvcc'],
      ['GET', 'mvcc/debt'],
      ['POST', 'mvcc/prune'],
      ['POST', 'mvcc/pause'],
    ] as const) {
      const refused = await request(`${t.url}/admin/databases/graphdb/${route}`, { method, headers: basic('vi', 'vi-pw') });
      assert.equal(refused.status, 403, `${method} ${route}`);
    }
    assert.equal((await request(`${t.url}/admin/databases/graphdb/mvcc`, { headers: ROOT })).status, 200);
  });
});
