/**
 * CSV records over a streamed file (RFC 4180 quoting: `"` doubles inside quoted fields, which
 * may span lines). Each record carries the line it started on, for error reports.
 */
import type { LineReader } from './line-reader.js';

/** One CSV field: its text and whether it was quoted (an empty quoted field is an empty string). */
export interface CsvField {
  readonly text: string;
  readonly quoted: boolean;
}

/** One record and the (1-based) line it starts on. */
export interface CsvRecord {
  readonly fields: readonly CsvField[];
  readonly line: number;
}

/** Splits `text` into fields; returns null while a quoted field is still open. */
export function splitCsvLine(text: string, delimiter: string): CsvField[] | null {
  const fields: CsvField[] = [];
  let i = 0;
  for (;;) {
    if (text[i] === '"') {
      let value = '';
      let j = i + 1;
      for (;;) {
        const close = text.indexOf('"', j);
        if (close < 0) return null;
        value += text.slice(j, close);
        if (text[close + 1] === '"') {
          value += '"';
          j = close + 2;
          continue;
        }
        j = close + 1;
        break;
      }
      const next = text.indexOf(delimiter, j);
      const rest = next < 0 ? text.slice(j) : text.slice(j, next);
      fields.push({ text: value + rest, quoted: true });
      if (next < 0) return fields;
      i = next + delimiter.length;
    } else {
      const next = text.indexOf(delimiter, i);
      if (next < 0) {
        fields.push({ text: text.slice(i), quoted: false });
        return fields;
      }
      fields.push({ text: text.slice(i, next), quoted: false });
      i = next + delimiter.length;
    }
  }
}

/** A record, or the start line of a quoted field left open at the end of the file. */
export type CsvItem = CsvRecord | { unterminated: number };

/** Streams the records of a CSV file a chunk at a time; a quoted field left open at the end is reported as `unterminated`. */
export async function* csvRecordBatches(input: LineReader, delimiter: string): AsyncGenerator<CsvItem[]> {
  let pending: string | null = null;
  let startLine = 0;
  for await (const lines of input.batches()) {
    const records: CsvItem[] = [];
    for (const { text, line } of lines) {
      const joined: string = pending === null ? text : `${pending}\n${text}`;
      if (pending === null) startLine = line;
      if (pending === null && text === '') continue;
      const fields = splitCsvLine(joined, delimiter);
      if (fields === null) {
        pending = joined;
        continue;
      }
      pending = null;
      records.push({ fields, line: startLine });
    }
    if (records.length > 0) yield records;
  }
  if (pending !== null) yield [{ unterminated: startLine }];
}

/** Streams the records of a CSV file one by one. */
export async function* csvRecords(input: LineReader, delimiter: string): AsyncGenerator<CsvItem> {
  for await (const batch of csvRecordBatches(input, delimiter)) yield* batch;
}

/** Quotes a field when it needs it. */
export function quoteCsv(text: string, delimiter: string): string {
  return text.includes('"') || text.includes(delimiter) || text.includes('\n') || text.includes('\r') || text === ''
    ? `"${text.replace(/"/g, '""')}"`
    : text;
}
