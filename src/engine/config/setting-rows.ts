/**
 * The rows of `SHOW SETTINGS`: every setting of the table with its effective value, default,
 * description and whether it can change at run time (per-database overrides), secrets redacted.
 * Values are strings as in Neo4j (`10s`, `true`, `a,b`).
 */
import { DEFAULT_CONFIG } from './defaults.js';
import { formatDuration } from './duration.js';
import type { LoadedConfig } from './load.js';
import { REDACTED } from './redact.js';
import { SETTINGS, unsupportedReason, type SettingSpec } from './settings.js';
import { settingDescription } from './setting-descriptions.js';
import { getPath } from './tree.js';

/** One row of SHOW SETTINGS (the full column set). */
export interface SettingInfo {
  readonly name: string;
  /** Effective value, `********` for a secret that is set. */
  readonly value: string;
  /** Changeable at run time (per-database overrides through the admin API). */
  readonly isDynamic: boolean;
  readonly defaultValue: string;
  readonly description: string;
  /** The value at startup (the same as `value`: nothing changes the global configuration later). */
  readonly startupValue: string;
  /** Set by a config file, environment variable or flag rather than left at its default. */
  readonly isExplicitlySet: boolean;
  /** Accepted values in words (`a boolean`, `one of [a, b]`, `an integer in [0, 65535]`). */
  readonly validValues: string;
  readonly isDeprecated: boolean;
}

/** A setting value as text. */
export function settingText(spec: SettingSpec, value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map(String).join(',');
  if (spec.kind.type === 'duration' && typeof value === 'number') return formatDuration(value);
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return value.toString();
  return JSON.stringify(value) ?? '';
}

function range(min: number | undefined, max: number | undefined): string {
  if (min === undefined && max === undefined) return '';
  return ` in [${min ?? '-inf'}, ${max ?? 'inf'}]`;
}

/** What a setting accepts, in words. */
export function validValues(spec: SettingSpec): string {
  const kind = spec.kind;
  switch (kind.type) {
    case 'string':
      return 'a string';
    case 'integer':
      return `an integer${range(kind.min, kind.max)}`;
    case 'number':
      return `a number${range(kind.min, kind.max)}`;
    case 'boolean':
      return 'a boolean';
    case 'duration':
      return 'a duration (e.g. 500ms, 10s, 1h30m)';
    case 'size':
      return 'a byte size (e.g. 16mb)';
    case 'list':
      return 'a comma-separated list';
    case 'enum':
      return `one of [${kind.values.join(', ')}]`;
  }
}

function redacted(spec: SettingSpec, text: string): string {
  return spec.secret && text !== '' ? REDACTED : text;
}

/** Every setting of `loaded`, sorted by name. */
export function settingRows(loaded: LoadedConfig): SettingInfo[] {
  return SETTINGS.filter((spec) => unsupportedReason(spec) === null)
    .map((spec) => {
      const value = redacted(spec, settingText(spec, getPath(loaded.config, spec.path)));
      return {
        name: spec.path,
        value,
        isDynamic: spec.perDatabase === true,
        defaultValue: redacted(spec, settingText(spec, getPath(DEFAULT_CONFIG, spec.path))),
        description: settingDescription(spec),
        startupValue: value,
        isExplicitlySet: loaded.origins.has(spec.path),
        validValues: validValues(spec),
        isDeprecated: false,
      };
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
