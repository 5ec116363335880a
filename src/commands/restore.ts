import { resolve } from 'node:path';
import { Args, Command, Flags } from '@oclif/core';
import { dataDirFlag } from '../cli/flags.js';
import { gridTable, toJsonSafe } from '../cli/table.js';
import { postAdminAt } from '../cli/server-admin.js';
import { BackupError, restoreBackup, type RestoreResult, type RunningRestoreResult } from '../engine/transfer/index.js';

/** `graphdb restore`: restore a backup into an empty data directory, or into a running server. */
export default class Restore extends Command {
  static override summary = 'Restore a backup into an empty data directory, or into a running server (--into-running).';

  static override description = [
    'Verifies the manifest, every file checksum (SHA-256) and SQLite integrity before copying anything.',
    'Without --into-running the data directory must not exist or be empty: restore never overwrites data. Start',
    'the server on it afterwards.',
    'With --into-running URL the running server at URL restores the backup in place through its admin API',
    '(POST /admin/restore, as the admin user given with -u/-p): writes are paused for the swap of each database,',
    'readers see the old or the restored state, never a mix. The backup path is read by the server, so it must',
    'be a path on the server machine: a backup directory or a JSON backup file. --dry-run reports what would change.',
  ].join('\n');

  static override examples = [
    '<%= config.bin %> <%= command.id %> ./backups/2024-05-01 --data-dir ./data-restored',
    '<%= config.bin %> <%= command.id %> ./backups/nightly --data-dir /var/lib/graphdb --json',
    '<%= config.bin %> <%= command.id %> /srv/backups/nightly --into-running http://127.0.0.1:7474 -u admin -p "$PASSWORD" --dry-run',
    '<%= config.bin %> <%= command.id %> /srv/backups/movies.json --into-running http://127.0.0.1:7474 -d movies',
  ];

  static override enableJsonFlag = true;

  static override args = {
    backup: Args.string({ description: 'backup directory (or, with --into-running, a JSON backup file)', required: true }),
  };

  static override flags = {
    'data-dir': dataDirFlag,
    'into-running': Flags.string({ description: 'restore into the running server at this HTTP URL (e.g. http://127.0.0.1:7474)' }),
    'dry-run': Flags.boolean({ description: 'with --into-running: verify and report what would change, change nothing', default: false }),
    database: Flags.string({ char: 'd', description: 'with --into-running: restore only these databases of the backup', multiple: true }),
    username: Flags.string({
      char: 'u',
      description: 'admin user for the running server (env NEO4J_USERNAME)',
      env: 'NEO4J_USERNAME',
      default: 'admin',
    }),
    password: Flags.string({
      char: 'p',
      description: 'password for the running server (env NEO4J_PASSWORD; prompted for on a terminal when the server asks)',
      env: 'NEO4J_PASSWORD',
    }),
  };

  public async run(): Promise<RestoreResult | RunningRestoreResult> {
    const { args, flags } = await this.parse(Restore);
    if (flags['into-running'] !== undefined) return this.intoRunning(args.backup, flags['into-running'], flags);
    if (flags['dry-run'] || flags.database !== undefined) this.error('--dry-run and --database go with --into-running.', { exit: 2 });
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

  private async intoRunning(
    backup: string,
    url: string,
    flags: { 'dry-run': boolean; database?: string[]; username: string; password?: string },
  ): Promise<RunningRestoreResult> {
    const result = await postAdminAt<RunningRestoreResult>(
      url,
      '/admin/restore',
      { input: resolve(backup), dryRun: flags['dry-run'], ...(flags.database !== undefined ? { databases: flags.database } : {}) },
      { username: flags.username, ...(flags.password !== undefined ? { password: flags.password } : {}) },
    );
    if (!this.jsonEnabled()) {
      const figures = (f: { version: string; nodes: number; relationships: number } | null) =>
        f === null ? '-' : `v${f.version}: ${f.nodes} nodes, ${f.relationships} rels`;
      this.log(
        gridTable(
          ['database', 'action', 'now', 'from backup'],
          result.databases.map((d) => [d.database, d.action, figures(d.current), figures(d.restored)]),
        ),
      );
      for (const s of result.skipped) this.log(`Skipped ${s.database}: ${s.reason}.`);
      this.log(
        result.dryRun
          ? `Dry run: nothing changed. ${result.databases.length} database(s) of the backup taken ${result.backupCreatedAt} would be restored.`
          : `Restored ${result.databases.length} database(s) taken ${result.backupCreatedAt} into the running server at ${url} in ${result.durationMs} ms.`,
      );
    }
    return result;
  }
}
