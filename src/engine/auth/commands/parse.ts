/**
 * A recursive-descent parser, over the Cypher lexer's tokens, for the user and role
 * administration commands the main Cypher parser does not cover (CREATE/ALTER/DROP/SHOW USER,
 * CREATE/DROP/SHOW ROLE, GRANT/REVOKE ROLE). `parseAuthCommand` returns null when the text does
 * not start like one of these commands, so every other statement goes to the main parser.
 */
import { CypherSyntaxError } from '../../errors/index.js';
import { TokenKind, tokenize, type Token } from '../../cypher/lexer/index.js';
import type { AuthCommand, NameOrParameter } from './ast.js';

class TokenCursor {
  private index = 1;

  constructor(
    private readonly tokens: readonly Token[],
    private readonly text: string,
  ) {}

  peek(offset = 0): Token {
    return this.tokens[Math.min(this.index + offset, this.tokens.length - 1)]!;
  }

  isKeyword(word: string, offset = 0): boolean {
    const token = this.peek(offset);
    return token.kind === TokenKind.Name && token.value.toUpperCase() === word;
  }

  accept(word: string): boolean {
    if (!this.isKeyword(word)) return false;
    this.index++;
    return true;
  }

  expect(word: string): void {
    if (!this.accept(word)) this.fail(`expected ${word}`);
  }

  fail(message: string): never {
    const token = this.peek();
    const found = token.kind === TokenKind.EOF ? 'end of input' : `'${this.text.slice(token.start, token.end)}'`;
    throw new CypherSyntaxError(`Invalid input ${found}: ${message} (line ${token.line}, column ${token.column})`, {
      position: { offset: token.start, line: token.line, column: token.column },
    });
  }

  /** A symbolic name, a string literal (for passwords) or a parameter. */
  value(what: string, allowString: boolean): NameOrParameter {
    const token = this.peek();
    if (token.kind === TokenKind.Parameter) {
      this.index++;
      return { parameter: token.value };
    }
    if (token.kind === TokenKind.Name || token.kind === TokenKind.QuotedName || (allowString && token.kind === TokenKind.String)) {
      this.index++;
      return { literal: token.value };
    }
    return this.fail(`expected ${what}`);
  }

  list(what: string): NameOrParameter[] {
    const items = [this.value(what, false)];
    while (this.peek().kind === TokenKind.Comma) {
      this.index++;
      items.push(this.value(what, false));
    }
    return items;
  }

  end(): void {
    if (this.peek().kind === TokenKind.Semicolon) this.index++;
    if (this.peek().kind !== TokenKind.EOF) this.fail('expected end of statement');
  }
}

/** `IF NOT EXISTS` / `IF EXISTS` after a name. */
function ifClause(cursor: TokenCursor, not: boolean): boolean {
  if (!cursor.isKeyword('IF')) return false;
  cursor.expect('IF');
  if (not) cursor.expect('NOT');
  cursor.expect('EXISTS');
  return true;
}

interface UserOptions {
  password: NameOrParameter | null;
  suspended: boolean | null;
}

/** The SET PASSWORD / CHANGE REQUIRED / SET STATUS / SET HOME DATABASE clauses. */
function userOptions(cursor: TokenCursor): UserOptions {
  const options: UserOptions = { password: null, suspended: null };
  for (;;) {
    if (cursor.accept('CHANGE')) {
      cursor.accept('NOT');
      cursor.expect('REQUIRED');
    } else if (cursor.accept('SET')) {
      if (cursor.accept('STATUS')) {
        if (cursor.accept('ACTIVE')) options.suspended = false;
        else if (cursor.accept('SUSPENDED')) options.suspended = true;
        else cursor.fail('expected ACTIVE or SUSPENDED');
      } else if (cursor.accept('HOME')) {
        cursor.expect('DATABASE');
        cursor.value('a database name', false);
      } else {
        if (cursor.isKeyword('ENCRYPTED')) cursor.fail('encrypted passwords are not supported; use SET PASSWORD');
        cursor.accept('PLAINTEXT');
        cursor.expect('PASSWORD');
        options.password = cursor.value('a password', true);
      }
    } else {
      return options;
    }
  }
}

