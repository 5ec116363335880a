/**
 * The settings reference of docs/configuration.md, generated from the declarations: one row per
 * setting with its environment variable, default, what it does and the test that proves it, or
 * "rejected at startup" and why. A test keeps the document current.
 */
import { DEFAULT_CONFIG } from './defaults.js';
import { settingText } from './setting-rows.js';
import { SETTINGS, unsupportedReason } from './settings.js';
import { getPath } from './tree.js';

/** Marks the start of the generated section in docs/configuration.md. */
export const SETTINGS_DOC_BEGIN = '<!-- settings reference: generated from src/engine/config/declarations, do not edit -->';
/** Marks its end. */
export const SETTINGS_DOC_END = '<!-- end of settings reference -->';

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** The generated section, markers included. */
export function settingsReferenceMarkdown(): string {
  const rows = SETTINGS.map((spec) => {
    const env = spec.env.map((name) => `\`${name}\``).join(', ');
    const why = unsupportedReason(spec);
    if (why !== null) return `| \`${spec.path}\` | ${env} | | ${cell(spec.help)} | rejected at startup: ${cell(why)} |`;
    const value = settingText(spec, getPath(DEFAULT_CONFIG, spec.path));
    const shown = spec.secret ? '' : value === '' ? '(empty)' : `\`${cell(value)}\``;
    const flags = [spec.perDatabase ? 'per database' : '', spec.secret ? 'secret' : ''].filter((f) => f !== '').join(', ');
    const help = flags === '' ? cell(spec.help) : `${cell(spec.help)} (${flags})`;
    const proof = 'proof' in spec.effect ? `\`${spec.effect.proof}\`` : '';
    return `| \`${spec.path}\` | ${env} | ${shown} | ${help} | ${proof} |`;
  });
  return [
    SETTINGS_DOC_BEGIN,
    '',
    '| Setting | Environment | Default | What it does | Proof (test) or rejection |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    SETTINGS_DOC_END,
  ].join('\n');
}
