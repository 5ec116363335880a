/** The built CLI end to end: scripted shell, import/export, online backup/restore, mvcc commands. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GraphDB } from '../../src/engine/index.js';
import { ROOT, cli, cliAsync, cliOutputWhileRunning, ensureBuilt } from './cli-process.js';
import { EVERY_TYPE_SCRIPT, fingerprint, tempDir } from './helpers.js';

const temp = tempDir();
before(() => ensureBuilt());
after(() => temp.cleanup());

test('scripted shell: stdin statements, plain output, exit status 1 at the first error', () => {
  const dataDir = join(temp.dir, 'scripted');
  const ok = cli(['shell', '--data-dir', dataDir, '--create'], {
    input: "CREATE (:P {name: 'a'}), (:P {name: 'b'});\nMATCH (p:P)\nRETURN p.name AS name ORDER BY name;\n",
  });
  assert.equal(ok.status, 0, ok.stderr);
  assert.equal(ok.stdout, 'name\n"a"\n"b"\n');
  const failing = cli(['shell', '--data-dir', dataDir, '--format', 'json'], {
    input: 'RETURN 1 AS one;\nRETURN nope;\nRETURN 3 AS three;\n',
  });
  assert.equal(failing.status, 1);
  assert.equal(failing.stdout, '{"one":1}\n');
  assert.match(failing.stderr, /Neo\.ClientError\.Statement\.SyntaxError: Variable `nope` not defined/);
});

test('scripted shell: records print as they arrive, before the statement completes', async () => {
  const dataDir = join(temp.dir, 'stream');
  const run = await cliOutputWhileRunning(
    [
      'shell',
      '--data-dir',
      dataDir,
      '--create',
      'UNWIND range(1, 1000) AS i RETURN i UNION ALL UNWIND range(1, 100000) AS a UNWIND range(1, 100000) AS b WITH count(*) AS n RETURN n AS i',
    ],
    /^1000$/m,
  );
  assert.equal(run.running, true, 'the rows were printed while the statement was still running');
  assert.match(run.stdout, /^i\n1\n2\n3\n/);
});

test('scripted shell: --file with --continue runs past errors, :param and transactions work', () => {
  const dataDir = join(temp.dir, 'file');
  const file = join(temp.dir, 'migration.cypher');
  writeFileSync(
    file,
    ':param n => 2 + 3\n:begin\nCREATE (:T {v: $n});\n:rollback\nRETURN 1 +;\n:begin\nCREATE (:T {v: $n * 2});\n:commit\nMATCH (t:T) RETURN t.v AS v\n',
  );
  const run = cli(['shell', '--data-dir', dataDir, '--create', '--file', file, '--continue', '--format', 'csv']);
  assert.equal(run.status, 1, 'a failure still makes the exit status non-zero');
  assert.equal(run.stdout, 'v\n10\n');
  assert.match(run.stderr, /SyntaxError/);
});

test('export -> import through the CLI gives an identical graph', async () => {
  const from = join(temp.dir, 'export-src');
  const seed = await GraphDB.open({ dataDir: from });
  await (await seed.session().run(EVERY_TYPE_SCRIPT)).pull(-1);
  const expected = await fingerprint(seed);
  await seed.close();
  const file = join(temp.dir, 'graph.jsonl');
  const exported = cli(['export', file, '--data-dir', from, '--json']);
  assert.equal(exported.status, 0, exported.stderr);
  assert.equal(JSON.parse(exported.stdout).nodes, 3);
  const to = join(temp.dir, 'export-dst');
  const imported = cli(['import', file, '--data-dir', to, '--create']);
  assert.equal(imported.status, 0, imported.stderr);
  assert.match(imported.stdout, /│ nodes\s+│ 3 /);
  const copy = await GraphDB.open({ dataDir: to });
  assert.deepEqual(await fingerprint(copy), expected);
  await copy.close();
  const bad = join(temp.dir, 'bad.jsonl');
  writeFileSync(bad, '{"type":"node","id":"x"}\nnot json\n');
  const again = cli(['import', file, '--data-dir', to]);
  assert.equal(again.status, 1, 'a second full import into the same database is refused');
  assert.match(again.stderr, /is not empty: a full import needs an empty/);
  const failed = cli(['import', bad, '--data-dir', join(temp.dir, 'bad-dst'), '--create']);
  assert.equal(failed.status, 1);
  assert.match(failed.stderr, /bad\.jsonl:2 .*Invalid JSON/);
});

test('a backup taken during a write load restores to a consistent state (system included)', async () => {
  const dataDir = join(temp.dir, 'live');
  const load = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test/cli/fixtures/write-load.mts'), dataDir, '4'], { cwd: ROOT });
  const closed = once(load, 'close');
  let output = '';
  load.stdout.on('data', (d: Buffer) => (output += d.toString()));
  // The backup starts while the load is writing (after its first 40 commits).
  while (!/committed 40\n|commits \d+/.test(output)) await once(load.stdout, 'data');
  const backupDir = join(temp.dir, 'backup');
  const backup = await cliAsync(['backup', backupDir, '--data-dir', dataDir, '--json']);
  assert.equal(backup.status, 0, backup.stderr);
  await closed;
  const manifest = JSON.parse(backup.stdout);
  assert.deepEqual(manifest.databases.map((d: { name: string }) => d.name).sort(), ['graphdb', 'system']);
  const restoredDir = join(temp.dir, 'restored');
  const restore = cli(['restore', backupDir, '--data-dir', restoredDir]);
  assert.equal(restore.status, 0, restore.stderr);
  assert.notEqual(cli(['restore', backupDir, '--data-dir', restoredDir]).status, 0, 'restore refuses a non-empty data dir');
  const db = await GraphDB.open({ dataDir: restoredDir });
  try {
    const session = db.session();
    const result = await session.run(
      'MATCH (c:Counter) WITH c.n AS n MATCH (i:Item) WITH n, count(i) AS items MATCH ()-[l:LINK]->() RETURN n, items, count(l) AS links',
    );
    const [[n, items, links]] = (await result.pull(-1)).records as [[bigint, bigint, bigint]];
    await session.close();
    assert.ok(n > 0n, 'the backup caught some commits');
    assert.equal(items, 2n * n);
    assert.equal(links, n);
    assert.ok(Number(n) < Number(/commits (\d+)/.exec(output)![1]) + 1);
    assert.deepEqual(
      db
        .databases()
        .map((d) => d.name)
        .sort(),
      ['graphdb', 'system'],
    );
  } finally {
    await db.close();
  }
});

test('mvcc status and prune report history and never remove heads', () => {
  const dataDir = join(temp.dir, 'mvcc');
  cli(['shell', '--data-dir', dataDir, '--create'], { input: 'CREATE (:V {n: 0});\n' + 'MATCH (v:V) SET v.n = v.n + 1;\n'.repeat(5) });
  const status = cli(['mvcc', 'status', '--data-dir', dataDir, '-d', 'graphdb', '--json']);
  assert.equal(status.status, 0, status.stderr);
  const before = JSON.parse(status.stdout).databases[0];
  assert.equal(before.closedVersions.nodes, 5);
  const prune = cli(['mvcc', 'prune', '--data-dir', dataDir, '-d', 'graphdb', '--max-versions', '2', '--json']);
  assert.equal(prune.status, 0, prune.stderr);
  assert.equal(JSON.parse(prune.stdout).databases[0].prunedVersions, 3);
  const after = cli(['shell', '--data-dir', dataDir], { input: 'MATCH (v:V) RETURN v.n AS n;\n' });
  assert.equal(after.stdout, 'n\n5\n');
  const help = cli(['mvcc', 'prune', '--help']);
  assert.match(help.stdout, /EXAMPLES/);
});

test('a backup of one database includes system, restores on its own, and lists only what it holds', async () => {
  const dataDir = join(temp.dir, 'partial-src');
  const seed = await GraphDB.open({ dataDir });
  await (await seed.session({ database: 'system' }).run('CREATE DATABASE movies')).pull(-1);
  await (await seed.session({ database: 'movies' }).run("CREATE (:Movie {title: 'Alien'})")).pull(-1);
  await (await seed.session().run('CREATE (:NotBackedUp)')).pull(-1);
  await seed.close();
  const backupDir = join(temp.dir, 'partial-backup');
  const backup = cli(['backup', backupDir, '--data-dir', dataDir, '-d', 'movies']);
  assert.equal(backup.status, 0, backup.stderr);
  assert.match(backup.stdout, /Partial backup: the system database .* is included/);
  const restoredDir = join(temp.dir, 'partial-restored');
  const restore = cli(['restore', backupDir, '--data-dir', restoredDir, '--json']);
  assert.equal(restore.status, 0, restore.stderr);
  assert.deepEqual(
    JSON.parse(restore.stdout)
      .manifest.databases.map((d: { name: string }) => d.name)
      .sort(),
    ['movies', 'system'],
  );
  const movies = cli(['shell', '--data-dir', restoredDir, '-d', 'movies', 'MATCH (m:Movie) RETURN m.title AS title']);
  assert.equal(movies.status, 0, movies.stderr);
  assert.equal(movies.stdout, 'title\n"Alien"\n');
  const listed = cli(['shell', '--data-dir', restoredDir, '-d', 'system', 'SHOW DATABASES YIELD name RETURN name ORDER BY name']);
  assert.equal(listed.status, 0, listed.stderr);
  assert.doesNotMatch(listed.stdout, /NotBackedUp/);
  assert.match(listed.stdout, /"movies"/);
});

test('scripted shell: :use switches databases, :begin/:commit keeps and :begin/:rollback drops, :help <command> prints its usage', () => {
  const dataDir = join(temp.dir, 'shell-commands');
  const script = [
    'CREATE DATABASE other;',
    ':use other',
    'CREATE (:X {v: 1});',
    ':begin',
    'CREATE (:X {v: 2});',
    ':use graphdb',
    ':commit',
    ':begin',
    'CREATE (:X {v: 3});',
    ':rollback',
    'MATCH (x:X) RETURN x.v AS v ORDER BY v;',
    ':use graphdb',
    'MATCH (x:X) RETURN count(x) AS here;',
    ':help :use',
    ':help commit',
    ':help :nope',
  ].join('\n');
  const run = cli(['shell', '--data-dir', dataDir, '--create', '--continue-on-error'], { input: script + '\n' });
  assert.equal(run.status, 1, 'the :use inside the transaction failed');
  assert.match(run.stderr, /transaction/i);
  assert.equal(
    run.stdout,
    [
      'v',
      '1',
      '2',
      'here',
      '0',
      'usage: :use <database>',
      '  Set the active database (not inside an open transaction).',
      'usage: :commit',
      '  Commit the currently open transaction.',
      'No help for :nope; :help lists the commands.',
      '',
    ].join('\n'),
  );
});
