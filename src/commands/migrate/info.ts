import { Command, Errors } from '@oclif/core';
import { withClient } from '../../cli/connection.js';
import { renderError } from '../../cli/render.js';
import { migrateFlags } from '../../cli/migrate/command-flags.js';
import { migrationStatus, readMigrations, type MigrationStatus } from '../../cli/migrate/migrations.js';
import { readApplied } from '../../cli/migrate/runner.js';
import { gridTable } from '../../cli/table.js';

/** `graphdb migrate info`: every migration of the folder and of the database, with its state. */
export default class MigrateInfo extends Command {
  static override summary = 'Show each migration with its state: applied, pending, checksum mismatch, missing file, out of order.';

  static override examples = [
    '<%= config.bin %> <%= command.id %> --dir ./migrations --data-dir ./data',
    '<%= config.bin %> <%= command.id %> --json',
  ];

  static override enableJsonFlag = true;

  static override flags = migrateFlags;

  public async run(): Promise<{ migrations: MigrationStatus[] }> {
    const { flags } = await this.parse(MigrateInfo);
    let statuses: MigrationStatus[];
    try {
      const files = readMigrations(flags.dir);
      statuses = await withClient(flags, async (client) => migrationStatus(files, await readApplied(client)));
    } catch (error) {
      if (error instanceof Errors.CLIError) throw error;
      this.error(renderError(error), { exit: 1 });
    }
    if (!this.jsonEnabled()) {
      this.log(
        gridTable(
          ['version', 'description', 'file', 'state', 'installed on', 'ms'],
          statuses.map((s) => [s.version, s.description, s.file, s.state, s.installedOn, s.executionTimeMs]),
        ),
      );
    }
    return { migrations: statuses };
  }
}
