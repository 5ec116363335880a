import { Command, Flags } from '@oclif/core';
import { createFlag, databaseFlag, dataDirFlag, withEngine } from '../cli/flags.js';
import { EmbeddedClient, type ShellClient } from '../cli/shell/client.js';
import { connectRemote } from '../cli/shell/remote-client.js';
import { renderError } from '../cli/render.js';
import { ShellCore, type ShellOutput } from '../cli/shell/core.js';
import { History, defaultHistoryFile } from '../cli/shell/history.js';
import { runScript } from '../cli/shell/scripted.js';
import type { OutputBlock } from '../cli/shell/app.js';
import type { OutputFormat } from '../cli/render.js';

/** `graphdb shell`: the interactive Cypher shell (and script runner when stdin is not a terminal). */
export default class Shell extends Command {
  static override summary = 'Interactive Cypher shell (cypher-shell style); runs scripts when not on a terminal.';

  static override description = [
    'On a terminal: type Cypher statements ended by ";" (they may span lines), with syntax highlighting,',
    'Tab completion of keywords, labels, relationship types, property keys and procedures, and a history',
    'kept across runs (Up/Down). Commands: :help, :use <db>, :param name => expr, :params, :begin,',
    ':commit, :rollback, :format, :history, :exit.',
    '',
    'Embedded on --data-dir by default; with --address bolt://host:port (and -u/-p) it talks to a running',
    'server through neo4j-driver.',
    '',
    'Without a terminal (a pipe, or --file) statements are read from stdin or the file, results are printed',
    '(default format plain) and the shell exits with status 1 at the first error unless --continue.',
  ].join('\n');

  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --data-dir ./data -d movies --format json',
    'echo "MATCH (n) RETURN count(n);" | <%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --file migration.cypher --continue',
    '<%= config.bin %> <%= command.id %> --address bolt://localhost:7687 -u neo4j -p secret',
  ];

  static override flags = {
    'data-dir': dataDirFlag,
    create: createFlag,
    database: databaseFlag,
    format: Flags.string({ description: 'result format (table on a terminal, plain otherwise)', options: ['table', 'plain', 'csv', 'json'] }),
    file: Flags.string({ char: 'f', description: 'run the statements of this file and exit' }),
    continue: Flags.boolean({ description: 'scripted mode: keep going after a failing statement' }),
    'history-file': Flags.string({ description: 'history file (default ~/.graphdb/history; env GRAPHDB_HISTORY)' }),
    'no-history': Flags.boolean({ description: 'do not read or write the history file' }),
    verbose: Flags.boolean({ char: 'v', description: 'scripted mode: print timing and update counters to stderr' }),
    address: Flags.string({ char: 'a', description: 'connect to a server over Bolt instead of opening --data-dir (bolt://host:port)', env: 'GRAPHDB_ADDRESS' }),
    username: Flags.string({ char: 'u', description: 'user name for --address', env: 'GRAPHDB_USER', default: 'neo4j' }),
    password: Flags.string({ char: 'p', description: 'password for --address', env: 'GRAPHDB_PASSWORD', default: '' }),
  };

  public async run(): Promise<void> {
    const { flags } = await this.parse(Shell);
    const interactive = flags.file === undefined && process.stdin.isTTY === true && process.stdout.isTTY === true;
    const drive = async (client: ShellClient): Promise<number> => {
      try {
        return interactive ? await this.interactive(client, flags, flags.address ?? 'embedded') : await this.scripted(client, flags);
      } finally {
        await client.close();
      }
    };
    let failures: number;
    if (flags.address !== undefined) {
      let client: ShellClient;
      try {
        client = await connectRemote(flags.address, flags.username, flags.password, flags.database);
      } catch (error) {
        this.error(renderError(error), { exit: 1 });
      }
      failures = await drive(client);
    } else {
      failures = await withEngine(flags['data-dir'], (db) => drive(new EmbeddedClient(db, flags.database)), { create: flags.create });
    }
    if (failures > 0) this.exit(1);
  }

  private async scripted(client: ShellClient, flags: { format?: string; file?: string; continue: boolean; verbose: boolean }): Promise<number> {
    const output: ShellOutput = {
      info: (text) => flags.verbose && process.stderr.write(text + '\n'),
      result: (text) => process.stdout.write(text + '\n'),
      error: (text) => process.stderr.write(text + '\n'),
    };
    const core = new ShellCore(client, output, { format: (flags.format ?? 'plain') as OutputFormat, summaries: flags.verbose });
    return runScript(core, flags.file ?? process.stdin, flags.continue);
  }

  private async interactive(client: ShellClient, flags: { format?: string; 'history-file'?: string; 'no-history': boolean }, where: string): Promise<number> {
    const history = new History(flags['no-history'] ? null : (flags['history-file'] ?? defaultHistoryFile()));
    let append: (block: Omit<OutputBlock, 'id'>) => void = () => {};
    const output: ShellOutput = {
      info: (text) => append({ text, kind: 'info' }),
      result: (text) => append({ text, kind: 'result' }),
      error: (text) => append({ text, kind: 'error' }),
    };
    const core = new ShellCore(client, output, { format: (flags.format ?? 'table') as OutputFormat, history: () => history.entries });
    // ink renders only the final frame, and chalk drops the cursor's inverse video, when they
    // believe they run under CI (a CI or CONTINUOUS_INTEGRATION variable, read once when they
    // load). This shell is interactive on a terminal: every frame must reach the screen.
    delete process.env.CI;
    delete process.env.CONTINUOUS_INTEGRATION;
    const [{ createElement }, { render }, { ShellApp }] = await Promise.all([import('react'), import('ink'), import('../cli/shell/app.js')]);
    const banner = `Connected to graphdb ${this.config.version} (${where}), database "${client.database}".\nType :help for a list of available commands or :exit to exit the shell.\nNote that Cypher queries must end with a semicolon.`;
    const app = render(
      createElement(ShellApp, {
        core,
        history,
        banner,
        connectOutput: (fn) => {
          append = fn;
        },
        onExit: () => {},
      }),
      { exitOnCtrlC: false },
    );
    await app.waitUntilExit();
    return 0;
  }
}
