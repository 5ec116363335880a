#!/usr/bin/env node
// Runs every *.test.ts under test/ with node's built-in runner (Node 20 does not expand globs itself).
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const filter = process.argv.slice(2);

function collect(dir) {
  const files = [];
  for (const entry of readdirSync(dir)) {
    if (entry === 'fixtures' || entry.startsWith('.')) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) files.push(...collect(path));
    else if (entry.endsWith('.test.ts')) files.push(relative(root, path));
  }
  return files;
}

const files = collect(join(root, 'test'))
  .filter((f) => filter.length === 0 || filter.some((part) => f.includes(part)))
  .sort();
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...files], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
