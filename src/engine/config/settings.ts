/**
 * The flat table of every declared setting with its dotted path (the YAML location). Loading,
 * validation, redaction, SHOW SETTINGS, the per-database override keys and docs/configuration.md
 * are all driven by it; the declarations themselves are in `declarations/`.
 */
import { isRejected, isSetting, type AnySetting, type DeclarationTree } from './declare.js';
import { DECLARATIONS } from './declarations/index.js';

export type { SettingKind } from './declare.js';

/** One declared setting with its dotted path, e.g. `async_writes.flush_interval`. */
export type SettingSpec = AnySetting & {
  readonly path: string;
  /** May be overridden per database (`effectiveConfig`); false for rejected settings. */
  readonly perDatabase: boolean;
  /** Redacted in `/admin/config` and logs. */
  readonly secret: boolean;
  /** The environment variable means the opposite (`GRAPHDB_NO_AUTH=true` sets `auth.enabled=false`). */
  readonly envInverted: boolean;
};

function flatten(tree: DeclarationTree, prefix: string): SettingSpec[] {
  return Object.entries(tree).flatMap(([key, node]) => {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    if (!isSetting(node)) return flatten(node, path);
    if (isRejected(node)) return [{ ...node, path, perDatabase: false, secret: false, envInverted: false }];
    return [{ ...node, path }];
  });
}

/** Every setting graphdb knows, accepted and rejected. */
export const SETTINGS: readonly SettingSpec[] = flatten(DECLARATIONS, '');

/** Settings by dotted path. */
export const SETTINGS_BY_PATH: ReadonlyMap<string, SettingSpec> = new Map(SETTINGS.map((s) => [s.path, s]));

/** Settings by environment variable name. */
export const SETTINGS_BY_ENV: ReadonlyMap<string, SettingSpec> = new Map(SETTINGS.flatMap((s) => s.env.map((name) => [name, s] as const)));

/** The reason startup rejects a setting, or null when it is supported. */
export function unsupportedReason(spec: SettingSpec): string | null {
  return 'unsupported' in spec.effect ? spec.effect.unsupported : null;
}
