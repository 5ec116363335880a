import net from 'node:net';
import { coerceSetting } from './coerce.js';
import { DEFAULT_CONFIG } from './defaults.js';
import { discoverConfigFile, processDiscoveryContext, type DiscoveryContext } from './discovery.js';
import { ConfigError } from './errors.js';
import { CONFIG_SCHEMA } from './schema.js';
import { SETTINGS, SETTINGS_BY_ENV, SETTINGS_BY_PATH } from './settings.js';
import { deepClone, setPath } from './tree.js';
import type { GraphdbConfig } from './types.js';
import { readConfigFile, suggestKey } from './yaml-file.js';

/** Where a setting's effective value came from. */
export type SettingOrigin = 'default' | 'file' | 'env' | 'flag';

/** Inputs of `loadConfig`, from highest to lowest precedence. */
export interface LoadConfigOptions {
  /** Command-line values by dotted path (`server.http_port`); undefined entries are ignored. */
  readonly flags?: Readonly<Record<string, unknown>>;
  /** Environment; defaults to `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Explicit config file (`--config`); skips discovery. */
  readonly configFile?: string;
  /** Discovery inputs; defaults to this process's. */
  readonly discovery?: DiscoveryContext;
}

/** The result of loading: the typed config plus provenance. */
export interface LoadedConfig {
  readonly config: GraphdbConfig;
  /** The config file used, or null. */
  readonly file: string | null;
  /** Per-database overlays from the file's `databases:` section (typed values by path). */
  readonly databaseOverlays: ReadonlyMap<string, ReadonlyMap<string, unknown>>;
  /** Origin of every setting that did not come from the defaults. */
  readonly origins: ReadonlyMap<string, SettingOrigin>;
  /** `GRAPHDB_*` variables that name no setting (typos, or settings of other tools), for a warning. */
  readonly unknownEnv: readonly string[];
}

/** Variables that are read outside the settings table. */
const NON_SETTING_VARIABLES = new Set(['GRAPHDB_CONFIG']);

/**
 * Loads the configuration: defaults, then the config file (explicit or discovered), then
 * `GRAPHDB_*` environment variables, then flags. Every value is validated; a problem throws a
 * ConfigError naming the key and its source.
 */
export function loadConfig(options: LoadConfigOptions = {}): LoadedConfig {
  const env = options.env ?? process.env;
  const discovery = options.discovery ?? processDiscoveryContext(env);
  const config = deepClone(DEFAULT_CONFIG) as unknown as Record<string, unknown>;
  const origins = new Map<string, SettingOrigin>();
  const sources = new Map<string, string>();

  const file = options.configFile ?? discoverConfigFile(discovery);
  let databaseOverlays: ReadonlyMap<string, ReadonlyMap<string, unknown>> = new Map();
  if (file !== null) {
    const settings = readConfigFile(file);
    for (const [path, value] of settings.values) {
      setPath(config, path, value);
      origins.set(path, 'file');
      sources.set(path, file);
    }
    databaseOverlays = settings.databases;
  }

  for (const spec of SETTINGS) {
    for (const name of spec.env) {
      const raw = env[name];
      if (raw === undefined || raw === '') continue;
      let value = coerceSetting(spec, raw, name, 'environment');
      if (spec.envInverted) value = !value;
      setPath(config, spec.path, value);
      origins.set(spec.path, 'env');
      sources.set(spec.path, `environment (${name})`);
    }
  }

  for (const [path, raw] of Object.entries(options.flags ?? {})) {
    if (raw === undefined) continue;
    const spec = SETTINGS_BY_PATH.get(path);
    if (spec === undefined) throw new ConfigError(`unknown configuration key "${path}" in flags${suggestKey(path)}`, path, 'flags');
    setPath(config, path, coerceSetting(spec, raw, path, 'flags'));
    origins.set(path, 'flag');
    sources.set(path, 'flags');
  }

  const typed = config as unknown as GraphdbConfig;
  validateConfig(typed, (path) => sources.get(path) ?? 'defaults');
  const unknownEnv = Object.keys(env).filter(
    (name) => name.startsWith('GRAPHDB_') && !SETTINGS_BY_ENV.has(name) && !NON_SETTING_VARIABLES.has(name),
  );
  return { config: typed, file, databaseOverlays, origins, unknownEnv };
}

/** Cross-field checks; `sourceOf` names where a path's value came from for the message. */
export function validateConfig(config: GraphdbConfig, sourceOf: (path: string) => string = () => 'configuration'): void {
  const fail = (path: string, problem: string): never => {
    throw new ConfigError(`invalid value for "${path}" in ${sourceOf(path)}: ${problem}`, path, sourceOf(path));
  };
  const checked = CONFIG_SCHEMA.safeParse(config);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    fail(issue.path.join('.'), issue.message);
  }
  const basePath = config.server.base_path;
  if (basePath !== '' && (!basePath.startsWith('/') || basePath.endsWith('/') || /[?#\s]/.test(basePath))) {
    fail('server.base_path', `expected a URL path such as /graph (leading slash, no trailing slash), got ${JSON.stringify(basePath)}`);
  }
  for (const entry of config.server.trusted_proxies) {
    if (!isIpOrCidr(entry)) fail('server.trusted_proxies', `expected IP addresses or CIDR ranges, got ${JSON.stringify(entry)}`);
  }
  const requireBoth = (flag: string, cert: [string, string], key: [string, string], what: string): void => {
    for (const [path, value] of [cert, key]) {
      if (value === '') fail(flag, `${what} needs both a certificate and a key file, but "${path}" is not set`);
    }
  };
  const { https } = config.server;
  const httpsFlag = https.enabled ? 'server.https.enabled' : 'server.http_tls_enabled';
  if (https.enabled || config.server.http_tls_enabled) {
    requireBoth(httpsFlag, ['server.https.cert_file', https.cert_file], ['server.https.key_file', https.key_file], 'native HTTPS');
  }
  if (config.server.bolt_tls_enabled || config.server.bolt_tls_require) {
    const boltFlag = config.server.bolt_tls_enabled ? 'server.bolt_tls_enabled' : 'server.bolt_tls_require';
    requireBoth(
      boltFlag,
      ['server.bolt_tls_cert', config.server.bolt_tls_cert],
      ['server.bolt_tls_key', config.server.bolt_tls_key],
      'Bolt TLS',
    );
  }
  const credentials = config.auth.initial_credentials;
  if (credentials !== '' && !/^[^:]+:.+$/.test(credentials)) fail('auth.initial_credentials', 'expected user:secret');
  if (config.auth.jwt_secret !== '' && Buffer.byteLength(config.auth.jwt_secret) < 32) {
    fail('auth.jwt_secret', 'the JWT secret must be at least 32 bytes');
  }
  if (config.database.default_database === 'system' || !/^[A-Za-z][A-Za-z0-9.-]*$/.test(config.database.default_database)) {
    fail('database.default_database', `not a valid database name: ${JSON.stringify(config.database.default_database)}`);
  }
  const homeAlias = config.database.home_alias;
  if (homeAlias !== '' && (homeAlias.toLowerCase() === 'system' || !/^[A-Za-z][A-Za-z0-9.-]*$/.test(homeAlias))) {
    fail('database.home_alias', `not a valid alias name: ${JSON.stringify(homeAlias)}`);
  }
}

function isIpOrCidr(entry: string): boolean {
  const [address, bits, extra] = entry.split('/');
  if (extra !== undefined || address === undefined) return false;
  const family = net.isIP(address);
  if (family === 0) return false;
  if (bits === undefined) return true;
  if (!/^\d+$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}
