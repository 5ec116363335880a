import { Command, Errors } from '@oclif/core';
import { withClient } from '../../cli/connection.js';
import { renderError } from '../../cli/render.js';
import { migrateFlags } from '../../cli/migrate/command-flags.js';
import { migrationStatus, readMigrations } from '../../cli/migrate/migrations.js';
import { readApplied, requireValid } from '../../cli/migrate/runner.js';

/** `graphdb migrate validate`: exit 1 when applied migrations changed or vanished, or pending ones are out of order. */
export default class MigrateValidate extends Command {
  static override summary = 'Check that every applied migration still matches its file (exit status 1 otherwise).';

  static override examples = ['<%= config.bin %> <%= command.id %> --dir ./migrations --data-dir ./data'];

  static override flags = migrateFlags;

  public async run(): Promise<void> {
    const { flags } = await this.parse(MigrateValidate);
    try {
      const files = readMigrations(flags.dir);
      const statuses = await withClient(flags, async (client) => migrationStatus(files, await readApplied(client)));
      requireValid(statuses);
      this.log(
        `Valid: ${statuses.filter((s) => s.state === 'applied').length} applied, ${statuses.filter((s) => s.state === 'pending').length} pending.`,
      );
    } catch (error) {
      if (error instanceof Errors.CLIError) throw error;
      this.error(renderError(error), { exit: 1 });
    }
  }
}
