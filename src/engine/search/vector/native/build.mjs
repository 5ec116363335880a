#!/usr/bin/env node
// Builds faiss-node's native addon against the system faiss (Debian `libfaiss-dev`).
// faiss-node's own install script downloads binaries or clones faiss from GitHub, which this
// project never does; package.json denies that script and runs this one after `npm ci`.
// Without libfaiss-dev the build is skipped with a warning: vector search then reports itself
// unavailable instead of aborting the install.
import { copyFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

function packageDir() {
  try {
    return dirname(require.resolve('faiss-node/package.json'));
  } catch {
    return null;
  }
}

function nodeGypPath() {
  const npmRoot = spawnSync('npm', ['root', '-g'], { encoding: 'utf8' }).stdout.trim();
  const candidates = [join(npmRoot, 'npm/node_modules/node-gyp/bin/node-gyp.js')];
  try {
    candidates.unshift(require.resolve('node-gyp/bin/node-gyp.js'));
  } catch {
    // not a local dependency; fall back to npm's bundled node-gyp
  }
  return candidates.find((path) => existsSync(path)) ?? null;
}

const pkg = packageDir();
if (!pkg) {
  console.warn('[graphdb] faiss-node is not installed; skipping its native build');
  process.exit(0);
}
if (existsSync(join(pkg, 'build/Release/faiss-node.node')) && !process.argv.includes('--force')) {
  process.exit(0);
}
if (!existsSync('/usr/include/faiss/Index.h')) {
  console.warn(
    '[graphdb] libfaiss-dev is not installed (apt-get install -y libfaiss-dev libopenblas-dev); vector search will be unavailable',
  );
  process.exit(0);
}
const gyp = nodeGypPath();
if (!gyp) {
  console.warn('[graphdb] node-gyp not found; cannot build faiss-node');
  process.exit(0);
}
copyFileSync(join(here, 'binding.gyp'), join(pkg, 'binding.gyp'));
copyFileSync(join(here, 'debian-faiss-compat.h'), join(pkg, 'debian-faiss-compat.h'));
const nodedir = process.env.npm_config_nodedir || '/usr';
const build = spawnSync(process.execPath, [gyp, 'rebuild', `--nodedir=${nodedir}`], { cwd: pkg, stdio: 'inherit' });
if (build.status !== 0) {
  console.error('[graphdb] faiss-node native build failed');
  process.exit(build.status ?? 1);
}
