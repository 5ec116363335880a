import { syntaxError } from './syntax-error.js';
import { TokenKind } from './token-kind.js';

/**
 * Scanners for the literal tokens: pure functions of the text and a start offset that return
 * where the token ends (and its decoded value) or throw a CypherSyntaxError.
 */

const identifierPart = /[\p{ID_Continue}\p{Sc}\p{Pc}]/u;
const unterminatedString = 'Failed to parse string literal. The query must contain an even number of non-escaped quotes.';

/** True for `0`..`9`. */
export function isDigit(code: number): boolean {
  return code >= 0x0030 && code <= 0x0039;
}

/** True for characters that may continue an identifier. */
export function isNamePart(codePoint: number): boolean {
  if (codePoint <= 0x7f) {
    return (codePoint >= 0x41 && codePoint <= 0x5a) || (codePoint >= 0x61 && codePoint <= 0x7a) || codePoint === 0x5f || isDigit(codePoint);
  }
  return identifierPart.test(String.fromCodePoint(codePoint));
}

/** The offset after the identifier characters starting at `start`. */
export function scanNamePart(text: string, start: number): number {
  let end = start;
  while (end < text.length) {
    const codePoint = text.codePointAt(end)!;
    if (!isNamePart(codePoint)) break;
    end += codePoint > 0xffff ? 2 : 1;
  }
  return end;
}

/**
 * Numbers: `123`, `1_000`, `0x1F`, `0o17`, `1.5`, `.5`, `1e10`, `1.5E-3`. A letter right after a
 * number is an `InvalidNumberLiteral` (`9223372h54775808`).
 */
export function scanNumber(text: string, start: number): { kind: TokenKind.Integer | TokenKind.Float; end: number } {
  let position = start;
  let kind: TokenKind.Integer | TokenKind.Float = TokenKind.Integer;
  if (text.charCodeAt(position) === 0x0030 && /[xXoO]/.test(text[position + 1] ?? '')) {
    const digits = /[xX]/.test(text[position + 1]!) ? /[0-9a-fA-F_]/ : /[0-7_]/;
    position += 2;
    while (position < text.length && digits.test(text[position]!)) position++;
    if (position === start + 2)
      throw syntaxError(text, start, `Invalid input '${text.slice(start, position + 1)}': expected a number`, 'InvalidNumberLiteral');
  } else {
    position = scanDigits(text, position);
    if (text.charCodeAt(position) === 0x002e && isDigit(text.charCodeAt(position + 1))) {
      kind = TokenKind.Float;
      position = scanDigits(text, position + 1);
    }
    if (/[eE]/.test(text[position] ?? '')) {
      let exponent = position + 1;
      if (/[+-]/.test(text[exponent] ?? '')) exponent++;
      if (isDigit(text.charCodeAt(exponent))) {
        kind = TokenKind.Float;
        position = scanDigits(text, exponent);
      }
    }
  }
  if (position < text.length && isNamePart(text.codePointAt(position)!)) {
    const end = scanNamePart(text, position);
    throw syntaxError(text, start, `Invalid input '${text.slice(start, end)}': expected a number`, 'InvalidNumberLiteral');
  }
  return { kind, end: position };
}

/** Digits with single `_` separators between them. */
function scanDigits(text: string, position: number): number {
  while (position < text.length) {
    const code = text.charCodeAt(position);
    if (isDigit(code) || (code === 0x005f && isDigit(text.charCodeAt(position + 1)))) position++;
    else break;
  }
  return position;
}

/**
 * A quoted name starting at `start` (the opening `quote`); a doubled quote escapes itself.
 * Returns the decoded text and the offset after the closing quote.
 */
export function scanQuoted(text: string, start: number, quote: number, unterminated: string): { value: string; end: number } {
  let value = '';
  let chunkStart = start + 1;
  let position = start + 1;
  while (position < text.length) {
    if (text.charCodeAt(position) === quote) {
      if (text.charCodeAt(position + 1) === quote) {
        value += text.slice(chunkStart, position + 1);
        position += 2;
        chunkStart = position;
        continue;
      }
      return { value: value + text.slice(chunkStart, position), end: position + 1 };
    }
    position++;
  }
  throw syntaxError(text, start, unterminated);
}

/** `'...'` or `"..."` with escapes `\\ \' \" \b \f \n \r \t \uXXXX \UXXXXXXXX`. */
export function scanString(text: string, start: number): { value: string; end: number } {
  const quote = text.charCodeAt(start);
  let position = start + 1;
  let value = '';
  let chunkStart = position;
  while (position < text.length) {
    const code = text.charCodeAt(position);
    if (code === quote) return { value: value + text.slice(chunkStart, position), end: position + 1 };
    if (code !== 0x005c) {
      position++;
      continue;
    }
    value += text.slice(chunkStart, position);
    const [decoded, length] = decodeEscape(text, position);
    value += decoded;
    position += length;
    chunkStart = position;
  }
  throw syntaxError(text, start, unterminatedString);
}

/** Decodes the escape sequence at `position` (a backslash); returns the text and its length. */
function decodeEscape(text: string, position: number): [string, number] {
  const escaped = text[position + 1];
  switch (escaped) {
    case '\\':
      return ['\\', 2];
    case "'":
      return ["'", 2];
    case '"':
      return ['"', 2];
    case 'b':
    case 'B':
      return ['\b', 2];
    case 'f':
    case 'F':
      return ['\f', 2];
    case 'n':
    case 'N':
      return ['\n', 2];
    case 'r':
    case 'R':
      return ['\r', 2];
    case 't':
    case 'T':
      return ['\t', 2];
    case 'u':
    case 'U': {
      const digits = escaped === 'u' ? 4 : 8;
      const sequence = text.slice(position, position + 2 + digits);
      const hex = sequence.slice(2);
      const codePoint = hex.length === digits && /^[0-9a-fA-F]+$/.test(hex) ? Number.parseInt(hex, 16) : -1;
      if (codePoint < 0 || codePoint > 0x10ffff) {
        throw syntaxError(
          text,
          position,
          `Invalid input '${sequence}': expected ${digits === 4 ? 'four' : 'eight'} hexadecimal digits specifying a unicode character`,
          'InvalidUnicodeLiteral',
        );
      }
      return [String.fromCodePoint(codePoint), 2 + digits];
    }
    case undefined:
      throw syntaxError(text, position, unterminatedString);
    default:
      return ['\\' + escaped, 2];
  }
}
