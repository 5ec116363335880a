import { CypherSyntaxError } from '../../errors/index.js';
import type { Location } from '../ast/base.js';
import type { Expression, Variable } from '../ast/expressions.js';
import { Kind } from '../ast/kinds.js';
import type { PathPattern, Pattern, PatternPart } from '../ast/patterns.js';
import type { Query } from '../ast/statements.js';
import { syntaxError } from '../lexer/syntax-error.js';
import type { Token } from '../lexer/token.js';
import { TokenKind } from '../lexer/token-kind.js';
import { tokenize } from '../lexer/lexer.js';

/** An AST node without its location, as the parse methods build it before `finish()`. */
export type Unlocated<T> = T extends unknown ? Omit<T, 'loc'> : never;

/**
 * The token cursor and helpers shared by every production (graphql-js `Parser` helpers:
 * `peek`, `expectToken`, `expectKeyword`, `optionalMany`, `delimitedMany`).
 * Productions live in subclasses, one layer per file; the layers call each other through the
 * abstract methods declared here.
 */
export abstract class ParserBase {
  protected readonly tokens: readonly Token[];
  /** Upper-cased text of unquoted names (for keyword tests), '' for other tokens. */
  private readonly words: readonly string[];
  protected index = 1;
  /** False while parsing a comprehension's WHERE, where `|` ends the predicate instead of joining labels or types. */
  protected pipeContinuesLabels = true;
  /** The `CYPHER n` version of the statement: `'5'` rejects Cypher 25 only syntax (LET, FILTER). */
  protected cypherVersion: string | null = null;

  constructor(readonly text: string) {
    this.tokens = tokenize(text);
    this.words = this.tokens.map((token) => (token.kind === TokenKind.Name ? token.value.toUpperCase() : ''));
  }

  // Cross-layer productions.
  abstract parseExpression(): Expression;
  abstract parsePathPattern(): PathPattern;
  abstract parsePattern(): Pattern;
  abstract parsePatternPart(): PatternPart;
  abstract parseQuery(): Query;

  /** The token `offset` positions ahead of the cursor. */
  protected peek(offset = 0): Token {
    return this.tokens[Math.min(this.index + offset, this.tokens.length - 1)]!;
  }

  /** The last consumed token. */
  protected previous(): Token {
    return this.tokens[this.index - 1]!;
  }

  /** True when the token `offset` ahead has `kind`. */
  protected peekKind(kind: TokenKind, offset = 0): boolean {
    return this.peek(offset).kind === kind;
  }

  /** True when the token `offset` ahead is the unquoted keyword `word` (upper case). */
  protected peekKeyword(word: string, offset = 0): boolean {
    return this.words[Math.min(this.index + offset, this.tokens.length - 1)] === word;
  }

  /** True when the next tokens are the keywords `words`, in order. */
  protected peekKeywords(...words: string[]): boolean {
    return words.every((word, i) => this.peekKeyword(word, i));
  }

  /** Consumes and returns the next token. */
  protected advance(): Token {
    const token = this.peek();
    if (token.kind !== TokenKind.EOF) this.index++;
    return token;
  }

  /** Consumes a token of `kind` or fails. */
  protected expectToken(kind: TokenKind): Token {
    if (this.peekKind(kind)) return this.advance();
    this.unexpected(`'${kind}'`);
  }

  /** Consumes a token of `kind` if present. */
  protected optionalToken(kind: TokenKind): boolean {
    if (!this.peekKind(kind)) return false;
    this.advance();
    return true;
  }

  /** Consumes the keyword `word` or fails. */
  protected expectKeyword(word: string): Token {
    if (this.peekKeyword(word)) return this.advance();
    this.unexpected(`'${word}'`);
  }

  /** Consumes the keywords `words` in order or fails. */
  protected expectKeywords(...words: string[]): void {
    for (const word of words) this.expectKeyword(word);
  }

  /** Consumes the keyword `word` if present. */
  protected optionalKeyword(word: string): boolean {
    if (!this.peekKeyword(word)) return false;
    this.advance();
    return true;
  }

