/**
 * Running a Cypher script statement by statement, as cypher-shell does with `--file`, in
 * transactions: what runs between two `:commit` lines (or the script's start and end) is one
 * transaction; schema statements, which Neo4j runs in their own transactions, commit the pending
 * data first and then run alone. cypher-shell's commands: `:begin` (accepted: statements always
 * run in the open transaction), `:commit`, `:rollback` (discards what ran since the last commit),
 * `:param name => expression`, `:param {name: expression}`, `:param clear`; any other command
 * stops the import. Statements run with the parameters set so far, so a batch statement
 * (`UNWIND $rows AS row ...`) is parsed and planned once and then found in the plan cache. The
 * first failing statement rolls the open transaction back; errors carry the file line of the
 * failing statement (plus the position inside it).
 */
import type { GraphDB } from '../graphdb.js';
import type { Session, Transaction } from '../session/types.js';
import type { CypherValue } from '../values/types.js';
import { isMap } from '../values/kinds.js';
import { GraphError } from '../errors/index.js';
import { StatementSplitter } from './statements.js';
import type { LineReader } from './line-reader.js';
import type { ImportRowError } from './import-sink.js';
import { isSchemaStatement } from './cypher-script.js';
import { literalValue, parseParamCommand } from './cypher-params.js';

/** One step of a script: a shell command line (`:begin`, `:param ...`) or a statement. */
export interface ScriptStep {
  readonly kind: 'command' | 'statement';
  readonly text: string;
  /** 1-based line of the command, or of the statement's first line of code. */
  readonly line: number;
}

/** The commands and statements of a script, in order. */
export async function* scriptSteps(input: LineReader): AsyncGenerator<ScriptStep> {
  const splitter = new StatementSplitter();
  for await (const { text, line } of input.lines()) {
    if (!splitter.hasPending && text.trimStart().startsWith(':')) {
      splitter.push('\n');
      splitter.take();
      yield { kind: 'command', text: text.trim(), line };
      continue;
    }
    splitter.push(text + '\n');
    for (const statement of splitter.take()) yield { kind: 'statement', ...statement };
  }
  const last = splitter.flush();
  if (last !== null) yield { kind: 'statement', ...last };
}

/** The command word of a command step, lower case (`:param`). */
export function commandWord(text: string): string {
  return text.split(/\s+/)[0]!.toLowerCase();
}

/** Counts of what a script import wrote so far (read by progress reports). */
export interface ScriptCounters {
  statements: number;
  nodes: number;
  relationships: number;
  properties: number;
}

/** A step that failed: where, and why. */
export class ScriptStepError extends Error {
  override name = 'ScriptStepError';
  constructor(readonly row: ImportRowError) {
    super(`${row.file}:${row.line}: ${row.message}`);
  }
}

/** Runs the steps of a script on one database (see the module comment). */
export class ScriptRunner {
  private session: Session | null = null;
  private tx: Transaction | null = null;
  private readonly parameters = new Map<string, CypherValue>();

  constructor(
    private readonly db: GraphDB,
    private readonly database: string,
    private readonly displayName: string,
    readonly counters: ScriptCounters,
  ) {}

  /** Sets a parameter, as `:param name => value` does. */
  setParameter(name: string, value: CypherValue): void {
    this.parameters.set(name, value);
  }

  /** Runs one step. @throws ScriptStepError (the open transaction is rolled back) */
  async step(step: ScriptStep): Promise<void> {
    try {
      if (step.kind === 'command') await this.command(step);
      else await this.statement(step.text);
    } catch (error) {
      await this.rollback();
      if (error instanceof ScriptStepError) throw error;
      if (!(error instanceof GraphError)) throw error;
      const line = step.line + (error.position ? error.position.line - 1 : 0);
      const column = error.position ? ` column ${error.position.column}` : '';
      throw new ScriptStepError({ file: this.displayName, line, message: `${error.code}: ${error.message}${column}` });
    }
  }

  /** Commits what is open and closes the session. */
  async finish(): Promise<void> {
    try {
      if (this.tx?.isOpen) await this.tx.commit();
    } finally {
      this.tx = null;
      await this.close();
    }
  }

  /** Rolls back what is open and closes the session. */
  async abort(): Promise<void> {
    await this.rollback();
    await this.close();
  }

  private async close(): Promise<void> {
    const session = this.session;
    this.session = null;
    await session?.close();
  }

  private async rollback(): Promise<void> {
    const tx = this.tx;
    this.tx = null;
    if (tx?.isOpen) await tx.rollback();
  }

  private async transaction(): Promise<Transaction> {
    this.session ??= this.db.session({ database: this.database });
    if (this.tx === null || !this.tx.isOpen) this.tx = await this.session.beginTransaction();
    return this.tx;
  }

  private async commit(): Promise<void> {
    const tx = this.tx;
    this.tx = null;
    if (tx?.isOpen) await tx.commit();
  }

  private async statement(text: string): Promise<void> {
    if (isSchemaStatement(text)) {
      await this.commit();
      this.session ??= this.db.session({ database: this.database });
      await (await this.session.run(text)).discard();
    } else {
      const tx = await this.transaction();
      const summary = await (await tx.run(text, this.parameters)).discard();
      this.counters.nodes += summary.counters.nodesCreated;
      this.counters.relationships += summary.counters.relationshipsCreated;
      this.counters.properties += summary.counters.propertiesSet;
    }
    this.counters.statements++;
  }

  private async command(step: ScriptStep): Promise<void> {
    const word = commandWord(step.text);
    if (word === ':begin') return;
    if (word === ':commit') return this.commit();
    if (word === ':rollback') return this.rollback();
    if (word === ':param' || word === ':params') return this.param(step);
    throw new ScriptStepError({
      file: this.displayName,
      line: step.line,
      message: `Shell command ${word} is not supported in imported scripts (use graphdb shell --file)`,
    });
  }

  private async param(step: ScriptStep): Promise<void> {
    let command;
    try {
      command = parseParamCommand(step.text);
    } catch (error) {
      throw new ScriptStepError({ file: this.displayName, line: step.line, message: (error as Error).message });
    }
    if (command.kind === 'clear') {
      this.parameters.clear();
      return;
    }
    const value = await this.evaluate(command.expression);
    if (command.kind === 'set') this.parameters.set(command.name, value);
    else if (isMap(value)) for (const [k, v] of value) this.parameters.set(k, v);
    else throw new ScriptStepError({ file: this.displayName, line: step.line, message: ':param {...} needs a map' });
  }

  /** The value of a `:param` expression: a plain literal read directly, anything else as cypher-shell does (`RETURN expression`). */
  async evaluate(expression: string): Promise<CypherValue> {
    const literal = literalValue(expression);
    if (literal !== undefined) return literal;
    const tx = await this.transaction();
    const { records } = await (await tx.run(`RETURN ${expression} AS value`, this.parameters)).pull(-1);
    return records[0]?.[0] ?? null;
  }
}
