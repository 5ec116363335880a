/**
 * Every example in README.md runs as written: the code blocks are extracted from the README itself, so an
 * edit that breaks one fails here. The two set-up commands are checked against `.ci/run` (which runs their
 * install steps on every CI machine), and their `serve` part is run as written.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
const ciScript = fs.readFileSync(path.join(root, '.ci', 'run'), 'utf8');

/** One fenced code block of the README. */
interface Block {
  readonly lang: string;
  readonly code: string;
}

const blocks: Block[] = [...readme.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], code: m[2] }));
const shellBlocks = blocks.filter((b) => b.lang === 'sh');
const jsBlocks = blocks.filter((b) => b.lang === 'js');

const tempDirs: string[] = [];
const children: ChildProcess[] = [];

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-readme-'));
  tempDirs.push(dir);
  return dir;
}

/**
 * A directory laid out like a user's checkout or project: `bin/` of this repository, and a node_modules
 * holding the packages the examples import (`@graphdb-project/graphdb` is this repository, as after `npm install` of it).
 */
function workspace(): string {
  const dir = tempDir();
  fs.symlinkSync(path.join(root, 'bin'), path.join(dir, 'bin'));
  fs.mkdirSync(path.join(dir, 'node_modules', '@graphdb-project'), { recursive: true });
  fs.symlinkSync(root, path.join(dir, 'node_modules', '@graphdb-project', 'graphdb'));
  fs.symlinkSync(path.join(root, 'node_modules', 'neo4j-driver'), path.join(dir, 'node_modules', 'neo4j-driver'));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  return dir;
}

/**
 * A fresh project outside the repository that installed this package as the README says: `npm pack` in the
 * repository, then `npm install <tarball>` in the project. Offline: the package's dependencies are linked from the
 * repository's node_modules (already installed and built there), so npm resolves them without a registry, and
 * install scripts are skipped (npm would run the `prepare` scripts of linked packages); the package's own
 * `postinstall` is then run as npm runs it, which shows the tarball holds what it needs.
 */
function packedProject(): string {
  const tarballName = /`npm pack` writes\s+`([^`]+\.tgz)`/.exec(readme)?.[1];
  assert.ok(tarballName, 'the README names the tarball npm pack writes');
  assert.ok(readme.includes(`\`npm install <path>/${tarballName}\``), 'the README says how to install the tarball');
  const packDir = tempDir();
  const pack = spawnSync('npm', ['pack', '--pack-destination', packDir, '--ignore-scripts', '--json'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.equal(pack.status, 0, pack.stderr);
  assert.equal((JSON.parse(pack.stdout) as { filename: string }[])[0].filename, tarballName);
  const project = tempDir();
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  for (const dependency of Object.keys(manifest.dependencies)) {
    const link = path.join(project, 'node_modules', dependency);
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(fs.realpathSync(path.join(root, 'node_modules', dependency)), link);
  }
  const install = spawnSync(
    'npm',
    ['install', path.join(packDir, tarballName), '--offline', '--ignore-scripts', '--no-audit', '--no-fund'],
    { cwd: project, encoding: 'utf8', timeout: 180_000 },
  );
  assert.equal(install.status, 0, install.stderr);
  const installed = path.join(project, 'node_modules', '@graphdb-project', 'graphdb');
  assert.ok(!fs.lstatSync(installed).isSymbolicLink(), 'the package is unpacked from the tarball, not linked');
  const postinstall = spawnSync('npm', ['run', 'postinstall'], { cwd: installed, encoding: 'utf8', timeout: 120_000 });
  assert.equal(postinstall.status, 0, postinstall.stderr);
  return project;
}

/** The environment of a user's shell: no GRAPHDB_* settings and no discovered config file. */
function userEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GRAPHDB_')) env[key] = value;
  return { ...env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), NO_COLOR: '1' };
}

/** Starts a shell command in the background and resolves once its output has shown every pattern. */
function startUntil(command: string, cwd: string, patterns: RegExp[]): Promise<ChildProcess> {
  const child = spawn('bash', ['-c', command], { cwd, env: userEnv(cwd), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  children.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (patterns.every((p) => p.test(output))) resolve(child);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`\`${command}\` exited with ${code} before it was ready:\n${output}`)));
  });
}

