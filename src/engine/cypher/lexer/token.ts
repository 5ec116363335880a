import type { TokenKind } from './token-kind.js';

/**
 * One token. `start`/`end` are offsets into the source (end exclusive), `line`/`column` 1-based.
 * `value` is the decoded text: identifier without backticks, string without quotes and escapes,
 * parameter name without `$`, number text as written (the parser converts it).
 */
export interface Token {
  readonly kind: TokenKind;
  readonly start: number;
  readonly end: number;
  readonly line: number;
  readonly column: number;
  readonly value: string;
}
