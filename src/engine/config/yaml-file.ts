import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { coerceSetting } from './coerce.js';
import { ConfigError } from './errors.js';
import { SETTINGS, SETTINGS_BY_PATH } from './settings.js';

/** Settings read from one YAML file: global values by path, and per-database overlays. */
export interface FileSettings {
  readonly file: string;
  /** Typed values by dotted path. */
  readonly values: ReadonlyMap<string, unknown>;
  /** `databases: { <name>: { <section>: {...} } }` overlays, typed values by dotted path. */
  readonly databases: ReadonlyMap<string, ReadonlyMap<string, unknown>>;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const saved = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = saved;
    }
  }
  return row[b.length]!;
}

/** ` (did you mean "x"?)` for the closest known path, or an empty string. */
export function suggestKey(unknownPath: string, candidates: readonly string[] = SETTINGS.map((s) => s.path)): string {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(unknownPath, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best !== null && bestDistance <= Math.max(2, Math.floor(unknownPath.length / 4)) ? ` (did you mean "${best}"?)` : '';
}

const SECTION_PREFIXES = new Set(
  SETTINGS.flatMap((s) => {
    const parts = s.path.split('.');
    return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('.'));
  }),
);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function collect(
  node: Record<string, unknown>,
  prefix: string,
  file: string,
  out: Map<string, unknown>,
  allowed: (path: string) => boolean,
): void {
  for (const [key, raw] of Object.entries(node)) {
    const dotted = prefix === '' ? key : `${prefix}.${key}`;
    const spec = SETTINGS_BY_PATH.get(dotted);
    if (spec !== undefined && allowed(dotted)) {
      if (raw !== null) out.set(dotted, coerceSetting(spec, raw, dotted, file));
      continue;
    }
    if (SECTION_PREFIXES.has(dotted) && spec === undefined) {
      if (raw === null) continue;
      if (!isPlainObject(raw))
        throw new ConfigError(`invalid value for "${dotted}" in ${file}: expected a section (mapping)`, dotted, file);
      collect(raw, dotted, file, out, allowed);
      continue;
    }
    const reason = spec !== undefined ? ' (not overridable per database)' : suggestKey(dotted);
    throw new ConfigError(`unknown configuration key "${dotted}" in ${file}${reason}`, dotted, file);
  }
}

/** The YAML parser (72 modules), loaded when a config file is read rather than by every start-up without one. */
function parseYaml(text: string): unknown {
  const yaml = createRequire(import.meta.url)('yaml') as typeof import('yaml');
  return yaml.parse(text);
}

/** Parses and validates YAML text; `file` names the source in error messages. */
export function parseConfigYaml(text: string, file: string): FileSettings {
  let document: unknown;
  try {
    document = parseYaml(text);
  } catch (error) {
    throw new ConfigError(`cannot parse ${file}: ${(error as Error).message}`, '', file);
  }
  if (document === null || document === undefined) return { file, values: new Map(), databases: new Map() };
  if (!isPlainObject(document)) throw new ConfigError(`invalid config file ${file}: the top level must be a mapping`, '', file);
  const { databases: databaseSection, ...global } = document;
  const values = new Map<string, unknown>();
  collect(global, '', file, values, () => true);
  const databases = new Map<string, ReadonlyMap<string, unknown>>();
  if (databaseSection !== undefined && databaseSection !== null) {
    if (!isPlainObject(databaseSection))
      throw new ConfigError(`invalid value for "databases" in ${file}: expected a mapping of database names`, 'databases', file);
    for (const [name, overlay] of Object.entries(databaseSection)) {
      const overlayValues = new Map<string, unknown>();
      if (!isPlainObject(overlay))
        throw new ConfigError(`invalid value for "databases.${name}" in ${file}: expected a mapping`, `databases.${name}`, file);
      collect(overlay, '', `${file} (databases.${name})`, overlayValues, (p) => SETTINGS_BY_PATH.get(p)?.perDatabase === true);
      databases.set(name, overlayValues);
    }
  }
  return { file, values, databases };
}

/** Reads and validates a YAML config file. */
export function readConfigFile(file: string): FileSettings {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read config file ${file}: ${(error as Error).message}`, '', file);
  }
  return parseConfigYaml(text, file);
}
