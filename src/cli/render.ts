/**
 * Rendering of query results and errors for the terminal: cypher-shell-like tables
 * (cli-table3), `plain`, `csv` and `json` (one typed JSON object per record).
 */
import { GraphError, formatLiteral, formatTemporal, type CypherValue, type ResultSummary } from '../engine/index.js';
import { encodeValue, quoteCsv } from '../engine/transfer/index.js';
import { renderTable, type TableLayout } from './result-table.js';

/** Output formats of the shell. */
export type OutputFormat = 'table' | 'plain' | 'csv' | 'json';

/** The text of a value in a table cell: strings in double quotes, temporal values bare. */
export function displayValue(v: CypherValue): string {
  if (typeof v === 'string') return JSON.stringify(v);
  const temporal = v !== null && typeof v === 'object' ? formatTemporal(v) : null;
  return temporal ?? formatLiteral(v);
}

/** Records as text in the chosen format (no trailing newline); tables fit `layout` (default: unbounded, wrapped). */
export function renderRecords(
  keys: readonly string[],
  records: readonly (readonly CypherValue[])[],
  format: OutputFormat,
  layout: TableLayout = { width: 0, wrap: true },
): string {
  switch (format) {
    case 'json':
      return records.map((r) => JSON.stringify(Object.fromEntries(keys.map((k, i) => [k, encodeValue(r[i] ?? null)])))).join('\n');
    case 'csv':
      return [
        keys.map((k) => quoteCsv(k, ',')),
        ...records.map((r) => r.map((v) => quoteCsv(typeof v === 'string' ? v : displayValue(v), ','))),
      ]
        .map((cells) => cells.join(','))
        .join('\n');
    case 'plain':
      return [keys.join(', '), ...records.map((r) => r.map(displayValue).join(', '))].join('\n');
    case 'table': {
      if (keys.length === 0) return '';
      return renderTable(
        keys,
        records.map((r) => r.map(displayValue)),
        layout,
      );
    }
  }
}

const COUNTER_TEXT: [keyof ResultSummary['counters'], string][] = [
  ['nodesCreated', 'Added %d nodes'],
  ['nodesDeleted', 'Deleted %d nodes'],
  ['relationshipsCreated', 'Created %d relationships'],
  ['relationshipsDeleted', 'Deleted %d relationships'],
  ['propertiesSet', 'Set %d properties'],
  ['labelsAdded', 'Added %d labels'],
  ['labelsRemoved', 'Removed %d labels'],
  ['indexesAdded', 'Added %d indexes'],
  ['indexesRemoved', 'Removed %d indexes'],
  ['constraintsAdded', 'Added %d constraints'],
  ['constraintsRemoved', 'Removed %d constraints'],
  ['systemUpdates', 'System updates: %d'],
];

/** cypher-shell's summary line: rows, timing, update counters. */
export function renderSummary(rows: number, summary: ResultSummary, elapsedMs: number): string {
  const lines: string[] = [];
  const updates = COUNTER_TEXT.filter(([key]) => (summary.counters[key] as number) > 0).map(([key, text]) =>
    text.replace('%d', String(summary.counters[key])),
  );
  if (updates.length > 0) lines.push(updates.join(', '));
  lines.push(
    `${rows} row${rows === 1 ? '' : 's'}\nready to start consuming query after ${summary.resultAvailableAfter} ms, ` +
      `results consumed after another ${summary.resultConsumedAfter} ms (${elapsedMs.toFixed(1)} ms total)`,
  );
  for (const n of summary.notifications) lines.push(`${n.severity}: ${n.title} (${n.code})`);
  return lines.join('\n');
}

/** An error with its status code and, for syntax errors, the statement line with a caret. */
export function renderError(error: unknown, statement?: string): string {
  if (!(error instanceof GraphError)) return error instanceof Error ? error.message : String(error);
  const lines = [`${error.code}: ${error.message}`];
  if (error.position && statement !== undefined && !error.message.includes('^')) {
    const { line, column, offset } = error.position;
    const text = statement.split('\n')[line - 1];
    if (text !== undefined) lines.push(`"${text}"`, ` ${' '.repeat(Math.max(0, column - 1))}^`);
    if (!error.message.includes('(line ')) lines.push(`(line ${line}, column ${column} (offset: ${offset}))`);
  }
  return lines.join('\n');
}
