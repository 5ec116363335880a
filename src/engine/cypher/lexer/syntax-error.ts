import { CypherSyntaxError, type SourcePosition } from '../../errors/index.js';

/** Computes the 1-based line and column of `offset` in `text`. */
export function positionAt(text: string, offset: number): SourcePosition {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x0a || (code === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { offset, line, column: offset - lineStart + 1 };
}

/** Formats a position the way Neo4j does: `(line 1, column 8 (offset: 7))`. */
export function formatPosition(position: SourcePosition): string {
  return `(line ${position.line}, column ${position.column} (offset: ${position.offset}))`;
}

/**
 * Builds a `CypherSyntaxError` at `offset`: the message gets Neo4j's position suffix, `detail`
 * carries the TCK vocabulary word (`UnexpectedSyntax` by default).
 */
export function syntaxError(text: string, offset: number, message: string, detail = 'UnexpectedSyntax'): CypherSyntaxError {
  const position = positionAt(text, offset);
  return new CypherSyntaxError(`${message} ${formatPosition(position)}`, { position, detail });
}
