import { resolve } from 'node:path';
import { Args, Command, Flags } from '@oclif/core';
import { dataDirFlag, formatBytes } from '../cli/flags.js';
import { gridTable, toJsonSafe } from '../cli/table.js';
import { requireDatabase, runningServer } from '../cli/data-dir.js';
import { postAdmin } from '../cli/server-admin.js';
import { BackupError, createBackup, type BackupManifest } from '../engine/transfer/index.js';

/** `graphdb backup`: online backup of every database of a data directory. */
export default class Backup extends Command {
  static override summary = 'Take an online, consistent backup of every database (system included).';

  static override description = [
    'Copies each database file with the SQLite online backup API from a single read snapshot, so it is safe while a',
    'server writes to the same data directory. The target directory must not exist or be empty; it receives',
    'one .db file per database plus manifest.json (see docs/backup-format.md). Restore with `graphdb restore`.',
    'When a graphdb server holds the data directory, the backup is taken by that server through its admin API',
    '(POST /admin/backup: it flushes its write-behind queue first), as the admin user given with -u/-p.',
    'A backup of some databases (-d) always includes system (users, roles, the database list), so it restores',
    'on its own; the restored data directory then lists only the databases it holds.',
  ].join('\n');

  static override examples = [
    '<%= config.bin %> <%= command.id %> --to ./backups/2024-05-01',
    '<%= config.bin %> <%= command.id %> --to ./backups/nightly --data-dir /var/lib/graphdb -u admin -p "$PASSWORD" --json',
    '<%= config.bin %> <%= command.id %> --to ./backups/movies-only --database movies',
  ];

  static override enableJsonFlag = true;

  static override args = {
    target: Args.string({ description: 'backup directory (new or empty); the same as --to', required: false }),
  };

  static override flags = {
    'data-dir': dataDirFlag,
    to: Flags.string({ description: 'backup directory (new or empty)' }),
    database: Flags.string({ char: 'd', description: 'back up only these databases (system always comes along)', multiple: true }),
    username: Flags.string({
      char: 'u',
      description: "admin user for a running server's admin API (env NEO4J_USERNAME)",
      env: 'NEO4J_USERNAME',
      default: 'admin',
    }),
    password: Flags.string({
      char: 'p',
      description: 'password for a running server (env NEO4J_PASSWORD; prompted for on a terminal when the server asks)',
      env: 'NEO4J_PASSWORD',
    }),
  };

  public async run(): Promise<BackupManifest & { takenBy: string }> {
    const { args, flags } = await this.parse(Backup);
    const target = flags.to ?? args.target;
    if (target === undefined) this.error('Give the backup directory: --to <dir>.', { exit: 2 });
    if (flags.to !== undefined && args.target !== undefined && resolve(flags.to) !== resolve(args.target))
      this.error('Give the backup directory once: --to <dir> or as the argument.', { exit: 2 });
    requireDatabase(flags['data-dir'], false);
    const server = runningServer(flags['data-dir']);
    let manifest: BackupManifest;
    let takenBy: string;
    if (server !== null) {
      const answer = await postAdmin<{ output: string; manifest: BackupManifest }>(
        server,
        '/admin/backup',
        { output: resolve(target), ...(flags.database !== undefined ? { databases: flags.database } : {}) },
        { username: flags.username, ...(flags.password !== undefined ? { password: flags.password } : {}) },
      );
      manifest = answer.manifest;
      takenBy = `the running server (pid ${server.pid}, ${server.http ?? ''})`;
    } else {
      try {
        manifest = await createBackup(flags['data-dir'], { target, databases: flags.database, graphdbVersion: this.config.version });
      } catch (error) {
        if (error instanceof BackupError) this.error(error.message, { exit: 1 });
        throw error;
      }
      takenBy = 'this command (no server holds the data directory)';
    }
    if (!this.jsonEnabled()) {
      this.log(
        gridTable(
          ['database', 'version', 'nodes', 'relationships', 'size'],
          manifest.databases.map((d) => [d.name, d.version, d.nodes, d.relationships, formatBytes(d.bytes)]),
        ),
      );
      this.log(`Backup written to ${target} in ${(manifest.durationMs / 1000).toFixed(2)} s by ${takenBy}.`);
      if (flags.database !== undefined) {
        this.log(
          'Partial backup: the system database (users, roles, the database list) is included, so it restores on its own; the restored data directory holds only these databases.',
        );
      }
    }
    return { ...(toJsonSafe(manifest) as BackupManifest), takenBy };
  }
}
