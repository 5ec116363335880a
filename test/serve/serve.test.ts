import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import neo4j from 'neo4j-driver';
import { writeBrokenFaissPackage } from '../search/helpers/broken-faiss.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const entry = path.join(here, 'fixtures', 'run-serve.ts');
/** tsx resolved from the repo, so children may run in any working directory. */
const tsxLoader = import.meta.resolve('tsx');
const tempDirs: string[] = [];
const children: ChildProcess[] = [];
after(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  tempDirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true }));
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-serve-'));
  tempDirs.push(dir);
  return dir;
}

interface Served {
  readonly child: ChildProcess;
  readonly url: string;
  readonly boltPort: number;
  readonly output: () => string;
  readonly exited: Promise<number | null>;
}

/** A cleaned environment: no GRAPHDB_* from the caller, no discovered config file. */
function cleanEnv(extra: Record<string, string>, home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GRAPHDB_')) env[key] = value;
  return { ...env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), ...extra };
}

function spawnServe(
  args: string[],
  env: Record<string, string> = {},
): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const home = tempDir();
  const child = spawn(process.execPath, ['--import', tsxLoader, entry, ...args], {
    cwd: home,
    env: cleanEnv(env, home),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Resolves with the first match of `pattern` in the child's output; rejects when the child exits or time runs out. */
function waitForLog(
  child: ChildProcess,
  output: () => string,
  pattern: RegExp,
  exited: Promise<number | null>,
  timeoutMs = 30_000,
): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      const match = output().match(pattern);
      if (match) finish(() => resolve(match));
    };
    const fail = (): void => finish(() => reject(new Error(`no ${pattern} in output:\n${output()}`)));
    const timer = setTimeout(fail, timeoutMs);
    const finish = (settle: () => void): void => {
      clearTimeout(timer);
      child.stdout!.off('data', check);
      child.stderr!.off('data', check);
      settle();
    };
    // The output accumulates in listeners added first, so a check on each chunk sees it.
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    void exited.then(() => {
      check();
      fail();
    });
    check();
  });
}

async function serve(dataDir: string, extraArgs: string[] = [], env: Record<string, string> = {}): Promise<Served> {
  const spawned = spawnServe(
    [
      '--data-dir',
      dataDir,
      '--http-port',
      '0',
      '--address',
      '127.0.0.1',
      '--bolt-port',
      '0',
      '--bolt-address',
      '127.0.0.1',
      '--no-auth',
      ...extraArgs,
    ],
    env,
  );
  const http = await waitForLog(
    spawned.child,
    spawned.output,
    /"url":"(http:\/\/127\.0\.0\.1:\d+)"[^\n]*HTTP listener started/,
    spawned.exited,
  );
  const bolt = await waitForLog(spawned.child, spawned.output, /"url":"bolt:\/\/127\.0\.0\.1:(\d+)"/, spawned.exited);
  return { ...spawned, url: http[1], boltPort: Number(bolt[1]) };
}