/** Stops a started command (its whole process group) and waits for it to exit. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid!, 'SIGTERM');
  await exited;
}

/** Runs a command to completion through bash, as a user would paste it. */
function runShell(command: string, cwd: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync('bash', ['-c', command], { cwd, env: userEnv(cwd), encoding: 'utf8', timeout: 120_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Runs a JavaScript example as a module file in the given directory. */
function runModule(code: string, cwd: string): { status: number | null; stdout: string; stderr: string } {
  const file = path.join(cwd, `example-${tempDirs.length}-${Math.random().toString(36).slice(2)}.mjs`);
  fs.writeFileSync(file, code);
  const result = spawnSync(process.execPath, [file], { cwd, env: userEnv(cwd), encoding: 'utf8', timeout: 120_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const READY = [/Bolt listener started/, /HTTP listener started/];

after(async () => {
  await Promise.all(children.map(stop));
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('README examples', () => {
  it('has exactly the blocks this test runs', () => {
    assert.equal(shellBlocks.length, 3, 'two set-up commands and the curl example');
    assert.equal(jsBlocks.length, 2, 'the driver and the embedded example');
    assert.equal(blocks.length, shellBlocks.length + jsBlocks.length, 'every block is a sh or js block');
  });

  it('starts with the two set-up commands, whose install steps are the ones CI runs', () => {
    const [serveSetup, testSetup] = shellBlocks.map((b) => b.code.trim().split(' && '));
    assert.ok(serveSetup && testSetup);
    assert.deepEqual(testSetup.slice(-3), ['npm ci', 'npm run build', 'npm test']);
    assert.deepEqual(serveSetup.slice(2, 4), ['npm ci', 'npm run build']);
    const testPackages = testSetup[1].replace('apt-get install -y ', '').split(' ');
    for (const pkg of testPackages) assert.match(ciScript, new RegExp(`apt-get install[^\\n]* ${pkg}\\b`), `.ci/run installs ${pkg}`);
    const servePackages = serveSetup[1].replace('apt-get install -y ', '').split(' ');
    for (const pkg of servePackages) assert.ok(testPackages.includes(pkg), `${pkg} is also installed for the tests`);
    assert.match(ciScript, /\nnpm ci\b/);
    assert.match(ciScript, /\nnpm run build\n/);
    assert.match(ciScript, /\nnpm test\n/);
  });

  it('runs the embedded example in a fresh project that installed the packed tarball', () => {
    const project = packedProject();
    const result = runModule(jsBlocks[1].code, project);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /1n?[\s\S]*2n?[\s\S]*3n?/);
    assert.ok(fs.existsSync(path.join(project, 'data')), 'the data dir is created under ./data');
  });

  describe('against the server started by the first set-up command', () => {
    let server: ChildProcess;
    let dir: string;
    before(async () => {
      dir = workspace();
      const serveCommand = shellBlocks[0].code.trim().split(' && ').slice(4).join(' && ');
      assert.match(serveCommand, /bin\/run\.js serve --data-dir \.\/data/);
      server = await startUntil(serveCommand, dir, READY);
    });
    after(async () => {
      await stop(server);
    });

    it('answers the driver example', () => {
      const result = runModule(jsBlocks[0].code, dir);
      assert.equal(result.status, 0, result.stderr);
      assert.equal(result.stdout.trim(), 'Ann');
    });

    it('answers the curl example with the node the driver created', () => {
      const result = runShell(shellBlocks[2].code, dir);
      assert.equal(result.status, 0, result.stderr);
      const body = JSON.parse(result.stdout) as { results: { data: { row: unknown[] }[] }[]; errors: unknown[] };
      assert.deepEqual(body.errors, []);
      assert.ok(Number(body.results[0].data[0].row[0]) >= 1);
    });

    it('refuses the curl example without credentials', () => {
      const result = runShell(shellBlocks[2].code.replace('-u admin:change-me ', '-o /dev/null -w "%{http_code}" '), dir);
      assert.equal(result.stdout.trim(), '401');
    });
  });

  it('runs every command of the CLI table with --help', () => {
    const commands = [...readme.matchAll(/^\| `graphdb ([a-z ]+?)`(?: \/ `([a-z ]+)`)? \|/gm)].flatMap((m) => {
      const first = m[1];
      const topic = first.includes(' ') ? `${first.split(' ')[0]} ` : '';
      return m[2] ? [first, `${topic}${m[2]}`] : [first];
    });
    assert.ok(commands.length >= 6, `CLI table rows found: ${commands.join(', ')}`);
    const dir = workspace();
    for (const command of commands) {
      const result = runShell(`node bin/run.js ${command} --help`, dir);
      assert.equal(result.status, 0, `graphdb ${command} --help: ${result.stderr}`);
    }
  });

  it('runs the local development command without authentication on loopback', async () => {
    const line = readme.match(/Local development without authentication: `([^`]+)`/);
    assert.ok(line, 'the README names the local development command');
    const dir = workspace();
    const server = await startUntil(line[1], dir, READY);
    try {
      const response = await fetch('http://127.0.0.1:7474/db/graphdb/tx/commit', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ statements: [{ statement: 'RETURN 1 AS one' }] }),
      });
      assert.equal(response.status, 200);
    } finally {
      await stop(server);
    }
  });
});
