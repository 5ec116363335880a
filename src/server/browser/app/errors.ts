/** Error display: Neo4j status code, message, and the position in the statement when known. */
import { h } from './dom.js';

interface Position {
  readonly line: number;
  readonly column: number;
  readonly offset: number;
}

/** The status code of an error from the driver, the HTTP API or the app. */
export function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code !== '' ? code : 'Error';
}

function positionOf(error: unknown): Position | null {
  const record = (error as { diagnosticRecord?: { _position?: Record<string, unknown> } } | null)?.diagnosticRecord;
  const position = record?._position;
  if (!position) return null;
  const number = (value: unknown): number => (typeof value === 'number' ? value : Number((value as { toString(): string }).toString()));
  return { line: number(position.line), column: number(position.column), offset: number(position.offset) };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** An error box; with the statement, the failing line is shown with a caret under the position. */
export function errorView(error: unknown, statement?: string): HTMLElement {
  const position = positionOf(error);
  const line = position && statement !== undefined ? statement.split('\n')[position.line - 1] : undefined;
  return h(
    'div',
    { class: 'error', role: 'alert', 'data-testid': 'error' },
    h('div', { class: 'error-code' }, errorCode(error)),
    h('pre', { class: 'error-message' }, messageOf(error)),
    position
      ? h(
          'div',
          { class: 'error-position' },
          `line ${position.line}, column ${position.column} (offset ${position.offset})`,
          line !== undefined ? h('pre', {}, `${line}\n${' '.repeat(Math.max(0, position.column - 1))}^`) : null,
        )
      : null,
  );
}
