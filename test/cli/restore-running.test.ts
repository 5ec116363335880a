/**
 * The JSON backup file round-trips every storable value type (engine level), and
 * `graphdb restore --into-running URL -u -p` (the built CLI against a real server with auth):
 * a dry run that changes nothing, the restore itself, and a refused password.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { GraphDB } from '../../src/engine/index.js';
import { createJsonBackup, restoreIntoRunning } from '../../src/engine/transfer/index.js';
import { commit, request, startTestServer, type TestServer } from '../http/helpers.js';
import { cliAsync, ensureBuilt } from './cli-process.js';
import { EVERY_TYPE_SCRIPT, addBytes, fingerprint, runAll, tempDir } from './helpers.js';

const temp = tempDir('graphdb-restore-running-cli-');
let t: TestServer;
const ROOT = { authorization: `Basic ${Buffer.from('root:rootpw').toString('base64')}` };

before(async () => {
  ensureBuilt();
  t = await startTestServer({ 'auth.enabled': true }, { GRAPHDB_AUTH: 'root:rootpw' });
});
after(async () => {
  await t.stop();
  temp.cleanup();
});

test('a JSON backup file restores every value type, labels and relationships exactly', async () => {
  const db = await GraphDB.open({ dataDir: join(temp.dir, 'engine') });
  try {
    await runAll(db, EVERY_TYPE_SCRIPT);
    await addBytes(db);
    const expected = await fingerprint(db);
    const file = join(temp.dir, 'every-type.json');
    const written = await createJsonBackup(db, { target: file });
    assert.deepEqual(
      written.map((w) => [w.name, w.nodes, w.relationships]),
      [['graphdb', 4, 3]],
    );
    await runAll(db, 'MATCH (n) DETACH DELETE n', "CREATE (:Other {x: 'gone after the restore'})");
    const result = await restoreIntoRunning(db, { input: file });
    assert.equal(result.format, 'json');
    assert.deepEqual(await fingerprint(db), expected);
  } finally {
    await db.close();
  }
});

test('graphdb restore --into-running: dry run, restore, refused password', async () => {
  const run = async (statement: string) => {
    const answer = await commit(t.url, [statement], 'graphdb', ROOT);
    assert.deepEqual(answer.body.errors, []);
    return answer.body.results[0]?.data as { row: unknown[] }[] | undefined;
  };
  await run('UNWIND range(1, 20) AS i CREATE (:Item {i: i})');
  const backup = join(temp.dir, 'backup');
  assert.equal((await request(`${t.url}/admin/backup`, { method: 'POST', headers: ROOT, json: { output: backup } })).status, 200);
  await run('MATCH (n:Item) WHERE n.i > 5 DELETE n');

  const dry = await cliAsync(['restore', backup, '--into-running', t.url, '-u', 'root', '-p', 'rootpw', '--dry-run', '--json']);
  assert.equal(dry.status, 0, dry.stderr);
  const planned = JSON.parse(dry.stdout) as {
    dryRun: boolean;
    databases: { database: string; action: string; current: { nodes: number } }[];
  };
  assert.equal(planned.dryRun, true);
  assert.deepEqual(
    planned.databases.map((d) => [d.database, d.action, d.current.nodes]),
    [['graphdb', 'replace', 5]],
  );
  assert.deepEqual((await run('MATCH (n:Item) RETURN count(n)'))![0].row, [5]);

  const restored = await cliAsync(['restore', backup, '--into-running', t.url, '-u', 'root', '-p', 'rootpw']);
  assert.equal(restored.status, 0, restored.stderr);
  assert.match(restored.stdout, /Restored 1 database\(s\) taken .* into the running server/);
  assert.deepEqual((await run('MATCH (n:Item) RETURN count(n)'))![0].row, [20]);

  const refused = await cliAsync(['restore', backup, '--into-running', t.url, '-u', 'root', '-p', 'wrong']);
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /401/);
});
