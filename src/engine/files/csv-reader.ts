/**
 * The one CSV reader of the code base (LOAD CSV and `graphdb import`), on csv-parse: RFC 4180
 * quoting (the quote character doubled inside quotes), a configurable single field terminator and
 * quote character, a leading byte-order mark dropped, blank lines skipped, rows of varying length
 * kept. `pushRecords`/`endRecords` also tell each record's first line and which fields were quoted
 * (an importer tells `""`, the empty string, from an empty field, a missing value).
 *
 * Chunks are pushed in and complete records come out synchronously, so memory holds one chunk and
 * the records parsed from it. A record longer than `maxRecordBytes` (an unterminated quote, a
 * file of NUL bytes such as /dev/zero) fails with Neo4j's buffer-size error instead of growing.
 */
import { Parser } from 'csv-parse';
import { StatusCodes, GraphError, graphError } from '../errors/index.js';

/** How records are read. */
export interface CsvReaderOptions {
  /** FIELDTERMINATOR (default `,`). */
  readonly fieldTerminator?: string;
  /** Longest record in bytes (`dbms.import.csv.buffer_size`, default 2 MiB). */
  readonly maxRecordBytes?: number;
  /** Quote character (default `"`). */
  readonly quote?: string;
  /** Keep what `pushRecords` needs (each record's raw text); `push` then must not be used. */
  readonly positions?: boolean;
}

/** One field of a record read with positions: its text and whether it was quoted. */
export interface CsvField {
  readonly text: string;
  readonly quoted: boolean;
}

/** One record read with positions, and the (1-based) line it starts on. */
export interface CsvRecord {
  readonly fields: readonly CsvField[];
  readonly line: number;
}

/** Neo4j's default `dbms.import.csv.buffer_size`. */
export const DEFAULT_CSV_BUFFER_SIZE = 2 * 1024 * 1024;

/** Parses CSV pushed in chunks into records of string fields. */
export class CsvRecordReader {
  private readonly parser: Parser;
  private line = 0;
  /** Lines consumed by the records returned so far (positions mode). */
  private linesConsumed = 0;
  private readonly quote: string;
  private readonly delimiter: string;
  private readonly positions: boolean;

  constructor(
    private readonly source: string,
    options: CsvReaderOptions = {},
  ) {
    this.quote = options.quote ?? '"';
    this.delimiter = options.fieldTerminator ?? ',';
    this.positions = options.positions === true;
    this.parser = new Parser({
      delimiter: this.delimiter,
      quote: this.quote,
      escape: this.quote,
      raw: this.positions,
      bom: true,
      relax_quotes: true,
      relax_column_count: true,
      skip_empty_lines: true,
      max_record_size: options.maxRecordBytes ?? DEFAULT_CSV_BUFFER_SIZE,
    });
    // Errors are read synchronously from `errored` after each write; this listener only keeps
    // the stream's deferred 'error' event from being unhandled.
    this.parser.on('error', () => undefined);
  }

  /** Records completed by `chunk`. */
  push(chunk: Buffer): string[][] {
    this.parser.write(chunk);
    return this.drain();
  }

  /** The last records, at the end of the input. */
  end(): string[][] {
    this.parser.end();
    return this.drain();
  }

  /** Number of records returned so far (the 1-based line of the last one, blank lines aside). */
  get recordCount(): number {
    return this.line;
  }

  /** Records completed by `chunk`, with their lines and quoting (needs the `positions` option). */
  pushRecords(chunk: Buffer): CsvRecord[] {
    this.parser.write(chunk);
    return this.drainRecords();
  }

  /** The last records with positions, at the end of the input. */
  endRecords(): CsvRecord[] {
    this.parser.end();
    return this.drainRecords();
  }

  private drain(): string[][] {
    const records: string[][] = [];
    for (let record = this.parser.read() as string[] | null; record !== null; record = this.parser.read() as string[] | null)
      records.push(record);
    this.line += records.length;
    const error = this.parser.errored;
    if (error !== null) throw this.translate(error);
    return records;
  }

  private drainRecords(): CsvRecord[] {
    const records: CsvRecord[] = [];
    for (;;) {
      const item = this.parser.read() as { record: string[]; raw: string } | null;
      if (item === null) break;
      records.push(this.positioned(item.record, item.raw));
    }
    this.line += records.length;
    const error = this.parser.errored;
    if (error !== null) throw this.translate(error);
    return records;
  }

  /**
   * A record's first line and quoted fields, from its raw text: blank lines skipped before it
   * lead the raw text, and a field is quoted when its raw text starts with the quote character.
   */
  private positioned(values: readonly string[], raw: string): CsvRecord {
    let at = 0;
    let blank = 0;
    for (;;) {
      if (raw.charCodeAt(at) === 10) at++;
      else if (raw.charCodeAt(at) === 13 && raw.charCodeAt(at + 1) === 10) at += 2;
      else break;
      blank++;
    }
    const line = this.linesConsumed + blank + 1;
    for (let nl = raw.indexOf('\n'); nl >= 0; nl = raw.indexOf('\n', nl + 1)) this.linesConsumed++;
    if (raw.indexOf(this.quote, at) < 0) return { fields: values.map((text) => ({ text, quoted: false })), line };
    const fields: CsvField[] = [];
    for (const text of values) {
      const quoted = raw.startsWith(this.quote, at);
      fields.push({ text, quoted });
      at += quoted ? encodedLength(text, this.quote) : text.length;
      at += this.delimiter.length;
    }
    return { fields, line };
  }

  private translate(error: Error & { code?: string }): GraphError {
    if (this.positions && error.code === 'CSV_QUOTE_NOT_CLOSED') {
      return graphError(
        StatusCodes.ExternalResourceFailed,
        `Unterminated quoted field at the end of ${this.source} (after record ${this.line})`,
        { cause: error },
      );
    }
    if (error.code === 'CSV_MAX_RECORD_SIZE') {
      return graphError(
        StatusCodes.ExternalResourceFailed,
        `Tried to read a field larger than the current buffer size. Make sure that the field doesn't have an unterminated quote, if it doesn't you can try increasing the buffer size via \`dbms.import.csv.buffer_size\`. (${this.source}, after record ${this.line})`,
        { cause: error },
      );
    }
    return graphError(StatusCodes.ExternalResourceFailed, `Couldn't load the external resource at: ${this.source} (${error.message})`, {
      cause: error,
    });
  }

  /** Stops parsing and releases the parser. */
  close(): void {
    this.parser.destroy();
  }
}

/** Length of a field's raw text when quoted: the quotes around it plus each inner quote doubled. */
function encodedLength(text: string, quote: string): number {
  let length = text.length + 2 * quote.length;
  for (let at = text.indexOf(quote); at >= 0; at = text.indexOf(quote, at + quote.length)) length += quote.length;
  return length;
}
