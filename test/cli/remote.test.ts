/** `graphdb shell --address bolt://...` against a real `graphdb serve` (scripted mode). */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, cli, cliOutputWhileRunning, ensureBuilt } from './cli-process.js';
import { tempDir } from './helpers.js';

const temp = tempDir();
let server: ChildProcess;
let address = '';

before(async () => {
  ensureBuilt();
  server = spawn(
    process.execPath,
    [
      join(ROOT, 'bin', 'run.js'),
      'serve',
      '--data-dir',
      join(temp.dir, 'data'),
      '--http-port',
      '0',
      '--address',
      '127.0.0.1',
      '--bolt-port',
      '0',
      '--bolt-address',
      '127.0.0.1',
      '--no-auth',
    ],
    { cwd: temp.dir, env: { ...process.env, HOME: temp.dir, XDG_CONFIG_HOME: temp.dir }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  address = await new Promise<string>((resolve, reject) => {
    let output = '';
    const onData = (d: Buffer): void => {
      output += d.toString();
      const bolt = /bolt:\/\/127\.0\.0\.1:\d+/.exec(output);
      if (bolt) resolve(bolt[0]);
    };
    server.stdout!.on('data', onData);
    server.stderr!.on('data', onData);
    server.once('exit', (code) => reject(new Error(`serve exited with ${code}:\n${output}`)));
  });
});

after(async () => {
  if (server.exitCode === null) {
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
  temp.cleanup();
});

test('remote shell: parameters of temporal types, typed results, transactions, errors', () => {
  const script = [
    ":param day => date('2020-01-02')",
    ':begin',
    "CREATE (:R {name: 'kept', day: $day, big: 9007199254740993});",
    ':commit',
    ':begin',
    "CREATE (:R {name: 'rolled back'});",
    ':rollback',
    'MATCH (r:R) RETURN r.name AS name, r.day AS day, r.big AS big;',
    'RETURN nope;',
  ].join('\n');
  const run = cli(['shell', '--address', address, '--format', 'json'], { input: script + '\n' });
  assert.equal(run.status, 1);
  assert.equal(
    run.stdout,
    '{"name":"kept","day":{"$type":"date","value":"2020-01-02","epochDay":18263},"big":{"$type":"integer","value":"9007199254740993"}}\n',
  );
  assert.match(run.stderr, /Neo\.ClientError\.Statement\.SyntaxError: Variable `nope` not defined/);
});

test('remote shell: :use switches the database of the session, -d picks the first one', () => {
  const script = [
    'CREATE DATABASE remoteother IF NOT EXISTS WAIT;',
    ':use remoteother',
    "CREATE (:Y {name: 'there'});",
    ':use graphdb',
    'MATCH (y:Y) RETURN count(y) AS here;',
  ].join('\n');
  const run = cli(['shell', '--address', address], { input: script + '\n' });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout, 'here\n0\n');
  const other = cli(['shell', '--address', address, '-d', 'remoteother', 'MATCH (y:Y) RETURN y.name AS name']);
  assert.equal(other.status, 0, other.stderr);
  assert.equal(other.stdout, 'name\n"there"\n');
});

test('remote shell: a refused connection is reported', () => {
  const run = cli(['shell', '--address', 'bolt://127.0.0.1:1'], { input: 'RETURN 1;\n' });
  assert.equal(run.status, 1);
  assert.match(run.stderr, /ECONNREFUSED|connect/i);
});

test('remote shell: records print as they arrive, before the statement completes', async () => {
  const run = await cliOutputWhileRunning(
    [
      'shell',
      '-a',
      address,
      // Bounded (25M rows counted after the first 1000 rows) so that the server is free again soon after the client is killed.
      'UNWIND range(1, 1000) AS i RETURN i UNION ALL UNWIND range(1, 5000) AS a UNWIND range(1, 5000) AS b WITH count(*) AS n RETURN n AS i',
    ],
    /^1000$/m,
  );
  assert.equal(run.running, true, 'the rows were printed while the statement was still running');
  assert.match(run.stdout, /^i\n1\n2\n3\n/);
});
