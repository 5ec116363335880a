import { Command } from '@oclif/core';
import { databaseFlag, dataDirFlag, formatBytes, withEngine } from '../../cli/flags.js';
import { gridTable, toJsonSafe } from '../../cli/table.js';
import type { MvccStatus } from '../../engine/index.js';

/** `graphdb mvcc status`: history figures of every database. */
export default class MvccStatusCommand extends Command {
  static override summary = 'Show MVCC history per database: versions, closed versions, oldest version, bytes.';

  static override description = [
    'For each database (or the one given with -d): the head version, the prune floor (oldest fully readable',
    'version), the oldest kept closed version, closed node/relationship versions and the bytes they hold,',
    'and open readers pinning old versions (readers of this process only).',
  ].join('\n');

  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> -d movies --json'];

  static override enableJsonFlag = true;

  static override flags = {
    'data-dir': dataDirFlag,
    database: databaseFlag,
  };

  public async run(): Promise<{ databases: MvccStatus[] }> {
    const { flags } = await this.parse(MvccStatusCommand);
    const statuses = await withEngine(flags['data-dir'], async (db) => {
      const names = flags.database !== undefined ? [flags.database] : db.databases().map((d) => d.name);
      return names.map((name) => db.databaseServices.mvccStatus(name));
    });
    if (!this.jsonEnabled()) {
      this.log(
        gridTable(
          ['database', 'version', 'prune floor', 'oldest history', 'node versions', 'rel versions', 'history bytes', 'heads (n/r)'],
          statuses.map((s) => [
            s.database,
            s.version,
            s.pruneFloor,
            s.oldestHistoryVersion,
            s.closedVersions.nodes,
            s.closedVersions.relationships,
            formatBytes(s.historyBytes),
            `${s.heads.nodes}/${s.heads.relationships}`,
          ]),
        ),
      );
    }
    return toJsonSafe({ databases: statuses }) as { databases: MvccStatus[] };
  }
}
