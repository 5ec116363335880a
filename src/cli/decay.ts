/**
 * Shared by the `graphdb decay` commands: flags, and opening the data directory with the
 * `memory_decay` settings of the configuration (flags, environment, config file).
 */
import { Flags } from '@oclif/core';
import { loadConfig } from '../engine/config/index.js';
import type { GraphDB } from '../engine/index.js';
import { databaseFlag, dataDirFlag, withEngine } from './flags.js';

/** Flags of every `graphdb decay` command. */
export const decayFlags = {
  'data-dir': dataDirFlag,
  database: databaseFlag,
  config: Flags.string({ description: 'YAML config file with a memory_decay section (otherwise GRAPHDB_CONFIG or discovery)' }),
};

/** Runs `action` on the engine opened with the configured memory decay settings. */
export function withDecayEngine<T>(flags: { 'data-dir': string; config?: string }, action: (db: GraphDB) => Promise<T>): Promise<T> {
  const { config } = loadConfig({ configFile: flags.config, flags: { 'database.path': flags['data-dir'] } });
  return withEngine(flags['data-dir'], action, { engine: { memoryDecay: { settings: { ...config.memory_decay, enabled: false } } } });
}
