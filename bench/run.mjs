#!/usr/bin/env node
// Entry point of `npm run bench`: runs bench/src/main.ts through tsx (works from a clean clone after
// `npm ci`; the Kuzu peer additionally needs `npm --prefix bench ci`). Arguments pass through.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
if (!existsSync(fileURLToPath(new URL('./node_modules/kuzu/package.json', import.meta.url)))) {
  console.log('note: the Kuzu peer is not installed; run `npm --prefix bench ci` to include it (it is ~541 MB).');
}
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--expose-gc', fileURLToPath(new URL('./src/main.ts', import.meta.url)), ...process.argv.slice(2)],
  // One OpenMP thread: faiss otherwise spins threads per query on a shared 2-core machine.
  { cwd: root, stdio: 'inherit', env: { OMP_NUM_THREADS: '1', ...process.env } },
);
process.exit(result.status ?? 1);
