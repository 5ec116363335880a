import { writeFileSync } from 'node:fs';
import { Args, Command, Errors, Flags } from '@oclif/core';
import { createFlag, databaseFlag, dataDirFlag, withEngine } from '../cli/flags.js';
import { terminalProgress } from '../cli/progress.js';
import { gridTable, keyValueTable, toJsonSafe } from '../cli/table.js';
import {
  formatOfFile,
  importGraph,
  type IdType,
  type ImportInput,
  type ImportMode,
  type ImportSummary,
  type TransferFormat,
} from '../engine/transfer/index.js';

/**
 * Parses neo4j-admin's `[Label1:Label2=]files` / `[TYPE=]files`, where `files` is a comma-separated
 * list read as one file: the first line of the first file is the header of all of them.
 */
function parseSpec(spec: string, kind: 'nodes' | 'relationships'): ImportInput[] {
  const eq = spec.indexOf('=');
  const prefix = eq > 0 ? spec.slice(0, eq) : null;
  const files = (eq > 0 ? spec.slice(eq + 1) : spec).split(',').filter((f) => f !== '');
  const target = prefix === null ? {} : kind === 'nodes' ? { labels: prefix.split(':').filter((l) => l !== '') } : { type: prefix };
  return files.map((file, index) => ({ file, kind, ...target, ...(index > 0 ? { headerFile: files[0]! } : {}) }));
}

/** A delimiter as neo4j-admin accepts it: one character, `TAB` or `\t`. */
function delimiterOf(text: string, flag: string): string {
  if (text === 'TAB' || text === '\\t' || text === '\t') return '\t';
  if (text.length !== 1) throw new Errors.CLIError(`--${flag} must be one character, TAB or \\t (got '${text}')`, { exit: 2 });
  return text;
}

/** The CSV dialect of the flags; the delimiter, array delimiter and quote must differ. */
function dialectOf(delimiter: string, arrayDelimiter: string, quote: string): { delimiter: string; arrayDelimiter: string; quote: string } {
  const dialect = { delimiter: delimiterOf(delimiter, 'delimiter'), arrayDelimiter: delimiterOf(arrayDelimiter, 'array-delimiter') };
  if (quote.length !== 1) throw new Errors.CLIError(`--quote must be one character (got '${quote}')`, { exit: 2 });
  if (quote === dialect.delimiter || quote === dialect.arrayDelimiter || dialect.delimiter === dialect.arrayDelimiter)
    throw new Errors.CLIError('--delimiter, --array-delimiter and --quote must be different characters', { exit: 2 });
  return { ...dialect, quote };
}

/** `graphdb import`: load JSON Lines, neo4j-admin CSV or a Cypher script into a database. */
export default class Import extends Command {
  static override summary = 'Import nodes and relationships from JSON Lines, neo4j-admin CSV or a Cypher script.';

  static override description = [
    'JSON Lines and CSV go through the bulk loader (one commit, indexes built in sorted passes; see',
    'docs/bulk-import.md). Files are streamed; node ids (~8 bytes each) and relationships (~32 bytes each) are',
    'kept until their batch commits. By default the whole import is one commit: if it fails nothing is kept.',
    '--batch-size N commits every N rows instead, each batch with a checkpoint in the database (keyed by the',
    "files' SHA-256 and the options that shape the graph): after a failure or a killed process, running the same",
    'command again is refused with the position reached, and with --resume it continues from there and ends with',
    'the graph an uninterrupted import makes (raise --bad-tolerance or --on-error skip to get past a bad entry).',
    'Bad rows are reported as file:line; --on-error skip skips them, fail (the default) stops and rolls back.',
    '--skip-bad-relationships and --skip-duplicate-nodes skip only those entries; --bad-tolerance N fails the',
    'import once more than N entries were skipped; --report-file lists them.',
    '--mode full (the default) needs an empty database, so the same import never runs twice. --mode incremental',
    'adds CSV files to a database: each node id column names the label its ids identify (uuid:ID(Person){label:Person},',
    'backed by a uniqueness constraint), relationship files may refer to nodes already in the database, and an entry',
    'already there is a duplicate (refused, or skipped with --skip-duplicate-nodes: re-running is then a no-op).',
    'A Cypher script is refused by a non-empty database in full mode too; --mode incremental runs it as written.',
    "A script runs as cypher-shell runs it (:begin/:commit/:rollback, :param); the export's own shape loads through the",
    'bulk loader with the same result. Scripts commit where their :commit lines say and are not resumable.',
    "--id-type integer compares ids as numbers and stores them as INTEGER; actual refers to the database's node ids.",
    '',
    'JSON Lines: {"type":"node","id":..,"labels":[..],"properties":{..}} and',
    '{"type":"relationship","label":..,"start":{"id":..},"end":{"id":..},"properties":{..}} (typed values as',
    'written by graphdb export). CSV: header line in neo4j-admin format (:ID(space), :LABEL, :START_ID, :END_ID,',
    ':TYPE, name:int, tags:string[] ...); give node files with --nodes and relationship files with',
    '--relationships, optionally prefixed with labels (Person:Actor=people.csv) or a type (KNOWS=knows.csv).',
    'A comma-separated list (header.csv,part1.csv,part2.csv.gz) is read as one file whose header is the first',
    "line of the first file. Files ending in .gz are decompressed; '-' reads standard input (with --format).",
  ].join('\n');

