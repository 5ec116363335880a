import { Args, Command, Flags } from '@oclif/core';
import { createFlag, databaseFlag, dataDirFlag, withEngine } from '../cli/flags.js';
import { terminalProgress } from '../cli/progress.js';
import { gridTable, keyValueTable, toJsonSafe } from '../cli/table.js';
import { formatOfFile, importGraph, type ImportInput, type ImportSummary, type TransferFormat } from '../engine/transfer/index.js';

/** Parses `Label1:Label2=file` / `TYPE=file` / `file`. */
function parseSpec(spec: string, kind: 'nodes' | 'relationships'): ImportInput {
  const eq = spec.indexOf('=');
  if (eq <= 0) return { file: spec, kind };
  const prefix = spec.slice(0, eq);
  const file = spec.slice(eq + 1);
  return kind === 'nodes' ? { file, kind, labels: prefix.split(':').filter((l) => l !== '') } : { file, kind, type: prefix };
}

/** `graphdb import`: load JSON Lines, neo4j-admin CSV or a Cypher script into a database. */
export default class Import extends Command {
  static override summary = 'Import nodes and relationships from JSON Lines, neo4j-admin CSV or a Cypher script.';

  static override description = [
    'JSON Lines and CSV go through the bulk loader (one commit, indexes built in sorted passes; see',
    'docs/bulk-import.md). Files are streamed; node ids (~8 bytes each) and relationships (~32 bytes each) are',
    'kept until their batch commits. By default the whole import is one commit: if it fails nothing is kept.',
    '--batch-size N commits every N rows instead.',
    'Bad rows are reported as file:line; --on-error skip skips them, fail (the default) stops and rolls back.',
    '',
    'JSON Lines: {"type":"node","id":..,"labels":[..],"properties":{..}} and',
    '{"type":"relationship","label":..,"start":{"id":..},"end":{"id":..},"properties":{..}} (typed values as',
    'written by graphdb export). CSV: header line in neo4j-admin format (:ID(space), :LABEL, :START_ID, :END_ID,',
    ':TYPE, name:int, tags:string[] ...); give node files with --nodes and relationship files with',
    '--relationships, optionally prefixed with labels (Person:Actor=people.csv) or a type (KNOWS=knows.csv).',
  ].join('\n');

  static override examples = [
    '<%= config.bin %> <%= command.id %> graph.jsonl',
    '<%= config.bin %> <%= command.id %> --nodes Person=people.csv --relationships KNOWS=knows.csv --on-error skip',
    '<%= config.bin %> <%= command.id %> schema-and-data.cypher -d movies',
    '<%= config.bin %> <%= command.id %> big.jsonl --batch-size 50000 --json',
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
    'batch-size': Flags.integer({ description: 'rows per commit (0: one transaction for everything)', default: 0, min: 0 }),
    delimiter: Flags.string({ description: 'CSV field delimiter', default: ',' }),
    'array-delimiter': Flags.string({ description: 'CSV array delimiter', default: ';' }),
    progress: Flags.boolean({ description: 'progress line on a terminal', default: true, allowNo: true }),
  };

  public async run(): Promise<ImportSummary> {
    const { argv, flags } = await this.parse(Import);
    const files = argv as string[];
    const inputs: ImportInput[] = [
      ...files.map((file) => ({ file })),
      ...(flags.nodes ?? []).map((s) => parseSpec(s, 'nodes')),
      ...(flags.relationships ?? []).map((s) => parseSpec(s, 'relationships')),
    ];
    if (inputs.length === 0) this.error('Nothing to import: give files, or --nodes/--relationships for CSV.', { exit: 2 });
    const format = (flags.format ?? formatOfFile(inputs[0]!.file)) as TransferFormat | null;
    if (format === null) this.error(`Cannot tell the format of '${inputs[0]!.file}'; use --format.`, { exit: 2 });
    const progress = terminalProgress(flags.progress && !this.jsonEnabled());
    const summary = await withEngine(
      flags['data-dir'],
      (db) =>
        importGraph(db, {
          format,
          inputs,
          database: flags.database,
          onError: flags['on-error'] as 'skip' | 'fail',
          batchSize: flags['batch-size'],
          delimiter: flags.delimiter,
          arrayDelimiter: flags['array-delimiter'],
          onProgress: progress.update,
        }),
      { create: flags.create },
    );
    progress.done();
    if (!this.jsonEnabled()) this.report(summary);
    if (!summary.completed) {
      if (this.jsonEnabled()) this.logJson(toJsonSafe(summary));
      this.exit(1);
    }
    return toJsonSafe(summary) as ImportSummary;
  }

  private report(summary: ImportSummary): void {
    const seconds = summary.durationMs / 1000;
    const rate = (n: number) => (seconds > 0 ? `${Math.round(n / seconds)}/s` : '-');
    if (summary.errors.length > 0) {
      this.logToStderr(gridTable(['file:line', 'error'], summary.errors.slice(0, 50).map((e) => [`${e.file}:${e.line}`, e.message])));
      if (summary.errors.length > 50) this.logToStderr(`... and ${summary.skipped - 50} more`);
    }
    this.log(
      keyValueTable([
        ['database', summary.database],
        ['status', summary.completed ? 'imported' : 'FAILED: rolled back (nothing of the failing batch was kept)'],
        ['nodes', `${summary.nodes} (${rate(summary.nodes)})`],
        ['relationships', `${summary.relationships} (${rate(summary.relationships)})`],
        ['properties', summary.properties],
        ['bad rows', summary.skipped],
        ['time', `${seconds.toFixed(2)} s`],
      ]),
    );
  }
}
