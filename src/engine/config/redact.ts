import { SETTINGS } from './settings.js';
import { deepClone, getPath, setPath } from './tree.js';
import type { GraphdbConfig } from './types.js';

/** Shown instead of a secret that is set. */
export const REDACTED = '********';

/** A copy of the config with every secret setting that has a value replaced by `REDACTED`. */
export function redactConfig(config: GraphdbConfig): GraphdbConfig {
  const copy = deepClone(config) as unknown as Record<string, unknown>;
  for (const spec of SETTINGS) {
    if (spec.secret && getPath(copy, spec.path)) setPath(copy, spec.path, REDACTED);
  }
  return copy as unknown as GraphdbConfig;
}
