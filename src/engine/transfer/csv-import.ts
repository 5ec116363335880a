/**
 * Import of neo4j-admin style CSV files (one header line, then records) into an ImportSink.
 */
import type { CypherValue } from '../values/types.js';
import { csvRecordBatches, splitCsvLine, type CsvItem } from './csv-records.js';
import { convertField, CsvValueError, parseHeaderField, type CsvColumn } from './csv-values.js';
import type { ImportSink } from './import-sink.js';
import type { LineReader } from './line-reader.js';

/** CSV dialect options. */
export interface CsvOptions {
  /** Field delimiter (default `,`). */
  readonly delimiter?: string;
  /** Delimiter inside array fields and `:LABEL` (default `;`). */
  readonly arrayDelimiter?: string;
}

/** One CSV input: what it holds and the labels/type given on the command line. */
export interface CsvInput {
  readonly kind: 'nodes' | 'relationships';
  readonly reader: LineReader;
  readonly displayName: string;
  /** Labels added to every node of the file (`--nodes Person:Actor=file.csv`). */
  readonly labels?: readonly string[];
  /** Type of every relationship lacking a `:TYPE` column (`--relationships KNOWS=file.csv`). */
  readonly type?: string;
  /** The header line, when it comes from a separate header file (the file then has no header line). */
  readonly header?: string;
}

/** Imports one CSV file; header errors are fatal, row errors follow the sink's `onError`. */
export async function importCsv(input: CsvInput, sink: ImportSink, options: CsvOptions = {}): Promise<void> {
  const delimiter = options.delimiter ?? ',';
  const state: CsvState = { columns: null, hasProperties: true, arrayDelimiter: options.arrayDelimiter ?? ';', headerFailed: false };
  if (input.header !== undefined) {
    const fields = splitCsvLine(input.header, delimiter);
    const wait = importRecord(fields === null ? { unterminated: 1 } : { fields, line: 1 }, input, sink, state);
    if (wait) await wait;
    if (state.headerFailed) return;
  }
  for await (const batch of csvRecordBatches(input.reader, delimiter)) {
    for (const record of batch) {
      const wait = importRecord(record, input, sink, state);
      if (wait) await wait;
      if (state.headerFailed) return;
    }
  }
}

/** Properties of rows from files without property columns (never mutated). */
const NO_PROPERTIES: ReadonlyMap<string, CypherValue> = new Map();

/** What one file's records share: the parsed header. */
interface CsvState {
  columns: CsvColumn[] | null;
  /** True when some column yields a property (a property column or a named :ID column). */
  hasProperties: boolean;
  readonly arrayDelimiter: string;
  /** Set when the header is invalid (the file is abandoned). */
  headerFailed: boolean;
}

/** Handles one record; returns a promise only when the sink has to wait. */
function importRecord(record: CsvItem, input: CsvInput, sink: ImportSink, state: CsvState): Promise<void> | undefined {
  if ('unterminated' in record) {
    sink.reject({ file: input.displayName, line: record.unterminated }, 'Unterminated quoted field');
    return undefined;
  }
  const origin = { file: input.displayName, line: record.line };
  const columns = state.columns;
  if (columns === null) {
    try {
      const header = record.fields.map((f) => parseHeaderField(f.text));
      checkHeader(header, input.kind);
      state.columns = header;
      state.hasProperties = header.some((c) => c.role === 'property' || (c.role === 'id' && c.name !== ''));
    } catch (error) {
      if (!(error instanceof CsvValueError)) throw error;
      state.headerFailed = true;
      sink.reject(origin, `Invalid header: ${error.message}`);
    }
    return undefined;
  }
  if (record.fields.length !== columns.length) {
    sink.reject(origin, `Expected ${columns.length} fields but found ${record.fields.length}`);
    return undefined;
  }
  const properties = state.hasProperties ? new Map<string, CypherValue>() : null;
  const labels = input.kind === 'relationships' ? [] : input.labels === undefined ? [] : [...input.labels];
  let id: string | null = null;
  let idSpace = '';
  let type = input.type ?? '';
  let start: { idSpace: string; id: string } | null = null;
  let end: { idSpace: string; id: string } | null = null;
  let bad: string | null = null;
  for (let i = 0; i < columns.length && bad === null; i++) {
    const column = columns[i]!;
    const field = record.fields[i]!;
    switch (column.role) {
      case 'ignore':
        break;
      case 'id':
        id = field.text;
        idSpace = column.idSpace;
        if (column.name !== '' && field.text !== '') properties!.set(column.name, field.text);
        break;
      case 'label':
        for (const label of field.text.split(state.arrayDelimiter)) if (label.trim() !== '') labels.push(label.trim());
        break;
      case 'type':
        if (field.text !== '') type = field.text;
        break;
      case 'start':
        start = { idSpace: column.idSpace, id: field.text };
        break;
      case 'end':
        end = { idSpace: column.idSpace, id: field.text };
        break;
      case 'property':
        try {
          const value = convertField(field, column, state.arrayDelimiter);
          if (value !== null) properties!.set(column.name, value);
        } catch (error) {
          bad = (error as Error).message;
        }
        break;
    }
  }
  if (bad !== null) {
    sink.reject(origin, bad);
    return undefined;
  }
  return input.kind === 'nodes'
    ? sink.addNode(origin, idSpace, id === '' ? null : id, labels, properties ?? NO_PROPERTIES)
    : sink.addRelationship(origin, type, start!, end!, properties ?? NO_PROPERTIES);
}

function checkHeader(columns: readonly CsvColumn[], kind: CsvInput['kind']): void {
  const count = (role: CsvColumn['role']) => columns.filter((c) => c.role === role).length;
  if (kind === 'nodes') {
    if (count('id') > 1) throw new CsvValueError('a node file has at most one :ID column');
    if (count('start') + count('end') + count('type') > 0) throw new CsvValueError('a node file cannot have :START_ID, :END_ID or :TYPE');
  } else {
    if (count('start') !== 1 || count('end') !== 1)
      throw new CsvValueError('a relationship file needs one :START_ID and one :END_ID column');
    if (count('id') + count('label') > 0) throw new CsvValueError('a relationship file cannot have :ID or :LABEL');
  }
}
