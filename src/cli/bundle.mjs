#!/usr/bin/env node
// Bundles the CLI (every oclif command of src/commands/ and what it imports, packages included)
// with esbuild into dist/bundle/: one ES module per command under dist/bundle/commands/ (where
// package.json's `oclif.commands` points) and the code they share in dist/bundle/chunks/. Node
// then loads a few files instead of about 1,400 (docs/perf.md, "Start-up"), which is most of
// `graphdb serve`'s start-up time. Modules imported with `import()` stay in chunks of their own,
// loaded on first use as before. `npm run build` runs it after tsc (dist/ stays the library's
// build: package.json `exports`); `node src/cli/bundle.mjs` rebuilds the bundle alone.
import { readdirSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../..', import.meta.url));
const commandsDir = path.join(root, 'src/commands');

/** Where the bundle goes. */
export const BUNDLE_DIR = path.join(root, 'dist/bundle');

/**
 * Packages left to Node's loader: native add-ons (and the packages that load them), oclif (the
 * runtime that loads the command modules), the interactive shell's React and ink (bundled, ink's
 * default import of the CommonJS react does not get its exports), and the optional packages that
 * are not installed (ws's native helpers, ink's React devtools): importing them fails at run time
 * as it does unbundled.
 */
const EXTERNAL = [
  'better-sqlite3',
  'faiss-node',
  're2',
  'node-llama-cpp',
  '@oclif/core',
  'react',
  'ink',
  'ink-text-input',
  'bufferutil',
  'utf-8-validate',
  'react-devtools-core',
];

/**
 * Source files that find a file next to themselves through `import.meta.url`: in the bundle they
 * must sit in dist/bundle/chunks/, two levels under dist/ like their compiled form, where the read
 * worker's entry (`chunks/read-worker.js`) and the web UI (`dist/browser/`) are found.
 */
const LOCATION_DEPENDENT = ['src/engine/session/read-pool/read-pool.ts', 'src/server/browser/routes.ts'];

/** Bundled CommonJS packages call `require` for Node's built-in modules. */
const BANNER =
  "import { createRequire as __graphdbCreateRequire } from 'node:module'; const require = __graphdbCreateRequire(import.meta.url);";

function commandEntries(dir = commandsDir) {
  const entries = {};
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) Object.assign(entries, commandEntries(file));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
      entries[path.join('commands', path.relative(commandsDir, file).slice(0, -'.ts'.length))] = file;
    }
  }
  return entries;
}

/**
 * Builds the bundle into `outdir`, then deletes the files of earlier builds there (afterwards, not
 * before: a CLI process started meanwhile still finds its files); returns the number of output files.
 * @param {string} outdir
 * @returns {Promise<number>}
 */
export async function buildCliBundle(outdir = BUNDLE_DIR) {
  const result = await build({
    entryPoints: { ...commandEntries(), 'chunks/read-worker': path.join(root, 'src/engine/session/read-pool/read-worker.ts') },
    outdir,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Stack traces point into src/ (bin/run.js turns source maps on); the sources themselves are in the repository.
    sourcemap: true,
    sourcesContent: false,
    external: EXTERNAL,
    banner: { js: BANNER },
    metafile: true,
    logLevel: 'warning',
  });
  for (const source of LOCATION_DEPENDENT) {
    const holders = Object.entries(result.metafile.outputs).filter(([, output]) => source in output.inputs);
    for (const [file] of holders) {
      if (path.dirname(path.resolve(root, file)) !== path.join(outdir, 'chunks'))
        throw new Error(`${source} was bundled into ${file}, outside ${path.relative(root, outdir)}/chunks/: its files would not be found`);
    }
  }
  const outputs = new Set(Object.keys(result.metafile.outputs).map((file) => path.resolve(root, file)));
  for (const entry of await readdir(outdir, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if (entry.isFile() && !outputs.has(file)) await rm(file);
  }
  return outputs.size;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = await buildCliBundle();
  console.log(`CLI bundled into ${path.relative(root, BUNDLE_DIR)}: ${files} files`);
}
