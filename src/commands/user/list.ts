import { Command } from '@oclif/core';
import { dataDirFlag, withEngine } from '../../cli/flags.js';
import { gridTable } from '../../cli/table.js';
import { AuthStore } from '../../engine/auth/index.js';

/** One listed user (never the hash). */
interface ListedUser {
  readonly name: string;
  readonly roles: readonly string[];
  readonly suspended: boolean;
  readonly serviceAccount: boolean;
}

/** `graphdb user list`: the users of a data directory. */
export default class UserList extends Command {
  static override summary = 'List users and their roles.';

  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --data-dir /var/lib/graphdb --json',
  ];

  static override enableJsonFlag = true;

  static override flags = {
    'data-dir': dataDirFlag,
  };

  public async run(): Promise<{ users: ListedUser[] }> {
    const { flags } = await this.parse(UserList);
    const users = await withEngine(flags['data-dir'], async (db) => {
      const store = await AuthStore.open(() => db.session({ database: 'system' }));
      return store.listUsers().map(({ name, roles, suspended, serviceAccount }) => ({ name, roles, suspended, serviceAccount }));
    });
    if (!this.jsonEnabled()) {
      this.log(
        gridTable(
          ['user', 'roles', 'suspended', 'service account'],
          users.map((u) => [u.name, u.roles.join(', '), String(u.suspended), String(u.serviceAccount)]),
        ),
      );
    }
    return { users };
  }
}
