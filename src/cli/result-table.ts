/**
 * Result tables fitted to the terminal: column widths come from the header and a sample of the
 * rows, columns wider than their share of the width are wrapped (or truncated with `…`), and the
 * table can be drawn in pieces as rows arrive. Linear in the number of cells, so 20k rows draw in
 * a fraction of a second.
 */

/** How a table is laid out. */
export interface TableLayout {
  /** Total width available, borders included (the terminal's columns); 0 = unbounded. */
  readonly width: number;
  /** Wrap long cells over several lines (true) or cut them with `…` (false). */
  readonly wrap: boolean;
}

/** Rows used to size the columns (cypher-shell's --sample-rows default). */
const SAMPLE_ROWS = 1000;
/** Narrowest a column is squeezed to. */
const MIN_COLUMN = 4;

/** Column widths (content only, without padding) for the header and sampled rows within `layout.width`. */
export function columnWidths(head: readonly string[], rows: readonly (readonly string[])[], layout: TableLayout): number[] {
  const widths = head.map((h) => longestLine(h));
  const sample = rows.length > SAMPLE_ROWS ? rows.slice(0, SAMPLE_ROWS) : rows;
  for (const row of sample) for (let i = 0; i < widths.length; i++) widths[i] = Math.max(widths[i]!, longestLine(row[i] ?? ''));
  if (layout.width <= 0) return widths;
  const budget = layout.width - (3 * widths.length + 1);
  const floor = Math.max(1, Math.min(MIN_COLUMN, Math.floor(budget / Math.max(1, widths.length))));
  let total = widths.reduce((a, b) => a + b, 0);
  while (total > budget) {
    let widest = 0;
    for (let i = 1; i < widths.length; i++) if (widths[i]! > widths[widest]!) widest = i;
    if (widths[widest]! <= floor) break;
    const others = total - widths[widest]!;
    const target = Math.max(floor, Math.min(widths[widest]! - 1, budget - others));
    total -= widths[widest]! - target;
    widths[widest] = target;
  }
  return widths;
}

/** A drawn table in parts, so that rows can be printed as they arrive. */
export interface TablePieces {
  readonly top: string;
  readonly header: string;
  readonly separator: string;
  /** The lines of one row. */
  row(cells: readonly string[]): string;
  readonly bottom: string;
}

/** Builds the pieces of a table with the given column widths. */
export function tablePieces(head: readonly string[], widths: readonly number[], layout: TableLayout): TablePieces {
  const rule = (left: string, middle: string, right: string): string => left + widths.map((w) => '─'.repeat(w + 2)).join(middle) + right;
  const row = (cells: readonly string[]): string => {
    const columns = widths.map((w, i) => fitCell(cells[i] ?? '', w, layout.wrap));
    const height = Math.max(1, ...columns.map((c) => c.length));
    const lines: string[] = [];
    for (let line = 0; line < height; line++) {
      lines.push('│' + columns.map((c, i) => ` ${pad(c[line] ?? '', widths[i]!)} `).join('│') + '│');
    }
    return lines.join('\n');
  };
  return { top: rule('┌', '┬', '┐'), header: row(head), separator: rule('├', '┼', '┤'), row, bottom: rule('└', '┴', '┘') };
}

/** A whole table as text. */
export function renderTable(head: readonly string[], rows: readonly (readonly string[])[], layout: TableLayout): string {
  const pieces = tablePieces(head, columnWidths(head, rows, layout), layout);
  const lines = [pieces.top, pieces.header, pieces.separator];
  for (const r of rows) lines.push(pieces.row(r));
  lines.push(pieces.bottom);
  return lines.join('\n');
}

/** The lines a cell occupies in a column of `width` characters. */
function fitCell(text: string, width: number, wrap: boolean): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (line.length <= width) out.push(line);
    else if (!wrap) out.push(line.slice(0, Math.max(0, width - 1)) + '…');
    else for (let at = 0; at < line.length; at += width) out.push(line.slice(at, at + width));
  }
  return wrap ? out : out.slice(0, 1);
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

function longestLine(text: string): number {
  let longest = 0;
  for (const line of text.split('\n')) longest = Math.max(longest, line.length);
  return longest;
}