  static override examples = [
    '<%= config.bin %> <%= command.id %> graph.jsonl',
    '<%= config.bin %> <%= command.id %> --nodes Person=people.csv --relationships KNOWS=knows.csv --on-error skip',
    '<%= config.bin %> <%= command.id %> schema-and-data.cypher -d movies',
    '<%= config.bin %> <%= command.id %> big.jsonl --batch-size 50000 --json',
    '<%= config.bin %> <%= command.id %> big.jsonl --batch-size 50000 --resume',
    '<%= config.bin %> <%= command.id %> --nodes=Person=people-header.tsv,people-1.tsv,people-2.tsv.gz --delimiter TAB',
    '<%= config.bin %> <%= command.id %> --mode incremental --nodes=Person=new-people.csv --relationships=KNOWS=knows.csv --skip-duplicate-nodes',
    'zcat graph.jsonl.gz | <%= config.bin %> <%= command.id %> - --format jsonl',
  ];

  static override enableJsonFlag = true;

  static override args = {
    files: Args.string({ description: 'JSON Lines or Cypher files (CSV files go to --nodes/--relationships)', required: false }),
  };

  static override strict = false;

  static override flags = {
    'data-dir': dataDirFlag,
    create: createFlag,
    database: databaseFlag,
    format: Flags.string({ description: 'input format (default: from the file extension)', options: ['jsonl', 'csv', 'cypher'] }),
    nodes: Flags.string({ description: 'CSV node file, optionally Label1:Label2=file', multiple: true }),
    relationships: Flags.string({ description: 'CSV relationship file, optionally TYPE=file', multiple: true }),
    'on-error': Flags.string({ description: 'what to do with a bad row', options: ['skip', 'fail'], default: 'fail' }),
    'batch-size': Flags.integer({
      description: 'rows per commit, each with a resume checkpoint (0: one transaction for everything)',
      default: 0,
      min: 0,
    }),
    resume: Flags.boolean({ description: 'continue the unfinished batched import of the same files recorded in the database' }),
    delimiter: Flags.string({ description: 'CSV field delimiter: one character, TAB or \\t', default: ',' }),
    quote: Flags.string({ description: 'CSV quote character (doubled inside a quoted field); one character', default: '"' }),
    mode: Flags.string({
      description: 'full: into an empty database; incremental: add to it (CSV: nodes identified by their id property; Cypher: as written)',
      options: ['full', 'incremental'],
      default: 'full',
    }),
    'id-type': Flags.string({
      description: 'how CSV node ids are read: string, integer (compared as numbers, stored as INTEGER), actual (node ids of the database)',
      options: ['string', 'integer', 'actual'],
      default: 'string',
    }),
    'array-delimiter': Flags.string({ description: 'CSV array delimiter: one character, TAB or \\t', default: ';' }),
    'bad-tolerance': Flags.integer({
      description: 'bad entries skipped (with --on-error skip or the --skip-* flags) before the import fails anyway',
      min: 0,
    }),
    'skip-bad-relationships': Flags.boolean({ description: 'skip relationships that refer to missing nodes (counted as bad entries)' }),
    'skip-duplicate-nodes': Flags.boolean({ description: 'skip nodes whose id was already imported (counted as bad entries)' }),
    'report-file': Flags.string({ description: 'write every reported bad entry (file:line and reason) to this file' }),
    progress: Flags.boolean({
      description: 'progress on stderr (percent, rate, ETA): on a terminal by default; --progress also elsewhere (plain lines)',
      allowNo: true,
    }),
  };

