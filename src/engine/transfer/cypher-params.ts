/**
 * cypher-shell's `:param` lines in imported scripts: `:param name => expression`, `:param {name:
 * expression, ...}` and `:param clear` / `:params clear`. cypher-shell evaluates the expression as
 * `RETURN expression`; so does the importer, except that a plain literal (numbers, strings,
 * booleans, null, lists and maps of them: what `graphdb export --format cypher` writes for its row
 * batches) is read directly, which gives the same value without lexing, parsing and planning a
 * query per batch.
 */
import { TokenKind } from '../cypher/lexer/index.js';
import { isDigit, scanNamePart, scanNumber, scanQuoted, scanString } from '../cypher/lexer/scan-literals.js';
import { GraphError } from '../errors/index.js';
import type { CypherValue } from '../values/types.js';

/** What a `:param` line asks for. */
export type ParamCommand =
  | { readonly kind: 'set'; readonly name: string; readonly expression: string }
  | { readonly kind: 'map'; readonly expression: string }
  | { readonly kind: 'clear' };

/**
 * Parses a `:param` / `:params` line (the command word included).
 * @throws Error with cypher-shell's accepted forms when the line is none of them
 */
export function parseParamCommand(line: string): ParamCommand {
  const rest = line
    .trim()
    .replace(/^:params?\b/i, '')
    .trim();
  if (/^clear$/i.test(rest)) return { kind: 'clear' };
  if (rest.startsWith('{')) return { kind: 'map', expression: rest };
  const arrow = /^(`(?:[^`]|``)+`|[A-Za-z_][A-Za-z0-9_]*)\s*=>\s*([\s\S]+)$/.exec(rest);
  if (arrow === null)
    throw new Error(`Incorrect usage of :param: use ':param name => expression', ':param {name: expression}' or ':param clear'`);
  const name = arrow[1]!.startsWith('`') ? arrow[1]!.slice(1, -1).replace(/``/g, '`') : arrow[1]!;
  return { kind: 'set', name, expression: arrow[2]!.trim() };
}

const DECIMAL = /^(?:0|[1-9][0-9]*)$/;
const FLOAT = /^(?:[0-9]+\.[0-9]+(?:[eE][+-]?[0-9]+)?|[0-9]+[eE][+-]?[0-9]+)$/;
const INT64_MAX = 9223372036854775807n;
const WORDS = new Map<string, CypherValue>([
  ['true', true],
  ['false', false],
  ['null', null],
]);

/** Not a plain literal: the caller evaluates the expression with the engine. */
class NotLiteral extends Error {}

/**
 * Reads the value of a plain literal expression, or returns undefined when the text is any other
 * expression (or has comments). Strings, quoted names and numbers are scanned by the lexer's own
 * scanners (`scan-literals.ts`), so they read exactly as in a query.
 */
export function literalValue(text: string): CypherValue | undefined {
  let at = 0;
  const space = (): void => {
    for (;;) {
      const c = text.charCodeAt(at);
      if (c === 32 || c === 10 || c === 13 || c === 9) at++;
      else return;
    }
  };
  const expect = (code: number): boolean => {
    space();
    if (text.charCodeAt(at) !== code) return false;
    at++;
    return true;
  };
  const number = (negative: boolean): CypherValue => {
    const start = at;
    const { kind, end } = scanNumber(text, start);
    const digits = text.slice(start, end);
    at = end;
    if (kind === TokenKind.Integer) {
      if (!DECIMAL.test(digits)) throw new NotLiteral();
      const value = BigInt(digits);
      if (value > INT64_MAX + (negative ? 1n : 0n)) throw new NotLiteral();
      return negative ? -value : value;
    }
    const value = Number(digits);
    if (!FLOAT.test(digits) || !Number.isFinite(value)) throw new NotLiteral();
    return negative ? -value : value;
  };
  const value = (): CypherValue => {
    space();
    const c = text.charCodeAt(at);
    if (c === 0x27 || c === 0x22) {
      const { value: string, end } = scanString(text, at);
      at = end;
      return string;
    }
    if (isDigit(c)) return number(false);
    if (c === 0x2d) {
      at++;
      if (!isDigit(text.charCodeAt(at))) throw new NotLiteral();
      return number(true);
    }
    if (c === 0x5b) {
      at++;
      const items: CypherValue[] = [];
      if (expect(0x5d)) return items;
      do items.push(value());
      while (expect(0x2c));
      if (!expect(0x5d)) throw new NotLiteral();
      return items;
    }
    if (c === 0x7b) {
      at++;
      const entries = new Map<string, CypherValue>();
      if (expect(0x7d)) return entries;
      do {
        space();
        const key = name();
        if (!expect(0x3a)) throw new NotLiteral();
        entries.set(key, value());
      } while (expect(0x2c));
      if (!expect(0x7d)) throw new NotLiteral();
      return entries;
    }
    const word = WORDS.get(text.slice(at, scanNamePart(text, at)).toLowerCase());
    if (word === undefined) throw new NotLiteral();
    at = scanNamePart(text, at);
    return word;
  };
  const name = (): string => {
    if (text.charCodeAt(at) === 0x60) {
      const { value: quoted, end } = scanQuoted(text, at, 0x60, 'missing closing backtick');
      at = end;
      return quoted;
    }
    const end = scanNamePart(text, at);
    if (end === at || isDigit(text.charCodeAt(at))) throw new NotLiteral();
    const key = text.slice(at, end);
    at = end;
    return key;
  };
  try {
    const result = value();
    space();
    return at === text.length ? result : undefined;
  } catch (error) {
    if (error instanceof NotLiteral || error instanceof GraphError) return undefined;
    throw error;
  }
}
