import { Command, Errors, Flags } from '@oclif/core';
import { withClient } from '../../cli/connection.js';
import { migrateFlags } from '../../cli/migrate/command-flags.js';
import { readMigrations } from '../../cli/migrate/migrations.js';
import { applyMigrations, type ApplyReport } from '../../cli/migrate/runner.js';
import { renderError } from '../../cli/render.js';
import { gridTable } from '../../cli/table.js';

/** `graphdb migrate`: apply the pending versioned migrations of a folder, once each. */
export default class Migrate extends Command {
  static override summary = 'Apply pending Cypher migrations (V<version>__<description>.cypher), once each, in version order.';

  static override description = [
    'Reads the migration files of --dir, compares them with the migrations recorded in the database',
    '(nodes labelled __GraphdbMigration, with a SHA-256 checksum of each file), and applies the pending',
    'ones in version order. Each migration runs in its own transaction together with its record, so it is',
    'applied and recorded, or neither. A failure stops the run and names the file and line. An applied file',
    'that changed since, or a missing one, stops the run before anything is applied (see `migrate validate`',
    'and `migrate repair`). Works embedded on --data-dir or against a server with --address.',
  ].join('\n');

  static override examples = [
    '<%= config.bin %> <%= command.id %> --dir ./migrations --data-dir ./data',
    '<%= config.bin %> <%= command.id %> --dir ./migrations --dry-run',
    '<%= config.bin %> <%= command.id %> --dir ./migrations -a localhost:7687 -u admin -p "$PASSWORD"',
  ];

  static override enableJsonFlag = true;

  static override flags = {
    ...migrateFlags,
    'dry-run': Flags.boolean({ description: 'list the migrations that would be applied; change nothing' }),
  };

  public async run(): Promise<ApplyReport> {
    const { flags } = await this.parse(Migrate);
    let report: ApplyReport;
    try {
      const files = readMigrations(flags.dir);
      report = await withClient(flags, (client) => applyMigrations(client, files, { dryRun: flags['dry-run'] }));
    } catch (error) {
      if (error instanceof Errors.CLIError) throw error;
      this.error(renderError(error), { exit: 1 });
    }
    if (!this.jsonEnabled()) {
      if (report.applied.length > 0) {
        this.log(
          gridTable(
            ['version', 'file', 'statements', 'ms'],
            report.applied.map((m) => [m.version, m.file, m.statements, report.dryRun ? '-' : m.executionTimeMs]),
          ),
        );
      }
      const verb = report.dryRun ? 'would apply' : 'applied';
      this.log(`${report.applied.length} migration(s) ${verb}; ${report.alreadyApplied} already applied.`);
    }
    return report;
  }
}
