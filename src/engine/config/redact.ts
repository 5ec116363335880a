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

/**
 * Deletes the environment variables of every secret setting (GRAPHDB_AUTH, GRAPHDB_JWT_SECRET,
 * API keys, ...) once the configuration holds their values, so nothing that can read the
 * process environment later (a procedure, a child process, a diagnostic dump) finds them.
 * Returns the names removed.
 */
export function removeSecretsFromEnvironment(env: Record<string, string | undefined> = process.env): string[] {
  const removed: string[] = [];
  for (const spec of SETTINGS) {
    if (!spec.secret) continue;
    for (const name of spec.env) {
      if (env[name] === undefined) continue;
      delete env[name];
      removed.push(name);
    }
  }
  return removed;
}
