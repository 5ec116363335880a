/** Where the engine's modules are loaded from: `src/` through tsx, or `dist/` after `npm run build`. */
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Where the engine's modules are loaded from. */
export type EngineSource = 'src' | 'dist';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Absolute module URL of an engine file given its path under src/ without extension. */
export function engineModule(source: EngineSource, path: string): string | null {
  const file = source === 'src' ? `${ROOT}src/${path}.ts` : `${ROOT}dist/${path}.js`;
  return existsSync(file) ? pathToFileURL(file).href : null;
}
