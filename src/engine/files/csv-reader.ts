/**
 * The streaming CSV reader of LOAD CSV (and of any importer that reads CSV chunk by chunk), on
 * csv-parse: RFC 4180 quoting (`""` inside quotes), a configurable single field terminator, a
 * leading byte-order mark dropped, blank lines skipped, rows of varying length kept.
 *
 * Chunks are pushed in and complete records come out synchronously, so memory holds one chunk and
 * the records parsed from it. A record longer than `maxRecordBytes` (an unterminated quote, a
 * file of NUL bytes such as /dev/zero) fails with Neo4j's buffer-size error instead of growing.
 */
import { Parser } from 'csv-parse';
import { GraphError, StatusCodes } from '../errors/index.js';

/** How records are read. */
export interface CsvReaderOptions {
  /** FIELDTERMINATOR (default `,`). */
  readonly fieldTerminator?: string;
  /** Longest record in bytes (`dbms.import.csv.buffer_size`, default 2 MiB). */
  readonly maxRecordBytes?: number;
}

/** Neo4j's default `dbms.import.csv.buffer_size`. */
export const DEFAULT_CSV_BUFFER_SIZE = 2 * 1024 * 1024;

/** Parses CSV pushed in chunks into records of string fields. */
export class CsvRecordReader {
  private readonly parser: Parser;
  private line = 0;

  constructor(
    private readonly source: string,
    options: CsvReaderOptions = {},
  ) {
    this.parser = new Parser({
      delimiter: options.fieldTerminator ?? ',',
      quote: '"',
      escape: '"',
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

  private drain(): string[][] {
    const records: string[][] = [];
    for (let record = this.parser.read() as string[] | null; record !== null; record = this.parser.read() as string[] | null)
      records.push(record);
    this.line += records.length;
    const error = this.parser.errored;
    if (error !== null) throw this.translate(error);
    return records;
  }

  private translate(error: Error & { code?: string }): GraphError {
    if (error.code === 'CSV_MAX_RECORD_SIZE') {
      return new GraphError(
        StatusCodes.ExternalResourceFailed,
        `Tried to read a field larger than the current buffer size. Make sure that the field doesn't have an unterminated quote, if it doesn't you can try increasing the buffer size via \`dbms.import.csv.buffer_size\`. (${this.source}, after record ${this.line})`,
        { cause: error },
      );
    }
    return new GraphError(StatusCodes.ExternalResourceFailed, `Couldn't load the external resource at: ${this.source} (${error.message})`, {
      cause: error,
    });
  }

  /** Stops parsing and releases the parser. */
  close(): void {
    this.parser.destroy();
  }
}
