/**
 * The remote shell on a pseudo-terminal against a `graphdb serve` with authentication: a masked
 * password prompt when -p is missing, `host:port` without a scheme, the README's default user, and
 * Ctrl-C terminating a running query on the server. `graphdb backup` beside that server: its admin
 * API answers 401 without credentials, so the command prompts for the password on a terminal (or
 * takes -u/-p) and says how to give them when it cannot ask.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, cli, cliInPty, ensureBuilt, oneLine } from './cli-process.js';
import { tempDir } from './helpers.js';

const temp = tempDir();
const PASSWORD = 'remote-secret-42';
let server: ChildProcess;
let hostPort = '';

/** Types a line: the text and Enter as separate writes (ink treats a burst as a paste). */
function type(text: string): object[] {
  return [{ send: text }, { sleep: 0.2 }, { send: '\r' }];
}

before(async () => {
  ensureBuilt();
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: temp.dir, XDG_CONFIG_HOME: temp.dir };
  for (const key of Object.keys(env)) if (key.startsWith('GRAPHDB_') || key.startsWith('NEO4J_')) delete env[key];
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
    ],
    {
      cwd: temp.dir,
      env: { ...env, GRAPHDB_AUTH: `admin:${PASSWORD}`, GRAPHDB_JWT_SECRET: 'j'.repeat(40) },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  hostPort = await new Promise<string>((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const bolt = /"url":"bolt:\/\/(127\.0\.0\.1:\d+)"/.exec(output);
      if (bolt) resolve(bolt[1]);
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
  temp.cleanup();
});

/** The shell's environment: the serve bind address exported, as on a server machine. */
const shellEnv = { GRAPHDB_ADDRESS: '0.0.0.0' };

test('asks for the password (masked) when -p is missing, with host:port and the default user admin', () => {
  const run = cliInPty(
    ['shell', '-a', hostPort, '--no-history'],
    [
      { expect: 'password for admin:' },
      { send: PASSWORD },
      { sleep: 0.2 },
      { send: '\r' },
      { expect: 'graphdb>' },
      { sleep: 0.3 },
      ...type('SHOW CURRENT USER;'),
      { expect: '1 row' },
      { expect: 'graphdb>' },
      ...type('UNWIND range(1, 100000) AS a UNWIND range(1, 100000) AS b RETURN count(*) AS n;'),
      { expect: 'Ctrl-C to cancel' },
      { sleep: 0.5 },
      { send: '\x03' },
      { expect: 'Terminated' },
      { expect: 'graphdb>' },
      ...type('RETURN 7 * 6 AS answer;'),
      { expect: '1 row' },
      ...type(':exit'),
    ],
    { env: shellEnv },
  );
  assert.equal(run.status, 0, run.stderr + run.stdout);
  assert.doesNotMatch(run.stdout, new RegExp(PASSWORD), 'the password is never echoed');
  assert.match(run.stdout, /│ "?admin"?\s+│/);
  assert.match(run.stdout, /│ 42\s+│/);
});

test('a wrong password is refused with the server’s status code', () => {
  const run = cli(['shell', '-a', hostPort, '-p', 'wrong-password'], { input: 'RETURN 1;\n', env: shellEnv });
  assert.equal(run.status, 1);
  assert.match(run.stderr, /Neo\.ClientError\.Security\.Unauthorized/);
});

test('scripted remote shell with -p and an exported GRAPHDB_ADDRESS (the serve bind address) has no effect on it', () => {
  const run = cli(['shell', '-a', hostPort, '-p', PASSWORD, 'RETURN 1 AS one'], { env: shellEnv });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout, 'one\n1\n');
  const embedded = cli(['shell', '--data-dir', join(temp.dir, 'embedded'), '--create', 'RETURN 2 AS two'], { env: shellEnv });
  assert.equal(embedded.status, 0, embedded.stderr);
  assert.equal(embedded.stdout, 'two\n2\n');
});

test('an address with an unknown scheme is refused with the accepted forms', () => {
  const run = cli(['shell', '-a', 'http://127.0.0.1:7474', '-p', 'x'], { input: 'RETURN 1;\n', env: shellEnv });
  assert.equal(run.status, 1);
  assert.match(run.stderr.replace(/\s*\n\s*/g, ' '), /Unsupported scheme 'http'/);
});

test('backup beside a server with auth: refused without a password it cannot ask for, taken with -u/-p, and after a masked prompt on a terminal', () => {
  const dataDir = join(temp.dir, 'data');
  const noTerminal = cli(['backup', '--to', join(temp.dir, 'backup-refused'), '--data-dir', dataDir]);
  assert.equal(noTerminal.status, 1);
  assert.match(
    oneLine(noTerminal.stderr),
    /answered 401 Neo\.ClientError\.Security\.Unauthorized: .*authentication failure\. Give an admin user with -u\/-p \(or NEO4J_USERNAME\/NEO4J_PASSWORD\)/,
  );
  assert.equal(existsSync(join(temp.dir, 'backup-refused', 'manifest.json')), false);

  const wrong = cli(['backup', '--to', join(temp.dir, 'backup-wrong'), '--data-dir', dataDir, '-u', 'admin', '-p', 'not-the-password']);
  assert.equal(wrong.status, 1);
  assert.match(wrong.stderr, /401/);

  const given = join(temp.dir, 'backup-given');
  const withFlags = cli(['backup', '--to', given, '--data-dir', dataDir, '-u', 'admin', '-p', PASSWORD, '--json']);
  assert.equal(withFlags.status, 0, withFlags.stderr);
  assert.match((JSON.parse(withFlags.stdout) as { takenBy: string }).takenBy, new RegExp(`running server \\(pid ${server.pid}`));

  const prompted = join(temp.dir, 'backup-prompted');
  const run = cliInPty(
    ['backup', '--to', prompted, '--data-dir', dataDir],
    [{ expect: 'password for admin:' }, { send: PASSWORD }, { sleep: 0.2 }, { send: '\r' }, { expect: 'Backup written to' }],
  );
  assert.equal(run.status, 0, run.stderr + run.stdout);
  assert.doesNotMatch(run.stdout, new RegExp(PASSWORD), 'the password is never echoed');
  assert.match(run.stdout, new RegExp(`by the running server \\(pid ${server.pid}`));
  const manifest = JSON.parse(readFileSync(join(prompted, 'manifest.json'), 'utf8')) as { databases: { name: string }[] };
  assert.deepEqual(manifest.databases.map((d) => d.name).sort(), ['graphdb', 'system']);
});
