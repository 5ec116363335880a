/**
 * Prints a statement's records as they arrive, batch by batch, instead of after the statement
 * completes: a table is sized from its first batch (cypher-shell sizes from a sample of rows) and
 * then drawn a batch at a time; plain, csv and json print each batch as it comes. The table
 * format stops drawing rows at the row cap and ends with a note giving the total.
 */
import type { CypherValue } from '../../engine/index.js';
import { displayValue, renderRecords, type OutputFormat } from '../render.js';
import { columnWidths, tablePieces, type TableLayout, type TablePieces } from '../result-table.js';

/** Where printed text goes (one call per piece of output). */
export type PrintTarget = (text: string) => void;

/** Draws one result incrementally. */
export class ResultPrinter {
  private rows = 0;
  private table: TablePieces | null = null;
  private started = false;
  private readonly cap: number;

  constructor(
    private readonly keys: readonly string[],
    private readonly format: OutputFormat,
    private readonly layout: TableLayout | undefined,
    maxRows: number | undefined,
    private readonly print: PrintTarget,
  ) {
    this.cap = format === 'table' ? (maxRows ?? Infinity) : Infinity;
  }

  /** Rows received so far. */
  get rowCount(): number {
    return this.rows;
  }

  /** Prints a batch of records (the first batch also prints the header). */
  add(records: readonly (readonly CypherValue[])[]): void {
    const room = Math.max(0, this.cap - this.rows);
    const shown = records.length > room ? records.slice(0, room) : records;
    this.rows += records.length;
    if (shown.length === 0 && this.started) return;
    if (this.format === 'table') this.addTableRows(shown);
    else this.addLines(shown);
    this.started = true;
  }

  private addTableRows(records: readonly (readonly CypherValue[])[]): void {
    if (this.keys.length === 0) return;
    const cells = records.map((r) => r.map(displayValue));
    const lines: string[] = [];
    if (this.table === null) {
      const layout = this.layout ?? { width: 0, wrap: true };
      this.table = tablePieces(this.keys, columnWidths(this.keys, cells, layout), layout);
      lines.push(this.table.top, this.table.header, this.table.separator);
    }
    for (const row of cells) lines.push(this.table.row(row));
    if (lines.length > 0) this.print(lines.join('\n'));
  }

  private addLines(records: readonly (readonly CypherValue[])[]): void {
    const text = renderRecords(this.keys, records, this.format);
    // plain and csv start with a header line: printed once, with the first batch.
    const body = this.started && this.format !== 'json' ? text.slice(text.indexOf('\n') + 1 || text.length) : text;
    if (body !== '' && (records.length > 0 || !this.started)) this.print(body);
  }

  /**
   * Ends the result: the table's bottom rule, and a note when rows were left out by the cap.
   * @returns the note, or null when every row was shown
   */
  end(): string | null {
    if (!this.started) this.add([]);
    if (this.table !== null) this.print(this.table.bottom);
    if (this.rows <= this.cap) return null;
    return `(${this.cap} of ${this.rows} rows shown; use --max-rows or :format plain/csv/json for all)`;
  }

  /** Closes a table whose statement failed part way (rows already printed stay framed). */
  abandon(): void {
    if (this.table !== null) this.print(this.table.bottom);
  }
}
