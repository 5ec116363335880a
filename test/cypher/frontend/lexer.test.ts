import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { tokenize, TokenKind, type Token } from '../../../src/engine/cypher/lexer/index.js';
import { CypherSyntaxError } from '../../../src/engine/errors/index.js';

/** The single token of `text` (between SOF and EOF). */
function lexOne(text: string): Token {
  const tokens = tokenize(text);
  assert.equal(tokens.length, 3, `expected one token in ${JSON.stringify(text)}`);
  return tokens[1];
}

/** Asserts that lexing fails with this message prefix, detail and position. */
function expectSyntaxError(
  text: string,
  expected: { message: string; detail: string; offset: number; line?: number; column?: number },
): void {
  assert.throws(
    () => tokenize(text),
    (error: unknown) => {
      assert.ok(error instanceof CypherSyntaxError);
      assert.ok(error.message.startsWith(expected.message), error.message);
      assert.equal(error.detail, expected.detail);
      assert.equal(error.position?.offset, expected.offset);
      if (expected.line !== undefined) assert.equal(error.position?.line, expected.line);
      if (expected.column !== undefined) assert.equal(error.position?.column, expected.column);
      return true;
    },
  );
}

describe('lexer', () => {
  test('starts with SOF and ends with EOF', () => {
    const tokens = tokenize('  ');
    assert.deepEqual(
      tokens.map((t) => t.kind),
      [TokenKind.SOF, TokenKind.EOF],
    );
  });

  test('identifiers: unquoted, unicode, backticks with doubled backticks', () => {
    assert.deepEqual(lexOne('fooBar_1'), { kind: TokenKind.Name, start: 0, end: 8, line: 1, column: 1, value: 'fooBar_1' });
    assert.equal(lexOne('résumé').value, 'résumé');
    assert.equal(lexOne('名前').value, '名前');
    const quoted = lexOne('`a``b c`');
    assert.equal(quoted.kind, TokenKind.QuotedName);
    assert.equal(quoted.value, 'a`b c');
  });

  test('numbers keep their text and are classified', () => {
    for (const text of ['0', '42', '1_000', '0x1F', '0o17', '017']) assert.equal(lexOne(text).kind, TokenKind.Integer, text);
    for (const text of ['1.5', '.5', '1e3', '1.5E-3', '2e+10']) assert.equal(lexOne(text).kind, TokenKind.Float, text);
    assert.equal(lexOne('1_000').value, '1_000');
  });

  test('a range is not a float', () => {
    assert.deepEqual(
      tokenize('1..3')
        .slice(1, -1)
        .map((t) => t.kind),
      [TokenKind.Integer, TokenKind.DotDot, TokenKind.Integer],
    );
  });

  test('strings decode escapes including \\u and \\U', () => {
    assert.equal(lexOne(String.raw`'a\'b\"c\\d\n\t'`).value, 'a\'b"c\\d\n\t');
    assert.equal(lexOne(String.raw`"\u0041\U0001F600"`).value, 'A😀');
    assert.equal(lexOne(`"it's"`).value, "it's");
  });

  test('parameters: names, numbers, backticks', () => {
    assert.deepEqual([lexOne('$name').value, lexOne('$0').value, lexOne('$`odd name`').value], ['name', '0', 'odd name']);
    assert.equal(lexOne('$name').kind, TokenKind.Parameter);
  });

  test('operators are maximal munch', () => {
    const kinds = tokenize('<> <= >= =~ += :: || .. -')
      .slice(1, -1)
      .map((t) => t.kind);
    assert.deepEqual(kinds, [
      TokenKind.Neq,
      TokenKind.Le,
      TokenKind.Ge,
      TokenKind.RegexMatch,
      TokenKind.PlusEq,
      TokenKind.ColonColon,
      TokenKind.Concat,
      TokenKind.DotDot,
      TokenKind.Minus,
    ]);
  });

  test('comments are skipped and lines counted', () => {
    const tokens = tokenize('// one\nMATCH /* two\nthree */ (n)');
    assert.equal(tokens[1].value, 'MATCH');
    assert.deepEqual([tokens[1].line, tokens[1].column], [2, 1]);
    assert.deepEqual([tokens[2].line, tokens[2].column], [3, 10]);
  });

  test('errors carry message, detail and position', () => {
    expectSyntaxError("RETURN '\\uH'", { message: "Invalid input '\\uH'", detail: 'InvalidUnicodeLiteral', offset: 8 });
    expectSyntaxError('RETURN 9223372h54775808', {
      message: "Invalid input '9223372h54775808': expected a number",
      detail: 'InvalidNumberLiteral',
      offset: 7,
    });
    expectSyntaxError("RETURN\n  'open", {
      message: 'Failed to parse string literal',
      detail: 'UnexpectedSyntax',
      offset: 9,
      line: 2,
      column: 3,
    });
    expectSyntaxError('RETURN 1 /* open', { message: 'Failed to parse comment', detail: 'UnexpectedSyntax', offset: 9 });
    expectSyntaxError('RETURN `open', { message: 'Failed to parse quoted identifier', detail: 'UnexpectedSyntax', offset: 7 });
    expectSyntaxError('RETURN 1 # 2', { message: "Invalid input '#'", detail: 'UnexpectedSyntax', offset: 9 });
  });
});
