import type { SettingSpec } from './settings.js';

/** The description of a setting (SHOW SETTINGS' `description` column): its declared help text. */
export function settingDescription(spec: SettingSpec): string {
  return spec.help;
}
