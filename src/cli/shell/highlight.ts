/**
 * Syntax highlighting of shell input with the Cypher lexer: the text is cut into segments, each
 * with a style (keyword, label, string, number, parameter, ...). Text the lexer cannot read yet
 * (an unterminated string while typing) is one plain segment.
 */
import { tokenize, TokenKind, type Token } from '../../engine/index.js';

/** Styles of highlighted segments. */
export type SegmentStyle = 'keyword' | 'label' | 'string' | 'number' | 'parameter' | 'function' | 'punctuation' | 'comment' | 'plain';

/** A run of input text with one style. */
export interface Segment {
  readonly text: string;
  readonly style: SegmentStyle;
}

/** Cypher keywords (also the completion list). */
export const KEYWORDS = [
  'MATCH',
  'OPTIONAL',
  'WHERE',
  'RETURN',
  'WITH',
  'UNWIND',
  'AS',
  'ORDER',
  'BY',
  'SKIP',
  'LIMIT',
  'ASC',
  'DESC',
  'ASCENDING',
  'DESCENDING',
  'CREATE',
  'MERGE',
  'ON',
  'SET',
  'DELETE',
  'DETACH',
  'REMOVE',
  'CALL',
  'YIELD',
  'UNION',
  'ALL',
  'DISTINCT',
  'AND',
  'OR',
  'XOR',
  'NOT',
  'IN',
  'IS',
  'NULL',
  'TRUE',
  'FALSE',
  'CASE',
  'WHEN',
  'THEN',
  'ELSE',
  'END',
  'STARTS',
  'ENDS',
  'CONTAINS',
  'EXISTS',
  'COUNT',
  'FOREACH',
  'LOAD',
  'CSV',
  'FROM',
  'HEADERS',
  'FIELDTERMINATOR',
  'INDEX',
  'CONSTRAINT',
  'FOR',
  'REQUIRE',
  'UNIQUE',
  'KEY',
  'NODE',
  'RELATIONSHIP',
  'DROP',
  'SHOW',
  'DATABASE',
  'DATABASES',
  'INDEXES',
  'CONSTRAINTS',
  'PROCEDURES',
  'FUNCTIONS',
  'USE',
  'EXPLAIN',
  'PROFILE',
  'IF',
  'OPTIONS',
  'TRANSACTIONS',
  'OF',
  'ROWS',
  'RANGE',
  'TEXT',
  'POINT',
  'FULLTEXT',
  'VECTOR',
  'LOOKUP',
  'EACH',
  'TERMINATE',
  'SHORTEST',
  'ANY',
  'NONE',
  'SINGLE',
  'FINISH',
  'NEXT',
  'FILTER',
  'LET',
  'WHEN',
  'COLLECT',
  'TYPED',
];
const KEYWORD_SET = new Set(KEYWORDS);

function styleOf(tokens: readonly Token[], i: number): SegmentStyle {
  const token = tokens[i]!;
  const previous = tokens[i - 1];
  switch (token.kind) {
    case TokenKind.String:
      return 'string';
    case TokenKind.Integer:
    case TokenKind.Float:
      return 'number';
    case TokenKind.Parameter:
      return 'parameter';
    case TokenKind.Name:
    case TokenKind.QuotedName:
      if (previous?.kind === TokenKind.Colon || previous?.kind === TokenKind.Pipe || previous?.kind === TokenKind.Amp) return 'label';
      if (token.kind === TokenKind.Name && KEYWORD_SET.has(token.value.toUpperCase())) return 'keyword';
      if (tokens[i + 1]?.kind === TokenKind.LParen) return 'function';
      return 'plain';
    default:
      return 'punctuation';
  }
}

/** Splits `text` into styled segments (concatenated they give `text` back). */
export function highlight(text: string): Segment[] {
  let tokens: Token[];
  try {
    tokens = tokenize(text);
  } catch {
    return text === '' ? [] : [{ text, style: 'plain' }];
  }
  const segments: Segment[] = [];
  let position = 0;
  for (let i = 1; i < tokens.length - 1; i++) {
    const token = tokens[i]!;
    if (token.start > position) {
      const gap = text.slice(position, token.start);
      segments.push({ text: gap, style: gap.trim() === '' ? 'plain' : 'comment' });
    }
    segments.push({ text: text.slice(token.start, token.end), style: styleOf(tokens, i) });
    position = token.end;
  }
  if (position < text.length) {
    const rest = text.slice(position);
    segments.push({ text: rest, style: rest.trim() === '' ? 'plain' : 'comment' });
  }
  return segments;
}
