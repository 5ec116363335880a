/**
 * Import of neo4j-admin style CSV files (one header line, then records) into an ImportSink. The
 * records come from the shared CSV reader (`files/csv-reader.ts`, the one LOAD CSV uses).
 */
import { GraphError } from '../errors/index.js';
import { CsvRecordReader, type CsvRecord } from '../files/csv-reader.js';
import type { CypherValue } from '../values/types.js';
import { convertField, CsvValueError, parseHeaderField, type CsvColumn } from './csv-values.js';
import { canonicalInteger, type ImportSink } from './import-sink.js';
import { IdSpaceKeyError } from './existing-nodes.js';
import type { LineReader } from './line-reader.js';
import { TimeSlice } from '../storage/index.js';

/** CSV dialect options. */
export interface CsvOptions {
  /** Field delimiter (default `,`). */
  readonly delimiter?: string;
  /** Delimiter inside array fields and `:LABEL` (default `;`). */
  readonly arrayDelimiter?: string;
  /** Quote character (default `"`; doubled inside a quoted field). */
  readonly quote?: string;
}

/** Longest CSV record an import reads (neo4j-admin's default --read-buffer-size). */
const MAX_RECORD_BYTES = 4 * 1024 * 1024;

/** A CSV reader for an import input (records with their lines and quoting). */
export function csvReaderFor(displayName: string, options: CsvOptions): CsvRecordReader {
  return new CsvRecordReader(displayName, {
    fieldTerminator: options.delimiter ?? ',',
    quote: options.quote ?? '"',
    maxRecordBytes: MAX_RECORD_BYTES,
    positions: true,
  });
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
  /** The header record, when it comes from a separate header file (the file then has no header line). */
  readonly header?: CsvRecord;
}

/** Imports one CSV file; header errors are fatal, row errors follow the sink's `onError`. */
export async function importCsv(input: CsvInput, sink: ImportSink, options: CsvOptions = {}): Promise<void> {
  const state: CsvState = { columns: null, hasProperties: true, arrayDelimiter: options.arrayDelimiter ?? ';', headerFailed: false };
  if (input.header !== undefined) {
    const wait = importRecord(input.header, input, sink, state);
    if (wait) await wait;
    if (state.headerFailed) return;
  }
  const reader = csvReaderFor(input.displayName, options);
  const slice = new TimeSlice();
  let lastLine = 0;
  try {
    for await (const batch of recordBatches(reader, input.reader)) {
      if (batch instanceof GraphError) {
        // A malformed file (an unterminated quote, a record past the buffer size): reported once, the rest is not read.
        sink.reject({ file: input.displayName, line: lastLine + 1 }, batch.message);
        return;
      }
      for (let i = 0; i < batch.length; i++) {
        const record = batch[i]!;
        lastLine = record.line;
        const wait = importRecord(record, input, sink, state);
        if (wait) await wait;
        if (state.headerFailed) return;
        if ((i & 63) === 63 && slice.due) await slice.yield();
      }
    }
  } finally {
    reader.close();
  }
}

/** The records of a file a chunk at a time, ending with the reader's error when the file is malformed. */
async function* recordBatches(reader: CsvRecordReader, input: LineReader): AsyncGenerator<CsvRecord[] | GraphError> {
  try {
    for await (const chunk of input.chunks()) yield reader.pushRecords(chunk);
    yield reader.endRecords();
  } catch (error) {
    if (!(error instanceof GraphError)) throw error;
    yield error;
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
  /** The node id column holds integer ids (`--id-type integer` or `{id-type:long}`). */
  integerIds?: boolean;
}

/** Handles one record; returns a promise only when the sink has to wait. */
function importRecord(record: CsvRecord, input: CsvInput, sink: ImportSink, state: CsvState): Promise<void> | undefined {
  const origin = { file: input.displayName, line: record.line };
  const columns = state.columns;
  if (columns === null) {
    try {
      const header = record.fields.map((f) => parseHeaderField(f.text));
      checkHeader(header, input.kind);
      const idColumn = header.find((c) => c.role === 'id');
      if (idColumn !== undefined) {
        sink.declareIdSpace(idColumn, input.labels ?? []);
        state.integerIds = sink.idTypeOf(idColumn.idSpace) === 'integer';
      }
      state.columns = header;
      state.hasProperties = header.some((c) => c.role === 'property' || (c.role === 'id' && c.name !== ''));
    } catch (error) {
      if (!(error instanceof CsvValueError) && !(error instanceof IdSpaceKeyError)) throw error;
      state.headerFailed = true;
      if (!sink.replayed(record.line)) sink.reject(origin, `Invalid header: ${error.message}`);
    }
    return undefined;
  }
  if (sink.replayed(record.line)) return undefined;
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
        idSpace = column.idSpace;
        if (state.integerIds === true && field.text !== '') {
          id = canonicalInteger(field.text);
          if (id === null) bad = `'${field.text}' is not an integer id (the id type of this id space is integer)`;
          else if (column.name !== '') properties!.set(column.name, BigInt(id));
        } else {
          id = field.text;
          if (column.name !== '' && field.text !== '') properties!.set(column.name, field.text);
        }
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
