/**
 * Import and export entry points shared by the CLI and the server: pick the format, open the
 * inputs, drive the sink, report progress.
 */
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import type { GraphDB } from '../graphdb.js';
import type { DatabaseStore } from '../storage/index.js';
import { ImportRowFailure, ImportSink, type ImportMode, type ImportProgress, type ImportSummary, type OnError } from './import-sink.js';
import type { IdType } from './csv-values.js';
import { LineReader } from './line-reader.js';
import { exportJsonl, importJsonl, type ExportCounts } from './jsonl.js';
import { csvReaderFor, importCsv, type CsvOptions } from './csv-import.js';
import type { CsvRecord } from '../files/csv-reader.js';
import { exportCsv } from './csv-export.js';
import { exportCypher } from './cypher-script.js';
import { importCypher } from './cypher-script-import.js';
import { TextOutput } from './output.js';
import { importKey } from './resume.js';
import { ExistingNodes, notEmptyForFullImport } from './existing-nodes.js';
import { storeOf } from '../engine-internals.js';

/** Supported file formats. */
export type TransferFormat = 'jsonl' | 'csv' | 'cypher';

/** One input file of an import. */
export interface ImportInput {
  /** A path (`.gz` is decompressed), or `-` for standard input. */
  readonly file: string;
  /** CSV only: a file whose first line is this file's header (neo4j-admin's `header.csv,part1.csv`); this file then has none. */
  readonly headerFile?: string;
  /** CSV only: what the file holds (default nodes). */
  readonly kind?: 'nodes' | 'relationships';
  /** CSV only: labels for every node / type for every relationship of the file. */
  readonly labels?: readonly string[];
  readonly type?: string;
}

/** Options of importGraph. */
export interface ImportOptions extends CsvOptions {
  readonly database?: string;
  readonly format: TransferFormat;
  readonly inputs: readonly ImportInput[];
  readonly onError?: OnError;
  /** Rows per commit; 0 (default) = the whole import in one transaction. A batched import of files is resumable (`resume.ts`). */
  readonly batchSize?: number;
  /** Continue the unfinished batched import of the same files recorded in the database (refused when none is). */
  readonly resume?: boolean;
  /** Bad entries skipped before the import fails anyway (default unlimited with onError skip). */
  readonly badTolerance?: number;
  /** Skip relationships referring to missing nodes (counted as bad entries). */
  readonly skipBadRelationships?: boolean;
  /** Skip nodes whose id was already imported (counted as bad entries). */
  readonly skipDuplicateNodes?: boolean;
  /** `full` needs an empty database, `incremental` adds to it (CSV by id property; a Cypher script as written); unset: add, ids are this import's own. */
  readonly mode?: ImportMode;
  /** How CSV node ids are read (default `string`). */
  readonly idType?: IdType;
  readonly onProgress?: (progress: ImportProgress) => void;
  /** Milliseconds between progress calls (default 200). */
  readonly progressIntervalMs?: number;
}

/** Guesses the format from a file name (`.jsonl`/`.json`/`.ndjson`, `.csv`/`.tsv`, `.cypher`/`.cql`). */
export function formatOfFile(file: string): TransferFormat | null {
  const lower = file.toLowerCase();
  if (/\.(jsonl|ndjson|json)(\.gz)?$/.test(lower)) return 'jsonl';
  if (/\.(csv|tsv)(\.gz)?$/.test(lower)) return 'csv';
  if (/\.(cypher|cql)(\.gz)?$/.test(lower)) return 'cypher';
  return null;
}

