import { Args, Command } from '@oclif/core';
import { dataDirFlag, withEngine } from '../../cli/flags.js';
import { AuthStore } from '../../engine/auth/index.js';

/** `graphdb user remove`: delete a user from the system database of a data directory. */
export default class UserRemove extends Command {
  static override summary = 'Remove a user (embedded; against a running server use DROP USER). The last admin cannot be removed.';

  static override examples = ['<%= config.bin %> <%= command.id %> alice --data-dir ./data'];

  static override args = { name: Args.string({ description: 'user name', required: true }) };

  static override flags = { 'data-dir': dataDirFlag };

  public async run(): Promise<void> {
    const { args, flags } = await this.parse(UserRemove);
    await withEngine(flags['data-dir'], async (db) => {
      const store = await AuthStore.open(() => db.session({ database: 'system' }));
      const admins = store.listUsers().filter((u) => u.roles.includes('admin') && !u.suspended);
      if (admins.length === 1 && admins[0]!.name === args.name)
        this.error(`'${args.name}' is the last admin; add another admin first.`, { exit: 1 });
      if (!(await store.dropUser(args.name))) this.error(`User '${args.name}' does not exist.`, { exit: 1 });
    });
    this.log(`User '${args.name}' removed.`);
  }
}