async function post(url: string, statement: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${url}/db/graphdb/tx/commit`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ statements: [{ statement }] }),
  });
  return { status: response.status, body: await response.json() };
}

async function count(url: string, label: string): Promise<number> {
  const { body } = await post(url, `MATCH (n:${label}) RETURN count(n)`);
  return body.results[0].data[0].row[0];
}

describe('graphdb serve', () => {
  it('answers /health and /status with live counts, serves Bolt, and stops cleanly on SIGTERM', async () => {
    const dataDir = tempDir();
    const served = await serve(dataDir);
    const health = await fetch(`${served.url}/health`);
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), { status: 'healthy' });
    const before = (await (await fetch(`${served.url}/status`)).json()) as any;
    assert.equal(before.status, 'healthy');
    assert.equal(before.search.vector_backend, 'faiss', '/status names the vector backend');
    assert.equal(before.server.version, JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version);
    assert.equal((await post(served.url, 'CREATE (a:Counted)-[:R]->(:Counted) RETURN a')).status, 200);
    const after = (await (await fetch(`${served.url}/status`)).json()) as any;
    assert.equal(after.database.nodes, before.database.nodes + 2);
    assert.equal(after.database.edges, before.database.edges + 1);
    const driver = neo4j.driver(`bolt://127.0.0.1:${served.boltPort}`, neo4j.auth.basic('any', 'any'));
    try {
      const result = await driver.executeQuery('MATCH (n:Counted) RETURN count(n) AS c');
      assert.equal(result.records[0].get('c').toNumber(), 2, 'Bolt sees the data written over HTTP');
    } finally {
      await driver.close();
    }
    assert.ok(fs.readdirSync(dataDir).length > 0, 'data written under --data-dir');
    served.child.kill('SIGTERM');
    assert.equal(await served.exited, 0);
    assert.match(served.output(), /shutdown complete/);
  });

  it('warns at startup and /status names exact search when the faiss native build cannot be loaded', async () => {
    const broken = writeBrokenFaissPackage(tempDir());
    const served = await serve(tempDir(), [], {
      BROKEN_FAISS_PACKAGE: broken,
      NODE_OPTIONS: `--require ${path.join(here, 'fixtures', 'broken-faiss.cjs')}`,
    });
    assert.match(served.output(), /"level":40[^\n]*faiss-node failed to load[^\n]*vector search has no ANN index backend/);
    const status = (await (await fetch(`${served.url}/status`)).json()) as any;
    assert.equal(status.search.vector_backend, 'exact');
    assert.match(status.search.vector_backend_reason, /^faiss-node failed to load: .*faiss-node\.node/);
    served.child.kill('SIGTERM');
    assert.equal(await served.exited, 0);
  });

  it('loses nothing when killed with SIGKILL right after a 200 write', async () => {
    const dataDir = tempDir();
    const first = await serve(dataDir, [], { GRAPHDB_ASYNC_WRITES_ENABLED: 'false' });
    const written = await post(first.url, 'UNWIND range(1, 50) AS i CREATE (:Durable {i: i})');
    assert.equal(written.status, 200);
    assert.deepEqual(written.body.errors, []);
    first.child.kill('SIGKILL');
    await first.exited;
    const second = await serve(dataDir);
    assert.equal(await count(second.url, 'Durable'), 50);
    second.child.kill('SIGTERM');
    assert.equal(await second.exited, 0);
  });

  it('flushes accepted async writes on a clean shutdown', async () => {
    const dataDir = tempDir();
    const first = await serve(dataDir, [], { GRAPHDB_ASYNC_FLUSH_INTERVAL: '1h' });
    const accepted = await post(first.url, 'CREATE (:Eventual {n: 1})');
    assert.equal(accepted.status, 202);
    first.child.kill('SIGINT');
    assert.equal(await first.exited, 0);
    const second = await serve(dataDir);
    assert.equal(await count(second.url, 'Eventual'), 1);
    second.child.kill('SIGTERM');
    await second.exited;
  });

  it('reads settings from GRAPHDB_* variables and the config file', async () => {
    const dataDir = tempDir();
    const configFile = path.join(tempDir(), 'graphdb.yaml');
    fs.writeFileSync(configFile, 'server:\n  base_path: /from-file\n');
    const spawned = spawnServe(['--http-port', '0', '--bolt-port', '0'], {
      GRAPHDB_CONFIG: configFile,
      GRAPHDB_DATA_DIR: dataDir,
      GRAPHDB_ADDRESS: '127.0.0.1',
      GRAPHDB_BOLT_ENABLED: 'false',
      GRAPHDB_NO_AUTH: 'true',
      GRAPHDB_LOG_LEVEL: 'debug',
    });
    const match = await waitForLog(
      spawned.child,
      spawned.output,
      /"url":"(http:\/\/127\.0\.0\.1:\d+)"[^\n]*HTTP listener started/,
      spawned.exited,
    );
    assert.equal((await fetch(`${match[1]}/from-file/health`)).status, 200);
    assert.doesNotMatch(spawned.output(), /Bolt listener started/);
    assert.match(spawned.output(), /"level":20/, 'debug level logs');
    spawned.child.kill('SIGTERM');
    assert.equal(await spawned.exited, 0);
  });

  it('exits 2 with a message naming the key and file for a bad config', async () => {
    const configFile = path.join(tempDir(), 'bad.yaml');
    fs.writeFileSync(configFile, 'async_writes:\n  flush_interval: often\n');
    const spawned = spawnServe(['--config', configFile, '--data-dir', tempDir()]);
    assert.equal(await spawned.exited, 2);
    assert.match(spawned.output(), /async_writes\.flush_interval/);
    assert.ok(spawned.output().includes(configFile));
  });

  it('exits 3 on a refused transport configuration', async () => {
    const spawned = spawnServe(['--data-dir', tempDir(), '--address', '0.0.0.0', '--http-port', '0', '--no-bolt']);
    assert.equal(await spawned.exited, 3);
    assert.match(spawned.output(), /security configuration: public plaintext HTTP listener is not allowed/);
  });
});
