import { Args, Command, Flags } from '@oclif/core';
import { dataDirFlag, withEngine } from '../../cli/flags.js';
import { newPassword } from '../../cli/users.js';
import { AuthStore, hashPassword } from '../../engine/auth/index.js';

/** `graphdb user passwd`: set a user's password in the system database of a data directory. */
export default class UserPasswd extends Command {
  static override summary = "Set a user's password (the password policy applies).";

  static override description = [
    'Works embedded on the data directory; against a running server use ALTER USER ... SET PASSWORD.',
    'The password comes from --password, GRAPHDB_NEW_PASSWORD, or a prompt (asked twice) on a terminal,',
    'and must have auth.password_min_length characters (default 8) and differ from the user name.',
  ].join('\n');

  static override examples = [
    '<%= config.bin %> <%= command.id %> alice',
    '<%= config.bin %> <%= command.id %> alice --password "$NEW_PASSWORD" --data-dir /var/lib/graphdb',
  ];

  static override args = { name: Args.string({ description: 'user name', required: true }) };

  static override flags = {
    'data-dir': dataDirFlag,
    password: Flags.string({ description: 'the new password (else env GRAPHDB_NEW_PASSWORD, else a prompt)', env: 'GRAPHDB_NEW_PASSWORD' }),
  };

  public async run(): Promise<void> {
    const { args, flags } = await this.parse(UserPasswd);
    await withEngine(flags['data-dir'], async (db) => {
      const store = await AuthStore.open(() => db.session({ database: 'system' }));
      if (store.user(args.name) === null) this.error(`User '${args.name}' does not exist.`, { exit: 1 });
      const password = await newPassword(args.name, flags.password);
      await store.updateUser(args.name, { passwordHash: await hashPassword(password) });
    });
    this.log(`Password of '${args.name}' changed.`);
  }
}
