/**
 * The shell's brain, shared by the interactive (ink) and the scripted (stdin / --file) modes:
 * buffers input until a `;` ends a statement, runs statements, handles `:` commands and
 * renders output through the given writer.
 */
import { StatementSplitter } from '../../engine/transfer/index.js';
import type { CypherValue } from '../../engine/values/types.js';
import { renderError, renderRecords, renderSummary, type OutputFormat } from '../render.js';
import type { ShellClient } from './client.js';

/** Where the shell's output goes. */
export interface ShellOutput {
  info(text: string): void;
  result(text: string): void;
  error(text: string): void;
}

/** Outcome of one input line. */
export type LineOutcome = 'ok' | 'error' | 'exit' | 'pending';

/** `:help` text. */
export const HELP_TEXT = `Available commands:
  :begin        Open a transaction
  :commit       Commit the currently open transaction
  :rollback     Roll back the currently open transaction
  :use <db>     Set the active database
  :param name => <expression>   Set a parameter (the expression is evaluated by the database)
  :params       Print all parameters ( :params clear  removes them)
  :format <f>   Output format: table, plain, csv or json
  :history      Statements entered in this and earlier sessions
  :help         Show this help message
  :exit         Exit the shell
Statements end with a semicolon (;) and may span several lines.`;

/** Options of a ShellCore. */
export interface ShellCoreOptions {
  format: OutputFormat;
  /** Print timing and counters after each statement (default true). */
  readonly summaries?: boolean;
  /** Supplies the `:history` listing. */
  readonly history?: () => readonly string[];
}

/** Statement buffering, execution and `:` commands. */
export class ShellCore {
  readonly parameters = new Map<string, CypherValue>();
  private readonly splitter = new StatementSplitter();

  constructor(
    readonly client: ShellClient,
    private readonly out: ShellOutput,
    private readonly options: ShellCoreOptions,
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
    if (!this.splitter.hasPending && text.trimStart().startsWith(':')) return this.command(text.trim());
    this.splitter.push(text + '\n');
    const statements = this.splitter.take();
    for (const statement of statements) {
      if (!(await this.statement(statement.text))) {
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
    return (await this.statement(rest.text)) ? 'ok' : 'error';
  }

  /** Drops a half-typed statement (Ctrl-C). */
  cancelInput(): void {
    this.splitter.clear();
  }

  /** Runs one statement and prints its result; false on error. */
  async statement(text: string): Promise<boolean> {
    const started = performance.now();
    try {
      const result = await this.client.run(text, this.parameters);
      const elapsed = performance.now() - started;
      const body = renderRecords(result.keys, result.records, this.options.format);
      if (body !== '') this.out.result(body);
      if (this.options.summaries !== false) this.out.info(renderSummary(result.records.length, result.summary, elapsed));
      return true;
    } catch (error) {
      this.out.error(renderError(error, text));
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
          this.out.info(HELP_TEXT);
          return 'ok';
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
      if (!(map instanceof Map)) throw new Error('Usage: :param name => expression, or :param {name: expression, ...}');
      for (const [k, v] of map) this.parameters.set(k, v);
      return;
    }
    throw new Error('Usage: :param name => expression, or :param {name: expression, ...}');
  }

  private listParameters(): string {
    if (this.parameters.size === 0) return '{}';
    return [...this.parameters].map(([k, v]) => `:param ${k} => ${renderRecords(['v'], [[v]], 'plain').split('\n')[1]}`).join('\n');
  }
}
