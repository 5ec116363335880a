import { Command, Flags } from '@oclif/core';
import { requireNoServer } from '../../cli/data-dir.js';
import { databaseFlag, dataDirFlag, formatBytes, withEngine } from '../../cli/flags.js';
import { gridTable, toJsonSafe } from '../../cli/table.js';
import { ConfigError, effectiveConfig, loadConfig } from '../../engine/config/index.js';
import type { PruneResult } from '../../engine/index.js';

/** One database's prune outcome with the retention that was applied. */
interface PruneReport extends PruneResult {
  readonly database: string;
  readonly maxVersions: number;
  readonly ttlMs: number;
}

/** `graphdb mvcc prune`: delete closed versions beyond the retention settings. */
export default class MvccPrune extends Command {
  static override summary = 'Prune old MVCC versions per the retention settings (never removes a head version).';

  static override description = [
    'Deletes closed versions of nodes and relationships that are beyond mvcc_retention_max_versions per entity',
    'AND older than mvcc_retention_ttl, and that no open reader needs. Current (head) versions are never',
    'touched. Settings come from the flags, then GRAPHDB_MVCC_RETENTION_* variables, then the config file',
    '(including per-database overrides), then defaults (100 versions, no TTL). Reads at versions below the',
    'new prune floor fail afterwards.',
  ].join('\n');

  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --max-versions 10 --ttl 7d',
    '<%= config.bin %> <%= command.id %> -d movies --max-versions 0 --json',
  ];

  static override enableJsonFlag = true;

  static override flags = {
    'data-dir': dataDirFlag,
    database: databaseFlag,
    'max-versions': Flags.integer({ description: 'closed versions to keep per entity (mvcc_retention_max_versions)', min: 0 }),
    ttl: Flags.string({ description: 'keep versions closed more recently than this, e.g. 1h, 7d (mvcc_retention_ttl)' }),
    config: Flags.string({ description: 'YAML config file (otherwise GRAPHDB_CONFIG or discovery)' }),
  };

  public async run(): Promise<{ databases: PruneReport[] }> {
    const { flags } = await this.parse(MvccPrune);
    let loaded;
    try {
      loaded = loadConfig({
        configFile: flags.config,
        flags: { 'database.mvcc_retention_max_versions': flags['max-versions'], 'database.mvcc_retention_ttl': flags.ttl },
      });
    } catch (error) {
      if (error instanceof ConfigError) this.error(error.message, { exit: 2 });
      throw error;
    }
    requireNoServer(flags['data-dir'], 'mvcc prune', 'POST', `/admin/databases/${flags.database ?? '<database>'}/mvcc/prune`);
    const reports = await withEngine(flags['data-dir'], async (db) => {
      const names = flags.database !== undefined ? [flags.database] : db.databases().map((d) => d.name);
      const out: PruneReport[] = [];
      for (const name of names) {
        const settings = effectiveConfig(
          loaded.config,
          flags['max-versions'] === undefined && flags.ttl === undefined ? loaded.databaseOverlays.get(name) : undefined,
        ).database;
        const maxVersions = settings.mvcc_retention_max_versions;
        const ttlMs = settings.mvcc_retention_ttl;
        const result = await db.databaseServices.prune(name, { maxVersions, ...(ttlMs > 0 ? { ttlMs } : {}) });
        out.push({ database: name, maxVersions, ttlMs, ...result });
      }
      return out;
    });
    if (!this.jsonEnabled()) {
      this.log(
        gridTable(
          ['database', 'keep versions', 'ttl ms', 'pruned versions', 'freed', 'prune floor', 'ms'],
          reports.map((r) => [
            r.database,
            r.maxVersions,
            r.ttlMs,
            r.prunedVersions,
            formatBytes(r.prunedBytes),
            r.pruneFloor,
            r.durationMs,
          ]),
        ),
      );
    }
    return toJsonSafe({ databases: reports }) as { databases: PruneReport[] };
  }
}
