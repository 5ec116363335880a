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
const identifierPart = /[\p{ID_Continue}\p{Sc}\p{Pc}]/u;
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
    this.fail(start, "Failed to parse comment. A comment starting on `/*` must have a closing `*/`.");
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
        return this.readString(code);
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
      const end = this.scanName(start);
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

  private scanName(start: number): number {
    let end = start;
    while (end < this.text.length) {
      const codePoint = this.text.codePointAt(end)!;
      if (isAsciiNamePart(codePoint)) end++;
      else if (codePoint > 0x7f && identifierPart.test(String.fromCodePoint(codePoint))) end += codePoint > 0xffff ? 2 : 1;
      else break;
    }
    return end;
  }

  /** `` `name with ``backticks`` inside` `` */
  private readQuotedName(): Token {
    const start = this.position;
    const [value, end] = this.readQuoted(start, 0x0060, 'Failed to parse quoted identifier: missing closing backtick');
    const token = this.make(TokenKind.QuotedName, start, end, value);
    this.advanceLines(start, end);
    return token;
  }

  /**
   * Reads a backtick-quoted body starting at `start` (the opening backtick); doubled backticks
   * escape. Returns the decoded text and the offset after the closing quote.
   */
  private readQuoted(start: number, quote: number, unterminated: string): [string, number] {
    let value = '';
    let chunkStart = start + 1;
    let position = start + 1;
    const text = this.text;
    while (position < text.length) {
      if (text.charCodeAt(position) === quote) {
        if (text.charCodeAt(position + 1) === quote) {
          value += text.slice(chunkStart, position + 1);
          position += 2;
          chunkStart = position;
          continue;
        }
        value += text.slice(chunkStart, position);
        return [value, position + 1];
      }
      position++;
    }
    this.fail(start, unterminated);
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
      const [value, end] = this.readQuoted(start + 1, 0x0060, 'Failed to parse quoted parameter name: missing closing backtick');
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
      const end = this.scanName(start + 1);
      this.position = end;
      return this.make(TokenKind.Parameter, start, end, this.text.slice(start + 1, end));
    }
    this.position = start + 1;
    return this.make(TokenKind.Dollar, start, start + 1, '$');
  }

  /**
   * Numbers: `123`, `1_000`, `0x1F`, `0o17`, `1.5`, `.5`, `1e10`, `1.5E-3`. A letter right after a
   * number is an InvalidNumberLiteral (`9223372h54775808`).
   */
  private readNumber(): Token {
    const text = this.text;
    const start = this.position;
    let position = start;
    let kind = TokenKind.Integer;
    if (text.charCodeAt(position) === 0x0030 && /[xXoO]/.test(text[position + 1] ?? '')) {
      const hex = /[xX]/.test(text[position + 1]!);
      position += 2;
      const digits = hex ? /[0-9a-fA-F_]/ : /[0-7_]/;
      while (position < text.length && digits.test(text[position]!)) position++;
      if (position === start + 2) this.fail(start, `Invalid input '${text.slice(start, position + 1)}': expected a number`, 'InvalidNumberLiteral');
    } else {
      position = this.scanDigits(position);
      if (text.charCodeAt(position) === 0x002e && isDigit(text.charCodeAt(position + 1))) {
        kind = TokenKind.Float;
        position = this.scanDigits(position + 1);
      }
      if (/[eE]/.test(text[position] ?? '')) {
        let exponent = position + 1;
        if (/[+-]/.test(text[exponent] ?? '')) exponent++;
        if (isDigit(text.charCodeAt(exponent))) {
          kind = TokenKind.Float;
          position = this.scanDigits(exponent);
        }
      }
    }
    const after = text.codePointAt(position) ?? 0;
    if (isAsciiNamePart(after) || (after > 0x7f && identifierPart.test(String.fromCodePoint(after)))) {
      const end = this.scanName(position);
      this.fail(start, `Invalid input '${text.slice(start, end)}': expected a number`, 'InvalidNumberLiteral');
    }
    this.position = position;
    return this.make(kind, start, position, text.slice(start, position));
  }

  private scanDigits(position: number): number {
    const text = this.text;
    while (position < text.length) {
      const code = text.charCodeAt(position);
      if (isDigit(code) || (code === 0x005f && isDigit(text.charCodeAt(position + 1)))) position++;
      else break;
    }
    return position;
  }

  /** `'...'` or `"..."` with escapes `\\ \' \" \b \f \n \r \t \uXXXX \UXXXXXXXX`. */
  private readString(quote: number): Token {
    const text = this.text;
    const start = this.position;
    let position = start + 1;
    let value = '';
    let chunkStart = position;
    while (position < text.length) {
      const code = text.charCodeAt(position);
      if (code === quote) {
        value += text.slice(chunkStart, position);
        const token = this.make(TokenKind.String, start, position + 1, value);
        this.advanceLines(start, position + 1);
        return token;
      }
      if (code !== 0x005c) {
        position++;
        continue;
      }
      value += text.slice(chunkStart, position);
      const [decoded, length] = this.readEscape(position);
      value += decoded;
      position += length;
      chunkStart = position;
    }
    this.fail(start, `Failed to parse string literal. The query must contain an even number of non-escaped quotes.`);
  }

  /** Decodes the escape sequence at `position` (a backslash); returns the text and its length. */
  private readEscape(position: number): [string, number] {
    const text = this.text;
    const escaped = text[position + 1];
    switch (escaped) {
      case '\\': return ['\\', 2];
      case "'": return ["'", 2];
      case '"': return ['"', 2];
      case 'b': case 'B': return ['\b', 2];
      case 'f': case 'F': return ['\f', 2];
      case 'n': case 'N': return ['\n', 2];
      case 'r': case 'R': return ['\r', 2];
      case 't': case 'T': return ['\t', 2];
      case 'u':
      case 'U': {
        const digits = escaped === 'u' ? 4 : 8;
        const hex = text.slice(position + 2, position + 2 + digits);
        if (!new RegExp(`^[0-9a-fA-F]{${digits}}$`).test(hex)) {
          this.fail(position, `Invalid input '${text.slice(position, position + 2 + digits)}': expected four hexadecimal digits specifying a unicode character`, 'InvalidUnicodeLiteral');
        }
        const codePoint = Number.parseInt(hex, 16);
        if (codePoint > 0x10ffff) this.fail(position, `Invalid unicode escape '${text.slice(position, position + 2 + digits)}'`, 'InvalidUnicodeLiteral');
        return [String.fromCodePoint(codePoint), 2 + digits];
      }
      case undefined:
        this.fail(position, 'Failed to parse string literal. The query must contain an even number of non-escaped quotes.');
      default:
        return ['\\' + escaped, 2];
    }
  }
}

function isDigit(code: number): boolean {
  return code >= 0x0030 && code <= 0x0039;
}

function isAsciiNameStart(code: number): boolean {
  return (code >= 0x0041 && code <= 0x005a) || (code >= 0x0061 && code <= 0x007a) || code === 0x005f;
}

function isAsciiNamePart(code: number): boolean {
  return isAsciiNameStart(code) || isDigit(code);
}
