/**
 * The builders every setting is declared with. One declaration holds a setting's value kind (its
 * zod schema), default, environment variables, help text and its effect: the test that observes
 * it, or the reason startup rejects it. The typed configuration (`GraphdbConfig`), the defaults,
 * loading, validation, SHOW SETTINGS and docs/configuration.md all derive from the declarations
 * (see `declarations/`).
 *
 * ```ts
 * const database = {
 *   max_connections: integer(100, { min: 1, env: 'GRAPHDB_MAX_CONNECTIONS', help: '...', proof: 'test/security/client-limits.test.ts' }),
 *   storage_serializer: rejected(choiceKind(['gob', 'msgpack']), { env: '...', help: '...', why: '...' }),
 * };
 * ```
 */
import { z } from 'zod';

/** How a setting's text or YAML value is read. */
export type SettingKind =
  | { readonly type: 'string' }
  | { readonly type: 'integer'; readonly min?: number; readonly max?: number }
  | { readonly type: 'number'; readonly min?: number; readonly max?: number }
  | { readonly type: 'boolean' }
  | { readonly type: 'duration' }
  | { readonly type: 'size' }
  | { readonly type: 'list' }
  | { readonly type: 'enum'; readonly values: readonly string[] };

/** What a setting does: the test that observes its effect, or why startup rejects it. */
export type SettingEffect = { readonly proof: string } | { readonly unsupported: string };

/** Options shared by every builder. */
export interface SettingOptions {
  /** Environment variables that set it; the first one is canonical. */
  readonly env?: string | readonly string[];
  /** One sentence: what the setting does (SHOW SETTINGS' description, the docs). */
  readonly help: string;
  /** The test file that observes the setting's effect (it names the setting or its variable). */
  readonly proof: string;
  /** The environment variable means the opposite (`GRAPHDB_NO_AUTH=true` sets `auth.enabled=false`). */
  readonly envInverted?: boolean;
  /** Redacted in `/admin/config`, SHOW SETTINGS and logs. */
  readonly secret?: boolean;
  /** May be overridden per database (`effectiveConfig`). */
  readonly perDatabase?: boolean;
}

/** Options of a setting startup rejects. */
export interface RejectedOptions {
  readonly env?: string | readonly string[];
  readonly help: string;
  /** Why it is not supported (shown in the startup error and the docs). */
  readonly why: string;
}

const SETTING = Symbol('setting');

/** A declared setting whose value has type `T`. */
export interface Setting<T> {
  readonly [SETTING]: 'accepted';
  readonly kind: SettingKind;
  /** Validates a typed value (after text coercion). */
  readonly schema: z.ZodType<T>;
  readonly default: T;
  readonly env: readonly string[];
  readonly help: string;
  readonly effect: SettingEffect;
  readonly envInverted: boolean;
  readonly secret: boolean;
  readonly perDatabase: boolean;
  /** Category shown by the per-database keys listing (set by `group`). */
  readonly category: string;
}

/** A declared setting that startup rejects when it is given (it has no value in the configuration). */
export interface RejectedSetting {
  readonly [SETTING]: 'rejected';
  readonly kind: SettingKind;
  readonly env: readonly string[];
  readonly help: string;
  readonly effect: { readonly unsupported: string };
  readonly category: string;
}

/** Any declared setting. */
export type AnySetting = Setting<unknown> | RejectedSetting;

/** A tree of declarations: sections map keys to settings or sub-sections. */
export interface DeclarationTree {
  readonly [key: string]: AnySetting | DeclarationTree;
}

/** The typed configuration a declaration tree describes (rejected settings have no value). */
export type ConfigOf<D> = {
  -readonly [K in keyof D as D[K] extends RejectedSetting ? never : K]: D[K] extends Setting<infer T>
    ? T
    : D[K] extends DeclarationTree
      ? ConfigOf<D[K]>
      : never;
};

/** True for a declared setting (a leaf of the tree). */
export function isSetting(value: unknown): value is AnySetting {
  return typeof value === 'object' && value !== null && SETTING in value;
}

/** True when startup rejects the setting. */
export function isRejected(setting: AnySetting): setting is RejectedSetting {
  return setting[SETTING] === 'rejected';
}

