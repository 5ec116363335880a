import { Command, Flags } from '@oclif/core';
import { decayFlags, withDecayEngine } from '../../cli/decay.js';
import type { RecalculationResult } from '../../engine/index.js';

/** `graphdb decay recalculate`: one decay pass now (what the server does every recalculate_interval). */
export default class DecayRecalculate extends Command {
  static override summary = 'Recalculate memory decay scores now and archive the memories below memory_decay.archive_threshold.';

  static override description =
    'Scores every :Memory node of the database at the current time and archives (labels Archived, keeps everything) those ' +
    'below the threshold, as the periodic pass does. --dry-run only reports how many would be archived.';

  static override examples = [
    '<%= config.bin %> <%= command.id %> --data-dir ./data',
    '<%= config.bin %> <%= command.id %> --dry-run --threshold 0.2',
  ];

  static override enableJsonFlag = true;

  static override flags = {
    ...decayFlags,
    'dry-run': Flags.boolean({ description: 'report only; archive nothing' }),
    threshold: Flags.string({ description: 'archive below this score instead of memory_decay.archive_threshold (0..1)' }),
  };

  public async run(): Promise<RecalculationResult> {
    const { flags } = await this.parse(DecayRecalculate);
    const threshold = flags.threshold === undefined ? undefined : Number(flags.threshold);
    if (threshold !== undefined && !(threshold >= 0 && threshold <= 1))
      this.error('--threshold must be a number between 0 and 1', { exit: 2 });
    const result = await withDecayEngine(flags, (db) => {
      const database = flags.database ?? db.defaultDatabase;
      return db.memoryDecay.recalculate(db.cypherRunner({ database }), database, {
        archive: !flags['dry-run'],
        ...(threshold === undefined ? {} : { threshold }),
      });
    });
    if (!this.jsonEnabled()) {
      this.log(
        `${result.scanned} memories scored (average ${result.averageScore ?? '-'}); ${result.archived} archived below ${result.threshold}; ${result.alreadyArchived} already archived; ${result.noDecay} no_decay`,
      );
    }
    return result;
  }
}
