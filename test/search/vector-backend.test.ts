import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadFaiss, loadVectorBackend, vectorBackend } from '../../src/engine/search/vector/faiss.js';
import { writeBrokenFaissPackage } from './helpers/broken-faiss.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

test('with the native build present the backend is faiss, before and after loading it', () => {
  assert.deepEqual(vectorBackend(), { name: 'faiss' });
  assert.notEqual(loadFaiss(), null);
  assert.deepEqual(vectorBackend(), { name: 'faiss' });
  assert.deepEqual(loadVectorBackend(), { name: 'faiss' });
});

test('a native build that is present but cannot be loaded: expected before loading, exact search with the loader error after', () => {
  const dir = mkdtempSync(join(tmpdir(), 'graphdb-broken-faiss-'));
  try {
    copyFileSync(join(root, 'src/engine/search/vector/faiss.ts'), join(dir, 'faiss.ts'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    writeBrokenFaissPackage(join(dir, 'node_modules'));
    const script = [
      `const { vectorBackend, loadVectorBackend } = await import(${JSON.stringify(join(dir, 'faiss.ts'))});`,
      'console.log(JSON.stringify({ before: vectorBackend(), loaded: loadVectorBackend(), after: vectorBackend() }));',
    ].join('\n');
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
    assert.equal(child.status, 0, child.stderr);
    const outcome = JSON.parse(child.stdout) as Record<'before' | 'loaded' | 'after', { name: string; reason?: string }>;
    assert.deepEqual(outcome.before, { name: 'faiss' });
    assert.equal(outcome.loaded.name, 'exact');
    assert.match(outcome.loaded.reason!, /^faiss-node failed to load: .*faiss-node\.node: (invalid ELF header|file too short)/);
    assert.deepEqual(outcome.after, outcome.loaded);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('without faiss-node the backend is exact search and the reason is named, before and after a load attempt', () => {
  // The module resolves faiss-node next to itself: a copy outside the repository has no node_modules to find it in.
  const dir = mkdtempSync(join(tmpdir(), 'graphdb-no-faiss-'));
  try {
    copyFileSync(join(root, 'src/engine/search/vector/faiss.ts'), join(dir, 'faiss.ts'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    const script = [
      `const { loadFaiss, vectorBackend } = await import(${JSON.stringify(join(dir, 'faiss.ts'))});`,
      'const before = vectorBackend();',
      'const module = loadFaiss();',
      'console.log(JSON.stringify({ before, loaded: module !== null, after: vectorBackend() }));',
    ].join('\n');
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
    assert.equal(child.status, 0, child.stderr);
    const outcome = JSON.parse(child.stdout) as {
      before: { name: string; reason: string };
      loaded: boolean;
      after: { name: string; reason: string };
    };
    assert.deepEqual(outcome.before, { name: 'exact', reason: 'faiss-node is not installed' });
    assert.equal(outcome.loaded, false);
    assert.equal(outcome.after.name, 'exact');
    assert.match(outcome.after.reason, /^faiss-node failed to load: Cannot find module 'faiss-node'/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
