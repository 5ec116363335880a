/**
 * How the shell and `graphdb migrate` reach a database: embedded on `--data-dir`, or a running
 * server with `--address` (cypher-shell's flags and NEO4J_* variables).
 */
import { Flags } from '@oclif/core';
import { databaseFlag, dataDirFlag, withEngine } from './flags.js';
import { normalizeAddress } from './shell/address.js';
import { EmbeddedClient, type ShellClient } from './shell/client.js';
import { connectRemote } from './shell/remote-client.js';

/** Flags that choose the database a command talks to. */
export const connectionFlags = {
  'data-dir': dataDirFlag,
  database: databaseFlag,
  address: Flags.string({
    char: 'a',
    description:
      'connect to a server instead of opening --data-dir: host:port, bolt://, neo4j://, bolt+s://, neo4j+s:// (env NEO4J_ADDRESS)',
    env: 'NEO4J_ADDRESS',
  }),
  username: Flags.string({
    char: 'u',
    description: 'user name for --address (env NEO4J_USERNAME)',
    env: 'NEO4J_USERNAME',
    default: 'admin',
  }),
  password: Flags.string({
    char: 'p',
    description: 'password for --address (env NEO4J_PASSWORD; prompted for on a terminal when missing)',
    env: 'NEO4J_PASSWORD',
  }),
};

/** The parsed connection flags. */
export interface ConnectionOptions {
  readonly 'data-dir': string;
  readonly database?: string;
  readonly address?: string;
  readonly username: string;
  readonly password?: string;
  /** Create a database when the data directory holds none. */
  readonly create?: boolean;
}

/** Connects (prompting for a missing password on a terminal), runs `action`, closes the client. */
export async function withClient<T>(options: ConnectionOptions, action: (client: ShellClient, where: string) => Promise<T>): Promise<T> {
  if (options.address === undefined) {
    return withEngine(options['data-dir'], (db) => run(new EmbeddedClient(db, options.database), 'embedded', action), {
      create: options.create === true,
    });
  }
  const address = normalizeAddress(options.address);
  const password = options.password ?? (process.stdin.isTTY === true ? await promptPassword(options.username) : '');
  return run(await connectRemote(address, options.username, password, options.database), address.replace(/^[a-z+]+:\/\//, ''), action);
}

async function run<T>(client: ShellClient, where: string, action: (client: ShellClient, where: string) => Promise<T>): Promise<T> {
  try {
    return await action(client, where);
  } finally {
    await client.close();
  }
}

/** Asks for the password on the terminal, masked. */
export async function promptPassword(username: string): Promise<string> {
  const { password } = await import('@inquirer/prompts');
  return password({ message: `password for ${username}:`, mask: '*' });
}
