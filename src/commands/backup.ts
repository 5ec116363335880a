import { Args, Command, Flags } from '@oclif/core';
import { dataDirFlag, formatBytes } from '../cli/flags.js';
import { gridTable, toJsonSafe } from '../cli/table.js';
import { requireDatabase } from '../cli/data-dir.js';
import { BackupError, createBackup, type BackupManifest } from '../engine/transfer/index.js';

/** `graphdb backup`: online backup of every database of a data directory. */
export default class Backup extends Command {
  static override summary = 'Take an online, consistent backup of every database (system included).';

  static override description = [
    'Copies each database file with the SQLite online backup API from a single read snapshot, so it is safe while a',
    'server writes to the same data directory. The target directory must not exist or be empty; it receives',
    'one .db file per database plus manifest.json (see docs/backup-format.md). Restore with `graphdb restore`.',
  ].join('\n');

  static override examples = [
    '<%= config.bin %> <%= command.id %> ./backups/2024-05-01',
    '<%= config.bin %> <%= command.id %> ./backups/nightly --data-dir /var/lib/graphdb --json',
    '<%= config.bin %> <%= command.id %> ./backups/movies-only --database movies --database system',
  ];

  static override enableJsonFlag = true;

  static override args = {
    target: Args.string({ description: 'backup directory (new or empty)', required: true }),
  };

  static override flags = {
    'data-dir': dataDirFlag,
    database: Flags.string({ char: 'd', description: 'back up only these databases', multiple: true }),
  };

  public async run(): Promise<BackupManifest> {
    const { args, flags } = await this.parse(Backup);
    let manifest: BackupManifest;
    try {
      requireDatabase(flags['data-dir'], false);
      manifest = await createBackup(flags['data-dir'], {
        target: args.target,
        databases: flags.database,
        graphdbVersion: this.config.version,
      });
    } catch (error) {
      if (error instanceof BackupError) this.error(error.message, { exit: 1 });
      throw error;
    }
    if (!this.jsonEnabled()) {
      this.log(
        gridTable(
          ['database', 'version', 'nodes', 'relationships', 'size'],
          manifest.databases.map((d) => [d.name, d.version, d.nodes, d.relationships, formatBytes(d.bytes)]),
        ),
      );
      this.log(`Backup written to ${args.target} in ${(manifest.durationMs / 1000).toFixed(2)} s.`);
      if (flags.database !== undefined) {
        this.log(
          'Partial backup: the system database (users, roles, the database list) is included, so it restores on its own; the restored data directory holds only these databases.',
        );
      }
    }
    return toJsonSafe(manifest) as BackupManifest;
  }
}
