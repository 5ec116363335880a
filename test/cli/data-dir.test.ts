/**
 * Data directories: a mistyped --data-dir is refused instead of silently creating an empty database,
 * commands beside a running server exit promptly, and commands that must not run beside a server say so.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GraphDB } from '../../src/engine/index.js';
import { cli, cliAsync, ensureBuilt, oneLine, ROOT } from './cli-process.js';
import { tempDir } from './helpers.js';

const temp = tempDir();

before(() => ensureBuilt());
after(() => temp.cleanup());

/**
 * How long `graphdb <args>` takes from its answer (its first output) to its exit: the closing path a
 * server beside it could slow down. The least of three runs, so that a machine busy with other work
 * (which slows every run at random) does not count, while a wait on the server (every run) does.
 */
async function exitPath(args: readonly string[]): Promise<number> {
  const gaps: number[] = [];
  for (let run = 0; run < 3; run++) {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'run.js'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let answeredAt = 0;
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      answeredAt ||= performance.now();
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    const exitedAt = performance.now();
    assert.equal(code, 0, output);
    assert.ok(answeredAt > 0, `no answer: ${output}`);
    gaps.push(exitedAt - answeredAt);
  }
  return Math.min(...gaps);
}

describe('a data directory that holds no database', () => {
  const missing = () => join(temp.dir, 'no-such-dir');
  const cases: readonly (readonly string[])[] = [
    ['shell'],
    ['export', join(temp.dir, 'out.jsonl')],
    ['mvcc', 'status'],
    ['mvcc', 'prune'],
    ['user', 'list'],
    ['user', 'add', 'zed', '--password', 'zed-password-1'],
    ['import', join(ROOT, 'test', 'cli', 'fixtures', 'missing.jsonl')],
    ['backup', join(temp.dir, 'backup-of-nothing')],
  ];
  for (const args of cases) {
    it(`is refused by \`graphdb ${args.slice(0, 2).join(' ')}\` with the path named, and nothing is created`, () => {
      const run = cli([...args, '--data-dir', missing()], { input: 'RETURN 1;\n' });
      assert.equal(run.status, 1, run.stdout + run.stderr);
      const message = oneLine(run.stderr);
      assert.match(message, /The data directory \S*no-such-dir does not exist/);
      assert.match(message, /pass --create/);
      assert.equal(existsSync(missing()), false);
    });
  }

  it('is created by an explicit --create', () => {
    const dataDir = join(temp.dir, 'created');
    const run = cli(['shell', '--data-dir', dataDir, '--create'], { input: 'RETURN 1 AS one;\n' });
    assert.equal(run.status, 0, run.stderr);
    assert.ok(existsSync(join(dataDir, 'system.db')));
    const again = cli(['shell', '--data-dir', dataDir], { input: 'RETURN 2 AS two;\n' });
    assert.equal(again.status, 0, again.stderr);
    assert.equal(again.stdout, 'two\n2\n');
  });
});

describe('beside a running server', () => {
  const dataDir = join(temp.dir, 'served');
  let server: ChildProcess;
  let httpUrl = '';
  let serverOutput = '';

  before(async () => {
    const seed = await GraphDB.open({ dataDir });
    await (await seed.session().run('UNWIND range(1, 50) AS i CREATE (:Item {i: i})')).pull(-1);
    await seed.close();
    server = spawn(
      process.execPath,
      [
        join(ROOT, 'bin', 'run.js'),
        'serve',
        '--data-dir',
        dataDir,
        '--http-port',
        '0',
        '--bolt-port',
        '0',
        '--address',
        '127.0.0.1',
        '--bolt-address',
        '127.0.0.1',
        '--no-auth',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    httpUrl = await new Promise<string>((resolve, reject) => {
      let output = '';
      const onData = (chunk: Buffer): void => {
        output += chunk.toString();
        serverOutput += chunk.toString();
        const http = /"url":"(http:\/\/127\.0\.0\.1:\d+)"[^\n]*HTTP listener started/.exec(output);
        if (http && /Bolt listener started/.test(output) && existsSync(join(dataDir, 'graphdb-server.json'))) resolve(http[1]);
      };
      server.stdout!.on('data', onData);
      server.stderr!.on('data', onData);
      server.once('exit', (code) => reject(new Error(`serve exited with ${code}:\n${output}`)));
    });
  });

  after(async () => {
    if (server.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
  });

  it('records itself in the data directory while it runs', () => {
    const record = JSON.parse(readFileSync(join(dataDir, 'graphdb-server.json'), 'utf8')) as { pid: number; http: string };
    assert.equal(record.pid, server.pid);
    assert.equal(record.http, httpUrl);
  });

  it('lets a command exit within half a second of its answer, as it does without a server (was 10 s: two busy checkpoints)', async () => {
    const alone = join(temp.dir, 'alone');
    const seed = await GraphDB.open({ dataDir: alone });
    await (await seed.session().run('UNWIND range(1, 50) AS i CREATE (:Item {i: i})')).pull(-1);
    await seed.close();
    const query = 'MATCH (n:Item) RETURN count(n) AS c';
    const beside = await exitPath(['shell', '--data-dir', dataDir, query]);
    const baseline = await exitPath(['shell', '--data-dir', alone, query]);
    assert.ok(
      beside - baseline < 500,
      `beside the server the command exited ${Math.round(beside)} ms after its answer, alone ${Math.round(baseline)} ms`,
    );
    const status = await cliAsync(['mvcc', 'status', '--data-dir', dataDir, '--json']);
    assert.equal(status.status, 0, status.stderr);
  });

  it('closes an embedded engine on the same directory in well under half a second', async () => {
    const closings: number[] = [];
    for (let run = 0; run < 3; run++) {
      const db = await GraphDB.open({ dataDir });
      const result = await db.session().run('MATCH (n:Item) RETURN count(n) AS c');
      assert.equal((await result.pull(-1)).records[0][0], 50n);
      const started = performance.now();
      await db.close();
      closings.push(performance.now() - started);
    }
    assert.ok(Math.min(...closings) < 500, `close took ${closings.map(Math.round).join(', ')} ms`);
  });

  it("takes `backup --to` through the server's online admin API, and the backup restores", async () => {
    const target = join(temp.dir, 'online-backup');
    const run = await cliAsync(['backup', '--to', target, '--data-dir', dataDir, '--json']);
    assert.equal(run.status, 0, run.stderr);
    const answer = JSON.parse(run.stdout) as { takenBy: string; databases: { name: string; nodes: number }[] };
    assert.match(answer.takenBy, new RegExp(`running server \\(pid ${server.pid}`));
    assert.match(serverOutput, /backup written/, 'the server took the backup');
    assert.deepEqual(answer.databases.map((d) => d.name).sort(), ['graphdb', 'system']);
    const restored = join(temp.dir, 'online-restored');
    assert.equal(cli(['restore', target, '--data-dir', restored]).status, 0);
    assert.equal(cli(['shell', '--data-dir', restored, 'MATCH (n:Item) RETURN count(n) AS c']).stdout, 'c\n50\n');
  });

  it('refuses mvcc prune and names the admin API to use instead', () => {
    const run = cli(['mvcc', 'prune', '--data-dir', dataDir, '-d', 'graphdb']);
    assert.equal(run.status, 1);
    const message = oneLine(run.stderr);
    assert.match(message, new RegExp(`A graphdb server \\(pid ${server.pid}`));
    assert.ok(message.includes(`POST ${httpUrl}/admin/databases/graphdb/mvcc/prune`), message);
  });
});