/** Imports files into a database of an open engine. Never throws for bad rows: see `summary.errors`. */
export async function importGraph(db: GraphDB, options: ImportOptions): Promise<ImportSummary> {
  const store = storeOf(db, options.database);
  const readers = options.inputs.map((input) => ({ input, reader: new LineReader(input.file) }));
  const totalBytes = readers.reduce((sum, r) => sum + r.reader.totalBytes, 0);
  const started = Date.now();
  if (options.format === 'cypher') {
    if (options.mode === 'full') {
      const existing = new ExistingNodes(store);
      const empty = existing.isEmpty();
      existing.close();
      if (!empty) {
        throw notEmptyForFullImport(
          store.name,
          '',
          'Use --mode incremental to run the script on it as written (MERGE makes a script repeatable).',
        );
      }
    }
    if ((options.batchSize ?? 0) > 0 || options.resume === true) {
      throw new Error(
        'A Cypher script commits where its :commit lines say (one transaction without them) and is not resumable: --batch-size and --resume apply to JSON Lines and CSV',
      );
    }
    return importScripts(db, store, readers, totalBytes, started, options);
  }
  const sink = new ImportSink(store, {
    onError: options.onError ?? 'fail',
    batchSize: options.batchSize ?? 0,
    ...(options.badTolerance !== undefined ? { badTolerance: options.badTolerance } : {}),
    skipBadRelationships: options.skipBadRelationships === true,
    skipDuplicateNodes: options.skipDuplicateNodes === true,
    ...(options.mode !== undefined ? { mode: options.mode } : {}),
    ...(options.idType !== undefined ? { idType: options.idType } : {}),
    resumable: {
      key: () =>
        importKey({
          format: options.format,
          inputs: options.inputs,
          shape: {
            delimiter: options.delimiter,
            arrayDelimiter: options.arrayDelimiter,
            quote: options.quote,
            mode: options.mode,
            idType: options.idType,
          },
        }),
      resume: options.resume === true,
      files: options.inputs.map((i) => i.file),
    },
  });
  try {
    if (options.mode === 'incremental' && options.format !== 'csv') {
      throw new Error(
        "--mode incremental reads neo4j-admin CSV, whose id columns identify nodes by a property; JSON Lines ids are the import's own",
      );
    }
    await sink.start();
  } catch (error) {
    sink.abort();
    throw error;
  }
  let doneBytes = 0;
  let current: LineReader | null = null;
  const report = () =>
    options.onProgress?.({
      bytesRead: doneBytes + (current?.bytesRead ?? 0),
      totalBytes,
      nodes: sink.nodes,
      relationships: sink.relationships,
      errors: sink.errorTotal,
      batches: sink.batchesCommitted,
      elapsedMs: Date.now() - started,
    });
  const timer = options.onProgress ? setInterval(report, options.progressIntervalMs ?? 200) : null;
  try {
    for (const [index, { input, reader }] of readers.entries()) {
      sink.beginInput(index);
      current = reader;
      if (options.format === 'jsonl') await importJsonl(reader, sink, input.file);
      else {
        const header = input.headerFile === undefined ? undefined : await headerRecord(input.headerFile, options);
        await importCsv(
          { kind: input.kind ?? 'nodes', reader, displayName: input.file, labels: input.labels, type: input.type, header },
          sink,
          options,
        );
      }
      doneBytes += reader.totalBytes;
      current = null;
    }
    const summary = await sink.finish();
    report();
    return summary;
  } catch (error) {
    const summary = sink.abort();
    if (error instanceof ImportRowFailure) return summary;
    throw error;
  } finally {
    if (timer !== null) clearInterval(timer);
  }
}

