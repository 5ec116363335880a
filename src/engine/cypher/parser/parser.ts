import { Kind } from '../ast/kinds.js';
import type { CypherOption, Statement } from '../ast/statements.js';
import { TokenKind } from '../lexer/token-kind.js';
import { CommandParser } from './command-parser.js';
import { clauseKeywords } from './clause-parser.js';

/**
 * The Cypher parser: a recursive-descent parser with one method per production, layered by
 * file (expressions → atoms → patterns → types → updating clauses → clauses → schema commands →
 * admin commands → statements). Construct with the statement text, then call `parseStatement()`
 * or `parseStatements()`.
 */
export class Parser extends CommandParser {
  /** `Statements : Statement (';' Statement)* [';'] EOF` */
  parseStatements(): Statement[] {
    const statements: Statement[] = [];
    while (this.optionalToken(TokenKind.Semicolon));
    while (!this.peekKind(TokenKind.EOF)) {
      statements.push(this.parseStatementBody());
      if (!this.peekKind(TokenKind.EOF)) this.expectStatementEnd();
      while (this.optionalToken(TokenKind.Semicolon));
    }
    if (statements.length === 0) this.unexpected(this.expectedStart());
    return statements;
  }

  /** `SingleStatement : Statement [';'] EOF` */
  parseStatement(): Statement {
    const statement = this.parseStatementBody();
    this.optionalToken(TokenKind.Semicolon);
    if (!this.peekKind(TokenKind.EOF)) this.expectStatementEnd();
    return statement;
  }

  /** `Statement : [CYPHER [version] (key '=' value)*] [EXPLAIN | PROFILE] (Command | Query)` */
  private parseStatementBody(): Statement {
    const start = this.peek();
    let cypherVersion: string | null = null;
    const options: CypherOption[] = [];
    if (this.optionalKeyword('CYPHER')) {
      if (this.peekKind(TokenKind.Integer) || this.peekKind(TokenKind.Float)) cypherVersion = this.advance().value;
      this.cypherVersion = cypherVersion;
      while (this.peekName() && this.peekKind(TokenKind.Eq, 1)) {
        const optionStart = this.peek();
        const key = this.parseName();
        this.expectToken(TokenKind.Eq);
        const value = this.advance().value;
        options.push(this.finish<CypherOption>(optionStart, { kind: Kind.CypherOption, key, value }));
      }
    }
    let explain: Statement['explain'] = null;
    if (this.optionalKeyword('EXPLAIN')) explain = 'EXPLAIN';
    else if (this.optionalKeyword('PROFILE')) explain = 'PROFILE';
    if (this.peekKind(TokenKind.EOF) || this.peekKind(TokenKind.Semicolon)) this.unexpected(this.expectedStart());
    const body = this.peekCommand() ? this.parseCommand() : this.parseQuery();
    return this.finish<Statement>(start, { kind: Kind.Statement, cypherVersion, options, explain, body });
  }

  /** Fails at a token that cannot continue the statement. */
  private expectStatementEnd(): void {
    if (this.optionalToken(TokenKind.Semicolon)) return;
    this.unexpected(this.peekKind(TokenKind.Name) ? `${this.expectedStart()} or ';'` : "';' or the end of the input");
  }

  private expectedStart(): string {
    return [...clauseKeywords, 'ALTER', 'DROP', 'SHOW', 'START', 'STOP', 'CYPHER', 'EXPLAIN', 'PROFILE']
      .sort()
      .map((word) => `'${word}'`)
      .join(', ');
  }
}
