/**
 * The shell's brain, shared by the interactive (ink) and the scripted (stdin / --file) modes:
 * buffers input until a `;` ends a statement, runs statements, handles `:` commands and
 * renders output through the given writer.
 */
import { readFileSync } from 'node:fs';
import { StatementSplitter, cypherLiteral } from '../../engine/transfer/index.js';
import { isMap, type CypherValue } from '../../engine/index.js';
import { renderError, renderRecords, renderSummary, type OutputFormat } from '../render.js';
import type { TableLayout } from '../result-table.js';
import { ResultPrinter } from './result-printer.js';
import type { ShellClient } from './client.js';
import { COMMAND_HELP, HELP_TEXT } from './help.js';

/** Where the shell's output goes. */
export interface ShellOutput {
  info(text: string): void;
  result(text: string): void;
  error(text: string): void;
}

/** Outcome of one input line. */
export type LineOutcome = 'ok' | 'error' | 'exit' | 'pending';

/** Options of a ShellCore. */
export interface ShellCoreOptions {
  format: OutputFormat;
  /** Print timing and counters after each statement (default true). */
  readonly summaries?: boolean;
  /** Supplies the `:history` listing. */
  readonly history?: () => readonly string[];
  /** Table layout (the terminal's width at the time of printing); default unbounded and wrapped. */
  readonly layout?: () => TableLayout;
  /** Table format: rows shown before the rest is summarised in a note (default unlimited). */
  readonly maxRows?: number;
  /** Name of the script being run, for error locations (`migration.cypher`, `<stdin>`). */
  readonly source?: string;
  /** `:source` keeps going after a failing statement (else it stops at the first). */
  readonly continueOnError?: boolean;
}

/** Statement buffering, execution and `:` commands. */
export class ShellCore {
  private readonly splitter = new StatementSplitter();
  /** Statements run so far (numbers statements in error reports). */
  private statementCount = 0;

  constructor(
    readonly client: ShellClient,
    private readonly out: ShellOutput,
    private readonly options: ShellCoreOptions,
    readonly parameters = new Map<string, CypherValue>(),
  ) {}

  /** True while a statement is being typed (the prompt shows a continuation). */
  get hasPendingInput(): boolean {
    return this.splitter.hasPending;
  }

  /** The prompt cypher-shell shows: `graphdb@neo4j>`, `neo4j#` inside a transaction. */
  get prompt(): string {
    if (this.hasPendingInput) return ' '.repeat(this.client.database.length) + '| ';
    return `${this.client.database}${this.client.inTransaction ? '#' : '>'} `;
  }

  /** Feeds one input line (no trailing newline). */
  async line(text: string): Promise<LineOutcome> {
    if (!this.splitter.hasPending && text.trimStart().startsWith(':')) {
      this.splitter.push('\n');
      this.splitter.take();
      return this.command(text.trim());
    }
    this.splitter.push(text + '\n');
    const statements = this.splitter.take();
    for (const statement of statements) {
      if (!(await this.statement(statement.text, statement.line))) {
        this.splitter.clear();
        return 'error';
      }
    }
    return this.splitter.hasPending ? 'pending' : 'ok';
  }

  /** Runs what is left without a `;` (end of a script). */
  async finish(): Promise<LineOutcome> {
    const rest = this.splitter.flush();
    if (rest === null) return 'ok';
    return (await this.statement(rest.text, rest.line)) ? 'ok' : 'error';
  }

  /** Interrupts the statement now running (Ctrl-C): its transaction is terminated, the shell stays. */
  async cancelRunning(): Promise<void> {
    await this.client.cancel();
  }

  /** Drops a half-typed statement (Ctrl-C). */
  cancelInput(): void {
    this.splitter.clear();
  }

  /**
   * Runs one statement and prints its result; false on error. In a script, `line` is where the
   * statement starts, and errors name the statement's number and that line.
   */
  async statement(text: string, line?: number): Promise<boolean> {
    const number = ++this.statementCount;
    const started = performance.now();
    let printer: ResultPrinter | null = null;
    try {
      const stream = await this.client.stream(text, this.parameters);
      const current = new ResultPrinter(stream.keys, this.options.format, this.options.layout?.(), this.options.maxRows, (t) =>
        this.out.result(t),
      );
      printer = current;
      for (let batch = await stream.next(); ; batch = await stream.next()) {
        if (batch.records.length > 0) current.add(batch.records);
        if (batch.done) break;
      }
      printer = null;
      const note = current.end();
      if (note !== null) this.out.info(note);
      const elapsed = performance.now() - started;
      if (this.options.summaries !== false) this.out.info(renderSummary(current.rowCount, stream.summary(), elapsed));
      return true;
    } catch (error) {
      printer?.abandon();
      const where = this.options.source === undefined ? '' : `Error in statement ${number} at ${this.options.source}:${line ?? '?'}\n`;
      this.out.error(where + renderError(error, text));
      return false;
    }
  }

