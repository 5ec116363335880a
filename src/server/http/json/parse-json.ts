/**
 * A JSON parser that keeps integers exact: an integer literal (no fraction, no exponent) becomes a
 * `bigint`, any other number a `number`, as Neo4j reads JSON parameters (Long vs Double).
 * Objects are created without a prototype so keys such as `__proto__` are ordinary data.
 */

/** A parsed JSON value. */
export type JsonValue = null | boolean | bigint | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Thrown for malformed JSON; `offset` is the character index of the problem. */
export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} at position ${offset}`);
    this.name = 'JsonSyntaxError';
  }
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
// JSON strings end at a quote, a backslash or a control character (RFC 8259 section 7).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const STRING_RUN = /[^"\\\u0000-\u001f]*/y;
const ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

class Parser {
  private index = 0;

  constructor(private readonly text: string) {}

  parseDocument(): JsonValue {
    const value = this.parseValue(0);
    this.skipWhitespace();
    if (this.index < this.text.length) this.fail('Unexpected data after the JSON value');
    return value;
  }

  private fail(message: string): never {
    throw new JsonSyntaxError(message, this.index);
  }

  private skipWhitespace(): void {
    const text = this.text;
    while (this.index < text.length) {
      const code = text.charCodeAt(this.index);
      if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) return;
      this.index++;
    }
  }

  private parseValue(depth: number): JsonValue {
    if (depth > 512) this.fail('JSON nested too deeply');
    this.skipWhitespace();
    const char = this.text[this.index];
    switch (char) {
      case '{':
        return this.parseObject(depth);
      case '[':
        return this.parseArray(depth);
      case '"':
        return this.parseString();
      case 't':
        return this.parseWord('true', true);
      case 'f':
        return this.parseWord('false', false);
      case 'n':
        return this.parseWord('null', null);
      case undefined:
        return this.fail('Unexpected end of JSON input');
      default:
        return this.parseNumber();
    }
  }

  private parseWord<T>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.index)) this.fail(`Unexpected token ${JSON.stringify(this.text[this.index])}`);
    this.index += word.length;
    return value;
  }

  private parseNumber(): bigint | number {
    NUMBER.lastIndex = this.index;
    const match = NUMBER.exec(this.text);
    if (match === null) this.fail(`Unexpected token ${JSON.stringify(this.text[this.index])}`);
    this.index = NUMBER.lastIndex;
    const literal = match[0];
    if (match[1] === undefined && match[2] === undefined) {
      const integer = BigInt(literal);
      if (integer >= INT64_MIN && integer <= INT64_MAX) return integer;
    }
    return Number(literal);
  }

  private parseString(): string {
    const text = this.text;
    this.index++;
    let result = '';
    for (;;) {
      STRING_RUN.lastIndex = this.index;
      STRING_RUN.exec(text);
      result += text.slice(this.index, STRING_RUN.lastIndex);
      this.index = STRING_RUN.lastIndex;
      const char = text[this.index];
      if (char === '"') {
        this.index++;
        return result;
      }
      if (char !== '\\') this.fail(char === undefined ? 'Unterminated string' : 'Bad control character in string');
      const escape = text[this.index + 1];
      if (escape === 'u') {
        const hex = text.slice(this.index + 2, this.index + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('Bad Unicode escape');
        result += String.fromCharCode(parseInt(hex, 16));
        this.index += 6;
      } else {
        const replacement = escape === undefined ? undefined : ESCAPES[escape];
        if (replacement === undefined) this.fail('Bad escaped character');
        result += replacement;
        this.index += 2;
      }
    }
  }

  private parseArray(depth: number): JsonValue[] {
    this.index++;
    const items: JsonValue[] = [];
    this.skipWhitespace();
    if (this.text[this.index] === ']') {
      this.index++;
      return items;
    }
    for (;;) {
      items.push(this.parseValue(depth + 1));
      this.skipWhitespace();
      const char = this.text[this.index++];
      if (char === ']') return items;
      if (char !== ',') this.fail("Expected ',' or ']' in array");
    }
  }

  private parseObject(depth: number): { [key: string]: JsonValue } {
    this.index++;
    const object: { [key: string]: JsonValue } = Object.create(null) as { [key: string]: JsonValue };
    this.skipWhitespace();
    if (this.text[this.index] === '}') {
      this.index++;
      return object;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.index] !== '"') this.fail('Expected a property name in double quotes');
      const key = this.parseString();
      this.skipWhitespace();
      if (this.text[this.index++] !== ':') this.fail("Expected ':' after property name");
      object[key] = this.parseValue(depth + 1);
      this.skipWhitespace();
      const char = this.text[this.index++];
      if (char === '}') return object;
      if (char !== ',') this.fail("Expected ',' or '}' in object");
    }
  }
}

/** Parses JSON text, keeping 64-bit integers exact. Throws JsonSyntaxError. */
export function parseJson(text: string): JsonValue {
  return new Parser(text).parseDocument();
}