  /** Consumes the first of `words` that is next, if any; returns it (upper case) or null. */
  protected optionalAnyKeyword(...words: string[]): string | null {
    const word = words.find((candidate) => this.peekKeyword(candidate));
    if (word === undefined) return null;
    this.advance();
    return word;
  }

  /** Consumes the keyword sequence `words` if all are present. */
  protected optionalKeywords(...words: string[]): boolean {
    if (!this.peekKeywords(...words)) return false;
    for (let i = 0; i < words.length; i++) this.advance();
    return true;
  }

  /** `open item (, item)* close`, possibly empty. */
  protected optionalMany<T>(open: TokenKind, parseItem: () => T, close: TokenKind): T[] {
    this.expectToken(open);
    const items: T[] = [];
    if (this.optionalToken(close)) return items;
    do items.push(parseItem());
    while (this.optionalToken(TokenKind.Comma));
    this.expectToken(close);
    return items;
  }

  /** `item (delimiter item)*`, at least one. */
  protected delimitedMany<T>(delimiter: TokenKind, parseItem: () => T): T[] {
    const items: T[] = [parseItem()];
    while (this.optionalToken(delimiter)) items.push(parseItem());
    return items;
  }

  /** Runs `attempt`; on a syntax error restores the cursor and returns null. */
  protected tryParse<T>(attempt: () => T): T | null {
    const saved = this.index;
    try {
      return attempt();
    } catch (error) {
      if (!(error instanceof CypherSyntaxError)) throw error;
      this.index = saved;
      return null;
    }
  }

  /** Parses a comprehension's WHERE predicate, in which `|` ends the predicate. */
  protected parseComprehensionPredicate(): Expression {
    const saved = this.pipeContinuesLabels;
    this.pipeContinuesLabels = false;
    try {
      return this.parseExpression();
    } finally {
      this.pipeContinuesLabels = saved;
    }
  }

  /** Attaches the location from `start` to the last consumed token. */
  protected finish<T>(start: Token, node: Unlocated<T>): T {
    const end = this.previous();
    const loc: Location = { start: start.start, end: Math.max(end.end, start.start), line: start.line, column: start.column };
    return { ...node, loc } as T;
  }

  /** The source text from `start` to the last consumed token. */
  protected sourceFrom(start: Token): string {
    return this.text.slice(start.start, this.previous().end);
  }

  /** A symbolic name: unquoted (keywords allowed) or backtick-quoted. */
  protected parseName(what = 'an identifier'): string {
    const token = this.peek();
    if (token.kind === TokenKind.Name || token.kind === TokenKind.QuotedName) {
      this.advance();
      return token.value;
    }
    this.unexpected(what);
  }

  /** True when the next token can be a symbolic name. */
  protected peekName(offset = 0): boolean {
    const kind = this.peek(offset).kind;
    return kind === TokenKind.Name || kind === TokenKind.QuotedName;
  }

  /** `Variable : SymbolicName`. */
  parseVariable(): Variable {
    const start = this.peek();
    const name = this.parseName('a variable name');
    return this.finish<Variable>(start, { kind: Kind.Variable, name });
  }

  /** Throws "Invalid input 'X': expected ..." at the current token. */
  protected unexpected(expected: string, token: Token = this.peek()): never {
    const unicodeArrow =
      token.kind === TokenKind.UnicodeDash ||
      token.kind === TokenKind.UnicodeLeftArrowHead ||
      token.kind === TokenKind.UnicodeRightArrowHead;
    throw this.errorAt(
      token,
      `Invalid input '${this.tokenText(token)}': expected ${expected}`,
      unicodeArrow ? 'InvalidUnicodeCharacter' : undefined,
    );
  }

  /** A syntax error located at `token`. */
  protected errorAt(token: Token, message: string, detail?: string): CypherSyntaxError {
    return syntaxError(this.text, token.start, message, detail);
  }

  private tokenText(token: Token): string {
    if (token.kind === TokenKind.EOF) return '';
    return this.text.slice(token.start, token.end);
  }
}