  public async run(): Promise<ImportSummary> {
    const { argv, flags } = await this.parse(Import);
    const files = argv as string[];
    const inputs: ImportInput[] = [
      ...files.map((file) => ({ file })),
      ...(flags.nodes ?? []).flatMap((s) => parseSpec(s, 'nodes')),
      ...(flags.relationships ?? []).flatMap((s) => parseSpec(s, 'relationships')),
    ];
    if (inputs.length === 0) this.error('Nothing to import: give files, or --nodes/--relationships for CSV.', { exit: 2 });
    const format = (flags.format ?? formatOfFile(inputs[0]!.file)) as TransferFormat | null;
    if (format === null) this.error(`Cannot tell the format of '${inputs[0]!.file}'; use --format.`, { exit: 2 });
    const dialect = dialectOf(flags.delimiter, flags['array-delimiter'], flags.quote);
    const progress = terminalProgress(
      flags.progress === false ? 'never' : flags.progress === true ? 'always' : this.jsonEnabled() ? 'never' : 'auto',
    );
    const summary = await withEngine(
      flags['data-dir'],
      (db) =>
        importGraph(db, {
          format,
          inputs,
          database: flags.database,
          onError: flags['on-error'] as 'skip' | 'fail',
          batchSize: flags['batch-size'],
          resume: flags.resume,
          ...dialect,
          mode: flags.mode as ImportMode,
          idType: flags['id-type'] as IdType,
          onProgress: progress.update,
          skipBadRelationships: flags['skip-bad-relationships'],
          skipDuplicateNodes: flags['skip-duplicate-nodes'],
          ...(flags['bad-tolerance'] !== undefined ? { badTolerance: flags['bad-tolerance'] } : {}),
        }),
      { create: flags.create },
    );
    progress.done();
    if (flags['report-file'] !== undefined) writeReport(flags['report-file'], summary);
    if (!this.jsonEnabled()) this.report(summary);
    if (!summary.completed) {
      if (!this.jsonEnabled()) this.exit(1);
      process.exitCode = 1;
    }
    return toJsonSafe(summary) as ImportSummary;
  }

  private report(summary: ImportSummary): void {
    const seconds = summary.durationMs / 1000;
    const rate = (n: number) => (seconds > 0 ? `${Math.round(n / seconds)}/s` : '-');
    if (summary.errors.length > 0) {
      this.logToStderr(
        gridTable(
          ['file:line', 'error'],
          summary.errors.slice(0, 50).map((e) => [`${e.file}:${e.line}`, e.message]),
        ),
      );
      if (summary.errors.length > 50) this.logToStderr(`... and ${summary.skipped - 50} more`);
    }
    const stop = summary.resumable;
    if (!summary.completed && stop !== undefined) {
      this.logToStderr(
        `${stop.batches} batch${stop.batches === 1 ? '' : 'es'} stay committed, through ${stop.file}:${stop.line}. ` +
          'Fix the cause (or raise --bad-tolerance) and run the same command with --resume to continue from there.',
      );
    }
    this.log(
      keyValueTable([
        ['database', summary.database],
        ['status', summary.completed ? 'imported' : 'FAILED: rolled back (nothing of the failing batch was kept)'],
        ...(summary.resumedAfter === undefined
          ? []
          : [
              ['resumed', `after ${summary.resumedAfter.file}:${summary.resumedAfter.line} (${summary.resumedAfter.batches} batches)`] as [
                string,
                string,
              ],
            ]),
        ['nodes', `${summary.nodes} (${rate(summary.nodes)})`],
        ['relationships', `${summary.relationships} (${rate(summary.relationships)})`],
        ['properties', summary.properties],
        ['bad rows', summary.skipped],
        ['time', `${seconds.toFixed(2)} s`],
      ]),
    );
  }
}

/** The bad-entry report: one `file:line: reason` line per reported entry. */
function writeReport(file: string, summary: ImportSummary): void {
  const lines = summary.errors.map((e) => `${e.file}:${e.line}: ${e.message}`);
  const more = summary.skipped > summary.errors.length ? [`... ${summary.skipped - summary.errors.length} more not listed`] : [];
  writeFileSync(file, [...lines, ...more].join('\n') + (lines.length > 0 ? '\n' : ''));
}
