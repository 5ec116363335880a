import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from './errors.js';

/** What config-file discovery looks at; injectable so tests need not touch the real home dir. */
export interface DiscoveryContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homeDir: string;
  /** Directory of the running binary (`bin/run.js`), or null when unknown. */
  readonly binDir: string | null;
  readonly cwd: string;
  readonly platform: NodeJS.Platform;
  /** The system-wide config directory, `/config` (container mounts). */
  readonly systemConfigDir: string;
  readonly exists: (file: string) => boolean;
}

/** The discovery context of this process. */
export function processDiscoveryContext(env: Readonly<Record<string, string | undefined>> = process.env): DiscoveryContext {
  const script = process.argv[1];
  return {
    env,
    homeDir: os.homedir(),
    binDir: script ? path.dirname(path.resolve(script)) : null,
    cwd: process.cwd(),
    platform: process.platform,
    systemConfigDir: '/config',
    exists: existsSync,
  };
}

/** The OS user configuration directory for graphdb (XDG on Linux, Application Support, AppData). */
export function userConfigDir(context: DiscoveryContext): string {
  if (context.platform === 'win32') {
    return path.join(context.env.APPDATA ?? path.join(context.homeDir, 'AppData', 'Roaming'), 'graphdb');
  }
  if (context.platform === 'darwin') {
    return path.join(context.homeDir, 'Library', 'Application Support', 'graphdb');
  }
  return path.join(context.env.XDG_CONFIG_HOME || path.join(context.homeDir, '.config'), 'graphdb');
}

/**
 * Candidate config files in order (docs/configuration.md): `GRAPHDB_CONFIG`; `~/.graphdb/config.yaml`;
 * `config.yaml`/`graphdb.yaml` next to the binary; the same in the working directory;
 * `/config/graphdb.yaml`, `/config/config.yaml`; the OS user config directory.
 */
export function configCandidates(context: DiscoveryContext): string[] {
  const candidates: string[] = [];
  const explicit = context.env.GRAPHDB_CONFIG;
  if (explicit) candidates.push(path.resolve(context.cwd, explicit));
  candidates.push(path.join(context.homeDir, '.graphdb', 'config.yaml'));
  if (context.binDir !== null) {
    candidates.push(path.join(context.binDir, 'config.yaml'), path.join(context.binDir, 'graphdb.yaml'));
  }
  candidates.push(path.join(context.cwd, 'config.yaml'), path.join(context.cwd, 'graphdb.yaml'));
  candidates.push(path.join(context.systemConfigDir, 'graphdb.yaml'), path.join(context.systemConfigDir, 'config.yaml'));
  const userDir = userConfigDir(context);
  candidates.push(path.join(userDir, 'config.yaml'), path.join(userDir, 'graphdb.yaml'));
  return candidates;
}

/** The first existing candidate, or null. A `GRAPHDB_CONFIG` path that does not exist is an error. */
export function discoverConfigFile(context: DiscoveryContext): string | null {
  const explicit = context.env.GRAPHDB_CONFIG;
  if (explicit && !context.exists(path.resolve(context.cwd, explicit))) {
    throw new ConfigError(`config file not found: ${explicit} (from GRAPHDB_CONFIG)`, 'GRAPHDB_CONFIG', 'environment');
  }
  return configCandidates(context).find((file) => context.exists(file)) ?? null;
}