  private async command(text: string): Promise<LineOutcome> {
    const [name = '', ...rest] = text.split(/\s+/);
    const argument = text.slice(name.length).trim();
    try {
      switch (name.toLowerCase()) {
        case ':exit':
        case ':quit':
          return 'exit';
        case ':help':
          this.out.result(
            rest.length === 0
              ? HELP_TEXT
              : (COMMAND_HELP.get(rest[0]!.replace(/^:?/, ':').toLowerCase()) ?? `No help for ${rest[0]}; :help lists the commands.`),
          );
          return 'ok';
        case ':source':
          return await this.source(argument);
        case ':begin':
          await this.client.begin();
          return 'ok';
        case ':commit':
          await this.client.commit();
          return 'ok';
        case ':rollback':
          await this.client.rollback();
          return 'ok';
        case ':use':
          if (rest.length !== 1) throw new Error('Usage: :use <database>');
          await this.client.use(rest[0]!.replace(/^`|`$/g, ''));
          return 'ok';
        case ':param':
          await this.setParameter(argument);
          return 'ok';
        case ':params':
          if (argument === 'clear') this.parameters.clear();
          else this.out.result(this.listParameters());
          return 'ok';
        case ':format':
          if (!['table', 'plain', 'csv', 'json'].includes(argument)) throw new Error('Usage: :format table|plain|csv|json');
          this.options.format = argument as OutputFormat;
          return 'ok';
        case ':history':
          this.out.result((this.options.history?.() ?? []).map((h, i) => `${String(i + 1).padStart(4)}  ${h}`).join('\n'));
          return 'ok';
        default:
          throw new Error(`Could not find command ${name}, use :help to see available commands`);
      }
    } catch (error) {
      this.out.error(renderError(error));
      return 'error';
    }
  }

  /** `:param name => expression` (also `:param name: expression` and `:param {a: 1, b: 2}`). */
  private async setParameter(argument: string): Promise<void> {
    const arrow = /^`?([A-Za-z_][\w]*)`?\s*(=>|:)\s*([\s\S]+?);?$/.exec(argument);
    if (arrow) {
      const result = await this.client.run(`RETURN ${arrow[3]} AS value`, this.parameters);
      this.parameters.set(arrow[1]!, result.records[0]![0]!);
      return;
    }
    if (argument.startsWith('{')) {
      const result = await this.client.run(`RETURN ${argument.replace(/;$/, '')} AS value`, this.parameters);
      const map = result.records[0]![0];
      if (map === undefined || !isMap(map)) throw new Error('Usage: :param name => expression, or :param {name: expression, ...}');
      for (const [k, v] of map) this.parameters.set(k, v);
      return;
    }
    throw new Error('Usage: :param name => expression, or :param {name: expression, ...}');
  }

  /** `:params` output, one `:param name => literal` line each, so it can be pasted back. */
  private listParameters(): string {
    if (this.parameters.size === 0) return '{}';
    return [...this.parameters]
      .map(
        ([k, v]) =>
          `:param ${/^[A-Za-z_]\w*$/.test(k) ? k : `\`${k.replace(/`/g, '``')}\``} => ${cypherLiteral(v) ?? renderRecords(['v'], [[v]], 'plain').split('\n')[1]}`,
      )
      .join('\n');
  }

  /** `:source FILE`: runs a script's statements and commands, stopping at its first error. */
  private async source(file: string): Promise<LineOutcome> {
    const path = file.replace(/^(['"])(.*)\1$/, '$2');
    if (path === '') throw new Error('Usage: :source <file>');
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw new Error(`Cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { cause: error });
    }
    const nested = new ShellCore(this.client, this.out, { ...this.options, source: path }, this.parameters);
    let failed = false;
    for (const line of text.split(/\r?\n/)) {
      const outcome = await nested.line(line);
      if (outcome === 'exit') return 'exit';
      if (outcome === 'error') {
        failed = true;
        if (this.options.continueOnError !== true) return 'error';
      }
    }
    return (await nested.finish()) === 'error' || failed ? 'error' : 'ok';
  }
}
