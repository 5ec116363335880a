/**
 * graphdb configuration: the typed `GraphdbConfig`, loading with precedence
 * flags > environment (`GRAPHDB_*`) > config file > defaults, file discovery, validation,
 * per-database overrides and redaction.
 */
export type * from './types.js';
export { DEFAULT_CONFIG } from './defaults.js';
export { SETTINGS, SETTINGS_BY_ENV, SETTINGS_BY_PATH, unsupportedReason, type SettingSpec, type SettingKind } from './settings.js';
export { ConfigError } from './errors.js';
export { parseDuration, formatDuration } from './duration.js';
export { parseSize } from './coerce.js';
export { configCandidates, discoverConfigFile, processDiscoveryContext, userConfigDir, type DiscoveryContext } from './discovery.js';
export { loadConfig, validateConfig, type LoadConfigOptions, type LoadedConfig, type SettingOrigin } from './load.js';
export { parseConfigYaml, readConfigFile, type FileSettings } from './yaml-file.js';
export { DatabaseConfigRegistry, effectiveConfig, overridableKeys, parseOverrides, type OverridableKey } from './overrides.js';
export { redactConfig, removeSecretsFromEnvironment, REDACTED } from './redact.js';
export { settingRows } from './setting-rows.js';
export { settingsReferenceMarkdown, SETTINGS_DOC_BEGIN, SETTINGS_DOC_END } from './setting-docs.js';
export { suggestKey } from './yaml-file.js';
