/** Runs the built CLI (`node bin/run.js`) for tests, compiling `dist/` first when it is stale. */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'run.js');

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

/**
 * Builds what `bin/run.js` runs: compiles src/ into dist/ (tsc) and bundles the CLI into
 * dist/bundle/ (src/cli/bundle.mjs), as `npm run build` does without the web UI and the manifest.
 */
export function buildCli(): void {
  for (const args of [
    [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'],
    [join(ROOT, 'src', 'cli', 'bundle.mjs')],
  ]) {
    const result = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`build failed: ${result.stdout}${result.stderr}`);
  }
}

/** Builds the CLI (`buildCli`) when a source (the bundle holds all of src/) is newer than the bundled shell command. */
export function ensureBuilt(): void {
  let built: number;
  try {
    built = statSync(join(ROOT, 'dist', 'bundle', 'commands', 'shell.js')).mtimeMs;
  } catch {
    built = 0;
  }
  if (newest(join(ROOT, 'src')) > built) buildCli();
}

/** Runs `graphdb <args>` to completion. */
export function cli(args: readonly string[], options: { input?: string; env?: Record<string, string> } = {}): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    input: options.input ?? '',
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    timeout: 60_000,
  });
}

/** Runs `graphdb <args>` asynchronously, resolving to its exit code and output. */
export function cliAsync(args: readonly string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/**
 * Starts `graphdb <args>` and, once its standard output (or `stream`) matches `pattern`, kills it with
 * SIGKILL; resolves when it is gone, telling whether it was still running at the match (used to show
 * that output streams before a statement completes, and to kill an import mid-way).
 */
export function cliOutputWhileRunning(
  args: readonly string[],
  pattern: RegExp,
  timeoutMs = 30_000,
  stream: 'stdout' | 'stderr' = 'stdout',
): Promise<{ running: boolean; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    let settled = false;
    const exited = new Promise<void>((done) => child.on('close', () => done()));
    const settle = (running: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      const matched = running || pattern.test(watched());
      void exited.then(() => {
        if (matched) resolve({ running, stdout, stderr });
        else reject(new Error(`graphdb ${args.join(' ')} ended without matching ${String(pattern)}:\n${stdout}\n${stderr}`));
      });
    };
    const watched = () => (stream === 'stdout' ? stdout : stderr);
    const timer = setTimeout(() => settle(false), timeoutMs);
    const check = () => {
      if (pattern.test(watched())) settle(child.exitCode === null && child.signalCode === null);
    };
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      check();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      check();
    });
    child.on('close', () => settle(false));
  });
}

/** Runs the CLI in a pseudo-terminal through the python driver (fixtures/pty-driver.py), `columns` wide (default 160). */
export function cliInPty(
  args: readonly string[],
  steps: readonly object[],
  options: { columns?: number; env?: Record<string, string> } = {},
): SpawnSyncReturns<string> {
  const driver = join(ROOT, 'test', 'cli', 'fixtures', 'pty-driver.py');
  return spawnSync(
    'python3',
    [driver, JSON.stringify([process.execPath, BIN, ...args]), JSON.stringify(steps), String(options.columns ?? 160)],
    {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 300_000,
      env: { ...process.env, ...options.env },
    },
  );
}

/** A CLI error message as one line (oclif wraps messages to the terminal width behind `›` markers). */
export function oneLine(text: string): string {
  return text.replace(/\s*\n(\s*›)?\s*/g, ' ');
}

/** Runs one statement with `graphdb shell --data-dir`, asserting that it succeeds; returns its output. */
export function shellQuery(dataDir: string, statement: string): string {
  const run = cli(['shell', '--data-dir', dataDir, statement]);
  assert.equal(run.status, 0, run.stderr);
  return run.stdout;
}
