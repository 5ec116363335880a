#!/usr/bin/env node
// Bundles the web UI (src/server/browser/app/) with esbuild into dist/browser/: index.html,
// app.js (minified, every dependency inlined: nothing is fetched at run time) and app.css.
// `npm run build` runs it; `node src/server/browser/build.mjs [outdir]` builds elsewhere.
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const appDir = path.join(root, 'src/server/browser/app');

/** The default output directory, where the server looks for the app (`browserAssetsDir`). */
export const DEFAULT_OUTDIR = path.join(root, 'dist/browser');

/**
 * Builds the app into `outdir`; returns the byte size of each output file.
 * @param {string} outdir
 * @returns {Promise<Record<string, number>>}
 */
export async function buildBrowserApp(outdir = DEFAULT_OUTDIR) {
  await mkdir(outdir, { recursive: true });
  const result = await build({
    entryPoints: { app: path.join(appDir, 'main.ts') },
    outdir,
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome110', 'firefox110', 'safari16'],
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
    define: { 'process.env.NODE_ENV': '"production"' },
    // neo4j-driver's own browser build (WebSocket channel), as a browser client of Neo4j uses it.
    alias: { 'neo4j-driver': 'neo4j-driver/lib/browser/neo4j-web.esm.js' },
  });
  await copyFile(path.join(appDir, 'index.html'), path.join(outdir, 'index.html'));
  const sizes = {};
  for (const [file, output] of Object.entries(result.metafile.outputs)) sizes[path.basename(file)] = output.bytes;
  return sizes;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const outdir = process.argv[2] ? path.resolve(process.argv[2]) : DEFAULT_OUTDIR;
  const sizes = await buildBrowserApp(outdir);
  const listing = Object.entries(sizes)
    .map(([file, bytes]) => `${file} ${(bytes / 1024).toFixed(1)} KiB`)
    .join(', ');
  console.log(`web UI built into ${path.relative(root, outdir) || '.'}: ${listing}`);
}