/** Runs Cypher scripts one after the other (`cypher-script-import.ts`), reporting progress like the other formats. */
async function importScripts(
  db: GraphDB,
  store: DatabaseStore,
  readers: { input: ImportInput; reader: LineReader }[],
  totalBytes: number,
  started: number,
  options: ImportOptions,
): Promise<ImportSummary> {
  const counters = { statements: 0, nodes: 0, relationships: 0, properties: 0 };
  const totals = { nodes: 0, relationships: 0, properties: 0 };
  let doneBytes = 0;
  let current: { reader: LineReader } | null = null;
  let scripts = 0;
  let bulkLoaded = true;
  const report = () =>
    options.onProgress?.({
      bytesRead: doneBytes + (current?.reader.bytesRead ?? 0),
      totalBytes,
      nodes: totals.nodes + counters.nodes,
      relationships: totals.relationships + counters.relationships,
      errors: 0,
      batches: scripts,
      elapsedMs: Date.now() - started,
    });
  const timer = options.onProgress ? setInterval(report, options.progressIntervalMs ?? 200) : null;
  const summary = (completed: boolean, errors: ImportSummary['errors']): ImportSummary => ({
    database: store.name,
    ...totals,
    labels: 0,
    skipped: 0,
    errors,
    durationMs: Date.now() - started,
    completed,
    batchesCommitted: scripts,
    bulkLoaded,
  });
  try {
    for (const { input, reader } of readers) {
      Object.assign(counters, { statements: 0, nodes: 0, relationships: 0, properties: 0 });
      const script = { db, store, reader, displayName: input.file, counters };
      current = script;
      const result = await importCypher(script);
      bulkLoaded &&= result.bulk;
      totals.nodes += counters.nodes;
      totals.relationships += counters.relationships;
      totals.properties += counters.properties;
      Object.assign(counters, { nodes: 0, relationships: 0 });
      doneBytes += reader.totalBytes;
      current = null;
      if (!result.completed) return summary(false, result.errors);
      scripts++;
    }
    report();
    return summary(true, []);
  } finally {
    if (timer !== null) clearInterval(timer);
  }
}

/** Options of exportGraph. */
export interface ExportOptions extends CsvOptions {
  readonly database?: string;
  readonly format: TransferFormat;
  /** jsonl/cypher: a file path or a writable stream; csv: a directory (nodes.csv, relationships.csv). */
  readonly target: string | Writable;
  /** Read the database as of this version (historical export); default the latest. */
  readonly atVersion?: bigint;
  readonly onProgress?: (counts: ExportCounts) => void;
}

/** Result of an export. */
export interface ExportResult extends ExportCounts {
  readonly database: string;
  readonly version: bigint;
  readonly bytes: number;
  readonly lossyKeys: readonly string[];
  readonly files: readonly string[];
  readonly durationMs: number;
}

function outputOf(target: string | Writable): TextOutput {
  return new TextOutput(typeof target === 'string' ? createWriteStream(target) : target);
}

/** Exports one database from a single consistent snapshot. */
export async function exportGraph(db: GraphDB, options: ExportOptions): Promise<ExportResult> {
  const store = storeOf(db, options.database);
  const started = Date.now();
  const reader = options.atVersion === undefined ? store.beginRead() : store.readAt(options.atVersion);
  try {
    const base = { database: store.name, version: reader.version };
    if (options.format === 'csv') {
      if (typeof options.target !== 'string') throw new Error('CSV export needs a directory');
      mkdirSync(options.target, { recursive: true });
      const files = [join(options.target, 'nodes.csv'), join(options.target, 'relationships.csv')];
      const outs = files.map((f) => outputOf(f)) as [TextOutput, TextOutput];
      const result = await exportCsv(reader, outs[0], outs[1], options);
      await Promise.all(outs.map((o) => o.end()));
      return { ...base, ...result, bytes: outs[0].bytesWritten + outs[1].bytesWritten, files, durationMs: Date.now() - started };
    }
    const out = outputOf(options.target);
    const files = typeof options.target === 'string' ? [options.target] : [];
    if (options.format === 'jsonl') {
      const counts = await exportJsonl(reader, out, options.onProgress);
      await out.end();
      return { ...base, ...counts, lossyKeys: [], bytes: out.bytesWritten, files, durationMs: Date.now() - started };
    }
    const result = await exportCypher(reader, out);
    await out.end();
    return { ...base, ...result, bytes: out.bytesWritten, files, durationMs: Date.now() - started };
  } finally {
    reader.close();
  }
}

/** The first record of a (possibly gzipped) CSV header file. */
async function headerRecord(file: string, options: CsvOptions): Promise<CsvRecord> {
  const reader = csvReaderFor(file, options);
  try {
    for await (const chunk of new LineReader(file).chunks()) {
      const first = reader.pushRecords(chunk)[0];
      if (first !== undefined) return first;
    }
    return reader.endRecords()[0] ?? { fields: [], line: 1 };
  } finally {
    reader.close();
  }
}
