/**
 * Rewrites oclif.manifest.json with its commands in name order. `oclif manifest` lists them in the
 * order its file search returns them, which varies from build to build; sorted, a build leaves the
 * committed manifest unchanged unless a command or flag changed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const file = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'oclif.manifest.json');
const manifest = JSON.parse(readFileSync(file, 'utf8'));
manifest.commands = Object.fromEntries(Object.entries(manifest.commands).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
