import { Args, Command, Flags } from '@oclif/core';
import { decayFlags, withDecayEngine } from '../../cli/decay.js';

/** `graphdb decay archive <ids...>`: archive (or restore) memories by node id. */
export default class DecayArchive extends Command {
  static override summary = 'Archive memories by node id (kept and readable by id, out of search), or restore them with --restore.';

  static override examples = [
    '<%= config.bin %> <%= command.id %> 12 40 --data-dir ./data',
    '<%= config.bin %> <%= command.id %> 12 --restore',
  ];

  static override enableJsonFlag = true;

  static override strict = false;

  static override args = { ids: Args.string({ description: 'memory node ids', required: true }) };

  static override flags = { ...decayFlags, restore: Flags.boolean({ description: 'un-archive instead' }) };

  public async run(): Promise<{ changed: number }> {
    const { argv, flags } = await this.parse(DecayArchive);
    const ids = (argv as string[]).map((id) => {
      if (!/^\d+$/.test(id)) this.error(`not a node id: ${id}`, { exit: 2 });
      return BigInt(id);
    });
    const changed = await withDecayEngine(flags, (db) =>
      db.memoryDecay.setArchived(db.cypherRunner({ database: flags.database ?? db.defaultDatabase }), ids, flags.restore),
    );
    if (!this.jsonEnabled()) this.log(`${changed} of ${ids.length} memories ${flags.restore ? 'restored' : 'archived'}`);
    return { changed };
  }
}
