import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { coerceSetting } from './coerce.js';
import { ConfigError } from './errors.js';
import type { LoadedConfig } from './load.js';
import { SETTINGS, SETTINGS_BY_ENV, SETTINGS_BY_PATH, unsupportedReason, type SettingSpec } from './settings.js';
import { deepClone, setPath } from './tree.js';
import type { GraphdbConfig } from './types.js';

/** One key accepted in per-database overrides (`GET /admin/databases/config/keys`). */
export interface OverridableKey {
  /** The key to send: the environment variable name. */
  readonly key: string;
  readonly path: string;
  readonly type: string;
  readonly category: string;
}

/** Every setting that may be overridden per database. */
export function overridableKeys(): OverridableKey[] {
  return SETTINGS.filter((s) => s.perDatabase).map((s) => ({
    key: s.env[0] ?? s.path,
    path: s.path,
    type: s.kind.type === 'enum' ? `enum(${s.kind.values.join('|')})` : s.kind.type,
    category: s.category,
  }));
}

function overridableSpec(key: string): SettingSpec | undefined {
  const spec = SETTINGS_BY_ENV.get(key) ?? SETTINGS_BY_PATH.get(key);
  return spec !== undefined && (spec.perDatabase || unsupportedReason(spec) !== null) ? spec : undefined;
}

/**
 * Validates per-database overrides given as `{KEY: "value"}` (keys are environment variable
 * names or dotted paths) and returns typed values by dotted path.
 */
export function parseOverrides(overrides: Readonly<Record<string, unknown>>, source: string): Map<string, unknown> {
  const typed = new Map<string, unknown>();
  for (const [key, raw] of Object.entries(overrides)) {
    const spec = overridableSpec(key);
    if (spec === undefined) throw new ConfigError(`unknown or non-overridable configuration key "${key}" in ${source}`, key, source);
    typed.set(spec.path, coerceSetting(spec, raw, key, source));
  }
  return typed;
}

/** The global config overlaid by typed per-database values. */
export function effectiveConfig(global: GraphdbConfig, ...overlays: (ReadonlyMap<string, unknown> | undefined)[]): GraphdbConfig {
  const merged = deepClone(global) as unknown as Record<string, unknown>;
  for (const overlay of overlays) {
    for (const [dotted, value] of overlay ?? []) setPath(merged, dotted, value);
  }
  return merged as unknown as GraphdbConfig;
}

/**
 * Holds the global config and every database's overrides: the file's `databases:` overlays plus
 * overrides saved at run time (persisted as JSON in the data directory, so they survive restarts).
 */
export class DatabaseConfigRegistry {
  private readonly saved = new Map<string, Record<string, string>>();
  /** Effective configs by database, rebuilt when that database's overrides change. */
  private readonly effective = new Map<string, GraphdbConfig>();

  constructor(
    private readonly loaded: LoadedConfig,
    /** JSON file for run-time overrides, or null to keep them in memory only. */
    private readonly persistFile: string | null,
  ) {
    if (persistFile !== null && existsSync(persistFile)) {
      const stored = JSON.parse(readFileSync(persistFile, 'utf8')) as Record<string, Record<string, string>>;
      for (const [database, overrides] of Object.entries(stored)) {
        parseOverrides(overrides, persistFile);
        this.saved.set(database, overrides);
      }
    }
  }

  /** The global configuration. */
  get global(): GraphdbConfig {
    return this.loaded.config;
  }

  /** Saved run-time overrides of a database (as given, strings by key). */
  overrides(database: string): Readonly<Record<string, string>> {
    return this.saved.get(database) ?? {};
  }

  /** Replaces a database's run-time overrides after validating them; persists them. */
  setOverrides(database: string, overrides: Readonly<Record<string, unknown>>): void {
    parseOverrides(overrides, `overrides of database ${database}`);
    const asText = Object.fromEntries(Object.entries(overrides).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : String(v)]));
    if (Object.keys(asText).length === 0) this.saved.delete(database);
    else this.saved.set(database, asText);
    this.effective.delete(database);
    this.persist();
  }

  /**
   * Global config overlaid by the file's `databases.<name>` section, then saved overrides.
   * The result is shared between callers: treat it as read-only.
   */
  effectiveConfig(database: string): GraphdbConfig {
    let config = this.effective.get(database);
    if (config === undefined) {
      config = effectiveConfig(
        this.loaded.config,
        this.loaded.databaseOverlays.get(database),
        parseOverrides(this.overrides(database), `overrides of database ${database}`),
      );
      this.effective.set(database, config);
    }
    return config;
  }

  private persist(): void {
    if (this.persistFile === null) return;
    mkdirSync(path.dirname(this.persistFile), { recursive: true });
    const temporary = `${this.persistFile}.tmp`;
    writeFileSync(temporary, JSON.stringify(Object.fromEntries(this.saved), null, 2));
    renameSync(temporary, this.persistFile);
  }
}
