#!/usr/bin/env node
// The commands run from the esbuild bundle (dist/bundle/, `npm run build`); its source maps make
// stack traces name the TypeScript sources.
process.setSourceMapsEnabled(true);
const { execute } = await import('@oclif/core');

await execute({ dir: import.meta.url });
