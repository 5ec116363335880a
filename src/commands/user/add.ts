import { Args, Command, Flags } from '@oclif/core';
import { createFlag, dataDirFlag, withEngine } from '../../cli/flags.js';
import { newPassword } from '../../cli/users.js';
import { AuthStore, hashPassword, isValidName } from '../../engine/auth/index.js';

/** `graphdb user add`: create a user in the system database of a data directory. */
export default class UserAdd extends Command {
  static override summary = 'Create a user (stored in the system database, scrypt-hashed password).';

  static override description = [
    'Works embedded on the data directory (stop the server first, or use the /admin/users endpoint of a',
    'running server). The password comes from --password, GRAPHDB_NEW_PASSWORD, or a prompt on a terminal,',
    'and must have auth.password_min_length characters (default 8) and differ from the user name.',
    'Roles: admin, editor, viewer or any role created with the admin endpoints (default viewer).',
  ].join('\n');

  static override examples = [
    '<%= config.bin %> <%= command.id %> alice --role admin',
    '<%= config.bin %> <%= command.id %> --username alice --password s3cret-pw --role editor --data-dir ./data',
    'GRAPHDB_NEW_PASSWORD=s3cret-pw <%= config.bin %> <%= command.id %> reporter --role viewer --data-dir /var/lib/graphdb',
    '<%= config.bin %> <%= command.id %> etl --role editor --service-account --password "$ETL_PASSWORD" --json',
  ];

  static override enableJsonFlag = true;

  static override args = {
    name: Args.string({ description: 'user name (or --username)', required: false }),
  };

  static override flags = {
    'data-dir': dataDirFlag,
    create: createFlag,
    username: Flags.string({ char: 'u', description: 'user name (instead of the argument)' }),
    password: Flags.string({ description: 'password (else env GRAPHDB_NEW_PASSWORD, else a prompt)', env: 'GRAPHDB_NEW_PASSWORD' }),
    role: Flags.string({ char: 'r', description: 'role (repeatable)', multiple: true, default: ['viewer'] }),
    'service-account': Flags.boolean({ description: 'mark as a service account (API tokens, no interactive login)' }),
  };

  public async run(): Promise<{ name: string; roles: string[]; serviceAccount: boolean }> {
    const parsed = await this.parse(UserAdd);
    const { flags } = parsed;
    const name = parsed.args.name ?? flags.username;
    if (name === undefined || !isValidName(name)) {
      this.error('A user name is required (argument or --username): letters, digits, _ . @ - (1–64 characters).', { exit: 2 });
    }
    const args = { name };
    const roles = [...new Set(flags.role)];
    await withEngine(
      flags['data-dir'],
      async (db) => {
        const store = await AuthStore.open(() => db.session({ database: 'system' }));
        const unknown = roles.filter((r) => store.role(r) === null);
        if (unknown.length > 0) this.error(`Unknown role(s): ${unknown.join(', ')}`, { exit: 2 });
        if (store.user(args.name) !== null) this.error(`User '${args.name}' already exists.`, { exit: 1 });
        const password = await newPassword(args.name, flags.password);
        const created = await store.createUser({
          name: args.name,
          passwordHash: await hashPassword(password),
          roles,
          suspended: false,
          home: null,
          passwordChangeRequired: false,
          serviceAccount: flags['service-account'] === true,
        });
        if (!created) this.error(`User '${args.name}' already exists.`, { exit: 1 });
      },
      { create: flags.create },
    );
    if (!this.jsonEnabled()) this.log(`User '${args.name}' created with role(s) ${roles.join(', ')}.`);
    return { name: args.name, roles, serviceAccount: flags['service-account'] === true };
  }
}
