import { isDigit, scanNamePart, scanNumber, scanQuoted, scanString } from './scan-literals.js';
import { syntaxError } from './syntax-error.js';
import type { Token } from './token.js';
import { TokenKind } from './token-kind.js';

/**
 * Terminology:
 * - The lexer turns the whole statement into tokens up front (statements are short, and the
 *   parser backtracks between a parenthesized expression and a pattern).
 * - Numbers keep their source text; the parser converts them, because whether
 *   `9223372036854775808` overflows depends on a preceding unary minus.
 */

/** Code points accepted as a dash in relationship arrows besides `-` (openCypher `Dash`). */
const unicodeDashes = new Set([0x00ad, 0x2010, 0x2011, 0x2012, 0x2013, 0x2014, 0x2015, 0x2212, 0xfe58, 0xfe63, 0xff0d]);
const unicodeLeftArrowHeads = new Set([0x27e8, 0x3008, 0xfe64, 0xff1c]);
const unicodeRightArrowHeads = new Set([0x27e9, 0x3009, 0xfe65, 0xff1e]);
const identifierStart = /[\p{ID_Start}\p{Pc}]/u;
const unicodeSpace = /\s/u;

/** Tokenizes `text`: the result starts with SOF and ends with EOF. Throws CypherSyntaxError. */
export function tokenize(text: string): Token[] {
  return new Lexer(text).run();
}

/** A single-pass lexer over one statement text (graphql-js `Lexer`). */
export class Lexer {
  private position = 0;
  private line = 1;
  private lineStart = 0;
  private readonly tokens: Token[] = [];

  constructor(readonly text: string) {}

  /** Lexes everything. */
  run(): Token[] {
    this.tokens.push(this.make(TokenKind.SOF, 0, 0, ''));
    for (;;) {
      this.skipIgnored();
      if (this.position >= this.text.length) break;
      this.tokens.push(this.readToken());
    }
    this.tokens.push(this.make(TokenKind.EOF, this.text.length, this.text.length, ''));
    return this.tokens;
  }

  private make(kind: TokenKind, start: number, end: number, value: string): Token {
    return { kind, start, end, line: this.line, column: start - this.lineStart + 1, value };
  }

  private fail(offset: number, message: string, detail?: string): never {
    throw syntaxError(this.text, offset, message, detail);
  }

  /** Skips whitespace and comments, tracking lines. */
  private skipIgnored(): void {
    const text = this.text;
    while (this.position < text.length) {
      const code = text.charCodeAt(this.position);
      switch (code) {
        case 0x000a: // \n
          this.newLine(this.position + 1);
          continue;
        case 0x000d: // \r
          if (text.charCodeAt(this.position + 1) === 0x000a) this.position++;
          this.newLine(this.position + 1);
          continue;
        case 0x0009: // \t
        case 0x000b: // vertical tab
        case 0x000c: // form feed
        case 0x0020: // space
          this.position++;
          continue;
        case 0x002f: // /
          if (text.charCodeAt(this.position + 1) === 0x002f) {
            this.skipLineComment();
            continue;
          }
          if (text.charCodeAt(this.position + 1) === 0x002a) {
            this.skipBlockComment();
            continue;
          }
          return;
        default:
          if (code > 0x7f && unicodeSpace.test(String.fromCodePoint(text.codePointAt(this.position)!))) {
            this.position++;
            continue;
          }
          return;
      }
    }
  }

  private newLine(next: number): void {
    this.position = next;
    this.line++;
    this.lineStart = next;
  }

  private skipLineComment(): void {
    while (this.position < this.text.length) {
      const code = this.text.charCodeAt(this.position);
      if (code === 0x000a || code === 0x000d) return;
      this.position++;
    }
  }

  private skipBlockComment(): void {
    const start = this.position;
    this.position += 2;
    while (this.position < this.text.length) {
      const code = this.text.charCodeAt(this.position);
      if (code === 0x002a && this.text.charCodeAt(this.position + 1) === 0x002f) {
        this.position += 2;
        return;
      }
      if (code === 0x000a) this.newLine(this.position + 1);
      else if (code === 0x000d) {
        if (this.text.charCodeAt(this.position + 1) === 0x000a) this.position++;
        this.newLine(this.position + 1);
      } else this.position++;
    }
    this.fail(start, 'Failed to parse comment. A comment starting on `/*` must have a closing `*/`.');
  }

