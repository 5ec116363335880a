import { parseDuration } from './duration.js';
import { ConfigError } from './errors.js';
import { kindSchema, type SettingKind } from './declare.js';
import { unsupportedReason, type SettingSpec } from './settings.js';

const SIZE_UNITS: Readonly<Record<string, number>> = {
  '': 1,
  b: 1,
  k: 1024,
  kb: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
};

/** Parses `16mb`, `512kb`, `1048576` into bytes; null when not a size. */
export function parseSize(text: string): number | null {
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text.trim());
  if (match === null) return null;
  const unit = SIZE_UNITS[match[2]!.toLowerCase()];
  return unit === undefined ? null : Math.floor(Number(match[1]) * unit);
}

function describe(kind: SettingKind): string {
  switch (kind.type) {
    case 'string':
      return 'a string';
    case 'integer':
      return `an integer${range(kind.min, kind.max)}`;
    case 'number':
      return `a number${range(kind.min, kind.max)}`;
    case 'boolean':
      return 'true or false';
    case 'duration':
      return 'a duration such as 50ms, 30s or 168h';
    case 'size':
      return 'a size such as 16mb or 1048576';
    case 'list':
      return 'a list of strings (YAML list or comma-separated)';
    case 'enum':
      return `one of ${kind.values.join(', ')}`;
  }
}

function range(min?: number, max?: number): string {
  if (min !== undefined && max !== undefined) return ` between ${min} and ${max}`;
  if (min !== undefined) return ` >= ${min}`;
  if (max !== undefined) return ` <= ${max}`;
  return '';
}

function parseBoolean(raw: unknown): boolean | undefined {
  if (typeof raw === 'boolean') return raw;
  if (typeof raw !== 'string' && typeof raw !== 'number') return undefined;
  const text = String(raw).trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(text)) return true;
  if (['false', '0', 'no', 'off'].includes(text)) return false;
  return undefined;
}

function parseNumeric(raw: unknown, integer: boolean): number | undefined {
  if (typeof raw === 'number') return raw;
  if (typeof raw === 'bigint') return Number(raw);
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  const value = Number(raw.trim());
  if (Number.isNaN(value)) return undefined;
  return integer && !Number.isInteger(value) ? undefined : value;
}

/** Converts raw text or a YAML value to the kind's type; the zod schema checks the result. */
function coerceKind(kind: SettingKind, raw: unknown): unknown {
  switch (kind.type) {
    case 'string':
      return typeof raw === 'string' || typeof raw === 'number' ? String(raw) : undefined;
    case 'boolean':
      return parseBoolean(raw);
    case 'integer':
    case 'number':
      return parseNumeric(raw, kind.type === 'integer');
    case 'duration':
      if (typeof raw === 'number') return raw;
      return typeof raw === 'string' ? (parseDuration(raw) ?? undefined) : undefined;
    case 'size':
      if (typeof raw === 'number') return raw;
      return typeof raw === 'string' ? (parseSize(raw) ?? undefined) : undefined;
    case 'list':
      if (Array.isArray(raw)) return [...(raw as unknown[])];
      if (typeof raw === 'string')
        return raw
          .split(',')
          .map((part) => part.trim())
          .filter((part) => part !== '');
      return undefined;
    case 'enum':
      return raw;
  }
}

/**
 * Converts a raw value (YAML value, environment text or flag) to the setting's type and validates
 * it with the setting's zod schema. Throws a ConfigError naming `key` (the path or variable the
 * user wrote) and `source`; a setting startup rejects throws whatever its value.
 */
export function coerceSetting(spec: SettingSpec, raw: unknown, key: string, source: string): unknown {
  const unsupported = unsupportedReason(spec);
  if (unsupported !== null) {
    throw new ConfigError(`unsupported configuration key "${key}" in ${source}: ${unsupported}`, key, source);
  }
  const value = coerceKind(spec.kind, raw);
  const checked = value === undefined ? null : kindSchema(spec.kind).safeParse(value);
  if (checked === null || !checked.success) {
    const shown = typeof raw === 'string' ? JSON.stringify(raw) : String(raw);
    throw new ConfigError(`invalid value for "${key}" in ${source}: expected ${describe(spec.kind)}, got ${shown}`, key, source);
  }
  return checked.data;
}