function parseCreate(cursor: TokenCursor): AuthCommand | null {
  const orReplace = cursor.isKeyword('OR') && cursor.isKeyword('REPLACE', 1);
  const offset = orReplace ? 2 : 0;
  const isUser = cursor.isKeyword('USER', offset);
  if (!isUser && !cursor.isKeyword('ROLE', offset)) return null;
  if (orReplace) {
    cursor.expect('OR');
    cursor.expect('REPLACE');
  }
  cursor.expect(isUser ? 'USER' : 'ROLE');
  const name = cursor.value(isUser ? 'a user name' : 'a role name', false);
  const ifNotExists = ifClause(cursor, true);
  if (!isUser) {
    if (cursor.accept('AS')) cursor.fail('CREATE ROLE ... AS COPY OF is not supported');
    cursor.end();
    return { command: 'CREATE ROLE', name, orReplace, ifNotExists };
  }
  const options = userOptions(cursor);
  cursor.end();
  if (options.password === null) cursor.fail('CREATE USER needs SET PASSWORD');
  return { command: 'CREATE USER', name, orReplace, ifNotExists, password: options.password, suspended: options.suspended };
}

function parseShow(cursor: TokenCursor): AuthCommand | null {
  if (cursor.isKeyword('CURRENT') && cursor.isKeyword('USER', 1)) {
    cursor.expect('CURRENT');
    cursor.expect('USER');
    cursor.end();
    return { command: 'SHOW CURRENT USER', populatedOnly: false, withUsers: false };
  }
  if (cursor.isKeyword('USERS') || cursor.isKeyword('USER')) {
    if (!cursor.accept('USERS')) cursor.expect('USER');
    cursor.end();
    return { command: 'SHOW USERS', populatedOnly: false, withUsers: false };
  }
  const qualifier = cursor.isKeyword('ALL') || cursor.isKeyword('POPULATED') ? 1 : 0;
  if (!cursor.isKeyword('ROLES', qualifier) && !cursor.isKeyword('ROLE', qualifier)) return null;
  const populatedOnly = cursor.accept('POPULATED');
  cursor.accept('ALL');
  if (!cursor.accept('ROLES')) cursor.expect('ROLE');
  let withUsers = false;
  if (cursor.accept('WITH')) {
    if (!cursor.accept('USERS')) cursor.expect('USER');
    withUsers = true;
  }
  cursor.end();
  return { command: 'SHOW ROLES', populatedOnly, withUsers };
}

/** Parses a user/role administration command, or returns null for any other statement. */
export function parseAuthCommand(text: string): AuthCommand | null {
  return parseAuthTokens(tokenize(text), text);
}

/** As parseAuthCommand, over tokens already produced by the lexer. */
export function parseAuthTokens(tokens: readonly Token[], text: string): AuthCommand | null {
  const cursor = new TokenCursor(tokens, text);
  if (cursor.accept('CREATE')) return parseCreate(cursor);
  if (cursor.accept('SHOW')) return parseShow(cursor);
  if (cursor.isKeyword('DROP') && (cursor.isKeyword('USER', 1) || cursor.isKeyword('ROLE', 1))) {
    cursor.expect('DROP');
    const isUser = cursor.accept('USER');
    if (!isUser) cursor.expect('ROLE');
    const name = cursor.value(isUser ? 'a user name' : 'a role name', false);
    const ifExists = ifClause(cursor, false);
    cursor.end();
    return { command: isUser ? 'DROP USER' : 'DROP ROLE', name, ifExists };
  }
  if (cursor.isKeyword('ALTER') && cursor.isKeyword('USER', 1)) {
    cursor.expect('ALTER');
    cursor.expect('USER');
    const name = cursor.value('a user name', false);
    const ifExists = ifClause(cursor, false);
    const options = userOptions(cursor);
    cursor.end();
    return { command: 'ALTER USER', name, ifExists, password: options.password, suspended: options.suspended };
  }
  const grant = cursor.isKeyword('GRANT');
  if ((grant || cursor.isKeyword('REVOKE')) && (cursor.isKeyword('ROLE', 1) || cursor.isKeyword('ROLES', 1))) {
    cursor.expect(grant ? 'GRANT' : 'REVOKE');
    if (!cursor.accept('ROLES')) cursor.expect('ROLE');
    const roles = cursor.list('a role name');
    cursor.expect(grant ? 'TO' : 'FROM');
    const users = cursor.list('a user name');
    cursor.end();
    return { command: grant ? 'GRANT ROLE' : 'REVOKE ROLE', roles, users };
  }
  return null;
}