  /** Reads one token at the current position (which is not whitespace). */
  private readToken(): Token {
    const text = this.text;
    const start = this.position;
    const code = text.charCodeAt(start);
    const next = text.charCodeAt(start + 1);
    const punct = (kind: TokenKind, length: number): Token => {
      this.position = start + length;
      return this.make(kind, start, start + length, kind);
    };
    switch (code) {
      case 0x0028: // (
        return punct(TokenKind.LParen, 1);
      case 0x0029: // )
        return punct(TokenKind.RParen, 1);
      case 0x005b: // [
        return punct(TokenKind.LBracket, 1);
      case 0x005d: // ]
        return punct(TokenKind.RBracket, 1);
      case 0x007b: // {
        return punct(TokenKind.LBrace, 1);
      case 0x007d: // }
        return punct(TokenKind.RBrace, 1);
      case 0x002c: // ,
        return punct(TokenKind.Comma, 1);
      case 0x003b: // ;
        return punct(TokenKind.Semicolon, 1);
      case 0x0026: // &
        return punct(TokenKind.Amp, 1);
      case 0x0021: // !
        return punct(TokenKind.Bang, 1);
      case 0x0025: // %
        return punct(TokenKind.Percent, 1);
      case 0x002a: // *
        return punct(TokenKind.Star, 1);
      case 0x002f: // /
        return punct(TokenKind.Slash, 1);
      case 0x005e: // ^
        return punct(TokenKind.Caret, 1);
      case 0x002d: // -
        return punct(TokenKind.Minus, 1);
      case 0x007c: // |
        return next === 0x007c ? punct(TokenKind.Concat, 2) : punct(TokenKind.Pipe, 1);
      case 0x003a: // :
        return next === 0x003a ? punct(TokenKind.ColonColon, 2) : punct(TokenKind.Colon, 1);
      case 0x002b: // +
        return next === 0x003d ? punct(TokenKind.PlusEq, 2) : punct(TokenKind.Plus, 1);
      case 0x003d: // =
        return next === 0x007e ? punct(TokenKind.RegexMatch, 2) : punct(TokenKind.Eq, 1);
      case 0x003c: // <
        if (next === 0x003e) return punct(TokenKind.Neq, 2);
        return next === 0x003d ? punct(TokenKind.Le, 2) : punct(TokenKind.Lt, 1);
      case 0x003e: // >
        return next === 0x003d ? punct(TokenKind.Ge, 2) : punct(TokenKind.Gt, 1);
      case 0x002e: // .
        if (next === 0x002e) return punct(TokenKind.DotDot, 2);
        if (isDigit(next)) return this.readNumber();
        return punct(TokenKind.Dot, 1);
      case 0x0022: // "
      case 0x0027: // '
        return this.readString();
      case 0x0060: // `
        return this.readQuotedName();
      case 0x0024: // $
        return this.readParameter();
      default:
        if (isDigit(code)) return this.readNumber();
        return this.readOther(start);
    }
  }

  /** Identifiers (ASCII fast path, then Unicode) and the Unicode arrow characters. */
  private readOther(start: number): Token {
    const codePoint = this.text.codePointAt(start)!;
    const char = String.fromCodePoint(codePoint);
    if (isAsciiNameStart(codePoint) || (codePoint > 0x7f && identifierStart.test(char))) {
      const end = scanNamePart(this.text, start);
      this.position = end;
      return this.make(TokenKind.Name, start, end, this.text.slice(start, end));
    }
    const single = (kind: TokenKind): Token => {
      this.position = start + char.length;
      return this.make(kind, start, this.position, char);
    };
    if (unicodeDashes.has(codePoint)) return single(TokenKind.UnicodeDash);
    if (unicodeLeftArrowHeads.has(codePoint)) return single(TokenKind.UnicodeLeftArrowHead);
    if (unicodeRightArrowHeads.has(codePoint)) return single(TokenKind.UnicodeRightArrowHead);
    this.fail(start, `Invalid input '${char}': expected an expression, a keyword or a punctuation character`);
  }

  /** `` `name with ``backticks`` inside` `` */
  private readQuotedName(): Token {
    const start = this.position;
    const { value, end } = scanQuoted(this.text, start, 0x0060, 'Failed to parse quoted identifier: missing closing backtick');
    const token = this.make(TokenKind.QuotedName, start, end, value);
    this.advanceLines(start, end);
    return token;
  }

  /** A number token; its text is converted by the parser. */
  private readNumber(): Token {
    const start = this.position;
    const { kind, end } = scanNumber(this.text, start);
    this.position = end;
    return this.make(kind, start, end, this.text.slice(start, end));
  }

  /** A string token with its escapes decoded. */
  private readString(): Token {
    const start = this.position;
    const { value, end } = scanString(this.text, start);
    const token = this.make(TokenKind.String, start, end, value);
    this.advanceLines(start, end);
    return token;
  }

  /** Moves to `end`, counting the line breaks between `from` and `end`. */
  private advanceLines(from: number, end: number): void {
    for (let i = from; i < end; i++) {
      const code = this.text.charCodeAt(i);
      if (code === 0x000a || (code === 0x000d && this.text.charCodeAt(i + 1) !== 0x000a)) {
        this.line++;
        this.lineStart = i + 1;
      }
    }
    this.position = end;
  }

  /** `$name`, `$0`, `` $`quoted` ``; a bare `$` (dynamic labels `$(expr)`) is its own token. */
  private readParameter(): Token {
    const start = this.position;
    const next = this.text.codePointAt(start + 1) ?? 0;
    if (next === 0x0060) {
      const { value, end } = scanQuoted(this.text, start + 1, 0x0060, 'Failed to parse quoted parameter name: missing closing backtick');
      const token = this.make(TokenKind.Parameter, start, end, value);
      this.advanceLines(start, end);
      return token;
    }
    if (isDigit(next)) {
      let end = start + 1;
      while (isDigit(this.text.charCodeAt(end))) end++;
      this.position = end;
      return this.make(TokenKind.Parameter, start, end, this.text.slice(start + 1, end));
    }
    if (isAsciiNameStart(next) || (next > 0x7f && identifierStart.test(String.fromCodePoint(next)))) {
      const end = scanNamePart(this.text, start + 1);
      this.position = end;
      return this.make(TokenKind.Parameter, start, end, this.text.slice(start + 1, end));
    }
    this.position = start + 1;
    return this.make(TokenKind.Dollar, start, start + 1, '$');
  }
}

function isAsciiNameStart(code: number): boolean {
  return (code >= 0x0041 && code <= 0x005a) || (code >= 0x0061 && code <= 0x007a) || code === 0x005f;
}
