import { Command, Errors } from '@oclif/core';
import { withClient } from '../../cli/connection.js';
import { renderError } from '../../cli/render.js';
import { migrateFlags } from '../../cli/migrate/command-flags.js';
import { readMigrations } from '../../cli/migrate/migrations.js';
import { repairChecksums } from '../../cli/migrate/runner.js';

/** `graphdb migrate repair`: accept the current checksums of applied migration files that were edited. */
export default class MigrateRepair extends Command {
  static override summary = "Record the current files' checksums for applied migrations whose files changed (the files are not run again).";

  static override examples = ['<%= config.bin %> <%= command.id %> --dir ./migrations --data-dir ./data'];

  static override flags = migrateFlags;

  public async run(): Promise<void> {
    const { flags } = await this.parse(MigrateRepair);
    try {
      const files = readMigrations(flags.dir);
      const repaired = await withClient(flags, (client) => repairChecksums(client, files));
      this.log(repaired.length === 0 ? 'Nothing to repair.' : `Repaired the checksums of ${repaired.map((v) => `V${v}`).join(', ')}.`);
    } catch (error) {
      if (error instanceof Errors.CLIError) throw error;
      this.error(renderError(error), { exit: 1 });
    }
  }
}
