import { Args, Command, Errors, Flags } from '@oclif/core';
import { connectionFlags, withClient } from '../cli/connection.js';
import { createFlag } from '../cli/flags.js';
import type { ShellClient } from '../cli/shell/client.js';
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
    'Tab completion of keywords, labels, relationship types, property keys and procedures, readline keys',
    '(Ctrl-A/E/W/U/K/Y, Ctrl-R history search, Ctrl-L), and a history kept across runs (Up/Down). Ctrl-C',
    'cancels a running query; twice at an empty prompt it exits. Commands: :help [command], :use <db>,',
    ':param name => expr, :params, :source <file>, :begin, :commit, :rollback, :format, :history, :exit.',
    '',
    'Embedded on --data-dir by default; with --address (host:port, bolt://, neo4j://, bolt+s://) it talks to',
    'a running server through neo4j-driver, asking for the password on a terminal when -p is not given.',
    '',
    'Without a terminal (a pipe, --file, or a query argument) statements are read from stdin, the file or',
    'the argument, results are printed (format plain unless --format), and the shell exits with status 1 at',
    'the first error (naming the statement and its line) unless --continue-on-error.',
  ].join('\n');

  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --data-dir ./data -d movies --format json',
    'echo "MATCH (n) RETURN count(n);" | <%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --file migration.cypher --continue-on-error',
    '<%= config.bin %> <%= command.id %> "MATCH (p:Person {name: $name}) RETURN p" -P \'{name: "Ann"}\'',
    '<%= config.bin %> <%= command.id %> -a localhost:7687 -u admin',
  ];

  static override args = {
    query: Args.string({ description: 'a Cypher query to run (then the shell exits)', required: false, ignoreStdin: true }),
  };

  static override flags = {
    ...connectionFlags,
    create: createFlag,
    format: Flags.string({
      description:
        'result format: auto (a table on a terminal, plain otherwise), verbose (a table with summaries), table, plain, csv, json',
      options: ['auto', 'verbose', 'table', 'plain', 'csv', 'json'],
      default: 'auto',
    }),
    file: Flags.string({ char: 'f', description: 'run the statements of this file and exit' }),
    param: Flags.string({
      char: 'P',
      description: "a parameter, as '{name: expression, ...}' or 'name => expression' (repeatable)",
      multiple: true,
    }),
    'continue-on-error': Flags.boolean({
      description: 'scripted mode: keep going after a failing statement',
      aliases: ['continue'],
      exclusive: ['fail-fast'],
    }),
    'fail-fast': Flags.boolean({ description: 'scripted mode: stop at the first failing statement (the default)' }),
    'max-rows': Flags.integer({ description: 'table format: rows shown per result before a note (default 1000 on a terminal)', min: 1 }),
    wrap: Flags.boolean({
      description: 'table format: wrap cells wider than their column (else cut them with …)',
      default: true,
      allowNo: true,
    }),
    'history-file': Flags.string({ description: 'history file (default ~/.graphdb/history; env GRAPHDB_HISTORY)' }),
    'no-history': Flags.boolean({ description: 'do not read or write the history file' }),
    verbose: Flags.boolean({ char: 'v', description: 'scripted mode: print timing and update counters to stderr' }),
  };

  public async run(): Promise<void> {
    const { args, flags } = await this.parse(Shell);
    const interactive =
      args.query === undefined && flags.file === undefined && process.stdin.isTTY === true && process.stdout.isTTY === true;
    let failures: number;
    try {
      failures = await withClient(flags, (client, where) =>
        interactive ? this.interactive(client, flags, where) : this.scripted(client, flags, args.query),
      );
    } catch (error) {
      if (error instanceof Errors.CLIError) throw error;
      this.error(renderError(error), { exit: 1 });
    }
    if (failures > 0) this.exit(1);
  }

  /** Sets the `-P` parameters; false (after printing the error) when one fails. */
  private async applyParameters(core: ShellCore, params: readonly string[] | undefined): Promise<boolean> {
    for (const param of params ?? []) {
      if ((await core.line(`:param ${param}`)) === 'error') return false;
    }
    return true;
  }

  private async scripted(client: ShellClient, flags: ScriptedFlags, query: string | undefined): Promise<number> {
    const verbose = flags.verbose || flags.format === 'verbose';
    const output: ShellOutput = {
      info: (text) => verbose && process.stderr.write(text + '\n'),
      result: (text) => process.stdout.write(text + '\n'),
      error: (text) => process.stderr.write(text + '\n'),
    };
    const format = flags.format === 'auto' ? 'plain' : flags.format === 'verbose' ? 'table' : (flags.format as OutputFormat);
    const core = new ShellCore(client, output, {
      format,
      summaries: verbose,
      source: query !== undefined ? '<query>' : (flags.file ?? '<stdin>'),
      continueOnError: flags['continue-on-error'],
      layout: () => ({ width: process.stdout.isTTY ? process.stdout.columns : 0, wrap: flags.wrap }),
      ...(flags['max-rows'] !== undefined ? { maxRows: flags['max-rows'] } : {}),
    });
    if (!(await this.applyParameters(core, flags.param))) return 1;
    if (query !== undefined) return (await core.statement(query, 1)) ? 0 : 1;
    return runScript(core, flags.file ?? process.stdin, flags['continue-on-error']);
  }

  private async interactive(client: ShellClient, flags: InteractiveFlags, where: string): Promise<number> {
    const history = new History(flags['no-history'] ? null : (flags['history-file'] ?? defaultHistoryFile()));
    let append: (block: Omit<OutputBlock, 'id'>) => void = () => {};
    const output: ShellOutput = {
      info: (text) => append({ text, kind: 'info' }),
      result: (text) => append({ text, kind: 'result' }),
      error: (text) => append({ text, kind: 'error' }),
    };
    const format = flags.format === 'auto' || flags.format === 'verbose' ? 'table' : (flags.format as OutputFormat);
    const core = new ShellCore(client, output, {
      format,
      history: () => history.entries,
      layout: () => ({ width: process.stdout.columns ?? 80, wrap: flags.wrap }),
      maxRows: flags['max-rows'] ?? 1000,
    });
    if (!(await this.applyParameters(core, flags.param))) return 1;
    // ink renders only the final frame, and chalk drops the cursor's inverse video, when they
    // believe they run under CI (a CI or CONTINUOUS_INTEGRATION variable, read once when they
    // load). This shell is interactive on a terminal: every frame must reach the screen.
    delete process.env.CI;
    delete process.env.CONTINUOUS_INTEGRATION;
    const [{ createElement }, { render }, { ShellApp }] = await Promise.all([
      import('react'),
      import('ink'),
      import('../cli/shell/app.js'),
    ]);
    // Raw mode before the first frame: keys typed while the prompt appears reach the editor as
    // keys, instead of being echoed and line-buffered by the terminal until ink enables raw mode.
    if (process.stdin.isTTY) process.stdin.setRawMode(true);
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

/** Flags the scripted mode reads. */
interface ScriptedFlags {
  readonly format: string;
  readonly file?: string;
  readonly param?: string[];
  readonly 'continue-on-error': boolean;
  readonly 'max-rows'?: number;
  readonly wrap: boolean;
  readonly verbose: boolean;
}

/** Flags the interactive mode reads. */
interface InteractiveFlags {
  readonly format: string;
  readonly param?: string[];
  readonly 'max-rows'?: number;
  readonly wrap: boolean;
  readonly 'history-file'?: string;
  readonly 'no-history': boolean;
}
