import { Args, Command } from '@oclif/core';
import { dataDirFlag } from '../cli/flags.js';
import { gridTable, toJsonSafe } from '../cli/table.js';
import { BackupError, restoreBackup, type RestoreResult } from '../engine/transfer/index.js';

/** `graphdb restore`: restore a backup into an empty data directory. */
export default class Restore extends Command {
  static override summary = 'Restore a backup (from `graphdb backup`) into an empty data directory.';

  static override description = [
    'Verifies the manifest, every file checksum (SHA-256) and SQLite integrity before copying anything.',
    'The data directory must not exist or be empty: restore never overwrites data. Start the server on it',
    'afterwards.',
  ].join('\n');

  static override examples = [
    '<%= config.bin %> <%= command.id %> ./backups/2024-05-01 --data-dir ./data-restored',
    '<%= config.bin %> <%= command.id %> ./backups/nightly --data-dir /var/lib/graphdb --json',
  ];

  static override enableJsonFlag = true;

  static override args = {
    backup: Args.string({ description: 'backup directory', required: true }),
  };

  static override flags = {
    'data-dir': dataDirFlag,
  };

  public async run(): Promise<RestoreResult> {
    const { args, flags } = await this.parse(Restore);
    let result: RestoreResult;
    try {
      result = await restoreBackup(args.backup, flags['data-dir']);
    } catch (error) {
      if (error instanceof BackupError) this.error(error.message, { exit: 1 });
      throw error;
    }
    if (!this.jsonEnabled()) {
      this.log(
        gridTable(
          ['database', 'version', 'nodes', 'relationships'],
          result.manifest.databases.map((d) => [d.name, d.version, d.nodes, d.relationships]),
        ),
      );
      this.log(`Restored ${result.manifest.databases.length} database(s) taken ${result.manifest.createdAt} into ${result.dataDir}.`);
    }
    return toJsonSafe(result) as RestoreResult;
  }
}
