import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Writes a `faiss-node` package whose native build is present but broken (not a shared object),
 * as a failed or mismatched native build leaves it, under `parent/faiss-node`; returns that path.
 */
export function writeBrokenFaissPackage(parent: string): string {
  const pkg = join(parent, 'faiss-node');
  mkdirSync(join(pkg, 'lib'), { recursive: true });
  mkdirSync(join(pkg, 'build/Release'), { recursive: true });
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'faiss-node', version: '0.5.1', main: 'lib/index.js' }));
  writeFileSync(join(pkg, 'lib/index.js'), "module.exports = require('../build/Release/faiss-node.node');\n");
  writeFileSync(join(pkg, 'build/Release/faiss-node.node'), 'not a shared object: the native build failed\n');
  return pkg;
}