function envList(env: string | readonly string[] | undefined): readonly string[] {
  return env === undefined ? [] : typeof env === 'string' ? [env] : env;
}

/** The zod schema of a typed value of `kind`. */
export function kindSchema(kind: SettingKind): z.ZodType<unknown> {
  switch (kind.type) {
    case 'string':
      return z.string();
    case 'boolean':
      return z.boolean();
    case 'integer':
    case 'number': {
      let schema = kind.type === 'integer' ? z.number().int() : z.number().finite();
      if (kind.min !== undefined) schema = schema.min(kind.min);
      if (kind.max !== undefined) schema = schema.max(kind.max);
      return schema;
    }
    case 'duration':
      return z.number().nonnegative();
    case 'size':
      return z.number().int().nonnegative();
    case 'list':
      return z.array(z.string());
    case 'enum':
      return z.enum(kind.values as [string, ...string[]]);
  }
}

function accepted<T>(kind: SettingKind, defaultValue: T, options: SettingOptions): Setting<T> {
  const schema = kindSchema(kind) as z.ZodType<T>;
  schema.parse(defaultValue);
  return {
    [SETTING]: 'accepted',
    kind,
    schema,
    default: defaultValue,
    env: envList(options.env),
    help: options.help,
    effect: { proof: options.proof },
    envInverted: options.envInverted ?? false,
    secret: options.secret ?? false,
    perDatabase: options.perDatabase ?? false,
    category: '',
  };
}

/** Numeric bounds of an integer or number setting. */
export interface Bounds {
  readonly min?: number;
  readonly max?: number;
}

/** A string setting. */
export function text(defaultValue: string, options: SettingOptions): Setting<string> {
  return accepted({ type: 'string' }, defaultValue, options);
}

/** A boolean setting (`true`/`false`, `1`/`0`, `yes`/`no`, `on`/`off`). */
export function flag(defaultValue: boolean, options: SettingOptions): Setting<boolean> {
  return accepted({ type: 'boolean' }, defaultValue, options);
}

/** An integer setting. */
export function integer(defaultValue: number, options: SettingOptions & Bounds): Setting<number> {
  return accepted({ type: 'integer', min: options.min, max: options.max }, defaultValue, options);
}

/** A TCP port (0 picks a free one). */
export function port(defaultValue: number, options: SettingOptions): Setting<number> {
  return integer(defaultValue, { ...options, min: 0, max: 65535 });
}

/** A decimal number setting. */
export function decimal(defaultValue: number, options: SettingOptions & Bounds): Setting<number> {
  return accepted({ type: 'number', min: options.min, max: options.max }, defaultValue, options);
}

/** A duration (`50ms`, `30s`, `168h`), held in milliseconds. */
export function duration(defaultMs: number, options: SettingOptions): Setting<number> {
  return accepted({ type: 'duration' }, defaultMs, options);
}

/** A byte size (`16mb`, `1048576`), held in bytes. */
export function size(defaultBytes: number, options: SettingOptions): Setting<number> {
  return accepted({ type: 'size' }, defaultBytes, options);
}

/** A list of strings (YAML list or comma-separated text). */
export function list(defaultValue: readonly string[], options: SettingOptions): Setting<string[]> {
  return accepted({ type: 'list' }, [...defaultValue], options);
}

/** One of a fixed set of words. */
export function choice<const V extends readonly [string, ...string[]]>(
  values: V,
  defaultValue: V[number],
  options: SettingOptions,
): Setting<V[number]> {
  return accepted({ type: 'enum', values }, defaultValue, options);
}

/** A documented setting that this implementation does not support: startup rejects it, naming why. */
export function rejected(kind: SettingKind, options: RejectedOptions): RejectedSetting {
  return {
    [SETTING]: 'rejected',
    kind,
    env: envList(options.env),
    help: options.help,
    effect: { unsupported: options.why },
    category: '',
  };
}

/** Stamps `category` on every setting of a section (the per-database keys listing groups by it). */
export function group<D extends DeclarationTree>(category: string, tree: D): D {
  const stamped: Record<string, AnySetting | DeclarationTree> = {};
  for (const [key, value] of Object.entries(tree)) {
    stamped[key] = isSetting(value) ? (value.category === '' ? { ...value, category } : value) : group(category, value);
  }
  return stamped as D;
}
