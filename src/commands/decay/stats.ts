import { Command } from '@oclif/core';
import { decayFlags, withDecayEngine } from '../../cli/decay.js';

/** `graphdb decay stats`: memory decay statistics of a database. */
export default class DecayStats extends Command {
  static override summary = 'Show memory decay statistics: memories per half-life profile, scores, archived and below-threshold counts.';

  static override examples = [
    '<%= config.bin %> <%= command.id %> --data-dir ./data',
    '<%= config.bin %> <%= command.id %> -d notes --json',
  ];

  static override enableJsonFlag = true;

  static override flags = decayFlags;

  public async run(): Promise<Record<string, unknown>> {
    const { flags } = await this.parse(DecayStats);
    const stats = await withDecayEngine(flags, (db) => {
      const database = flags.database ?? db.defaultDatabase;
      return db.memoryDecay.stats(db.cypherRunner({ database }), database);
    });
    if (!this.jsonEnabled()) this.log(JSON.stringify(stats, null, 2));
    return stats;
  }
}
