import { Args, Command, Flags } from '@oclif/core';
import { databaseFlag, dataDirFlag, formatBytes, withEngine } from '../cli/flags.js';
import { keyValueTable, toJsonSafe } from '../cli/table.js';
import { exportGraph, formatOfFile, type ExportResult, type TransferFormat } from '../engine/transfer/index.js';

/** `graphdb export`: write a database to JSON Lines, neo4j-admin CSV or a Cypher script. */
export default class Export extends Command {
  static override summary = 'Export a database to JSON Lines, neo4j-admin CSV or a Cypher script.';

  static override description = [
    'Reads one consistent snapshot (writers may go on) and streams it out. JSON Lines keeps every value type',
    'exactly (typed encoding of integers beyond 2^53, floats, temporal values, points, byte arrays) and is',
    'what `graphdb import` reads back. CSV writes nodes.csv and relationships.csv into the target directory',
    '(neo4j-admin headers); Cypher writes CREATE statements. Keys those formats cannot express exactly are',
    'reported. Without a target (or with -), JSON Lines and Cypher go to stdout.',
  ].join('\n');

  static override examples = [
    '<%= config.bin %> <%= command.id %> graph.jsonl',
    '<%= config.bin %> <%= command.id %> ./csv-dir --format csv -d movies',
    '<%= config.bin %> <%= command.id %> - --format cypher > graph.cypher',
    '<%= config.bin %> <%= command.id %> old.jsonl --at-version 42',
  ];

  static override enableJsonFlag = true;

  static override args = {
    target: Args.string({ description: 'output file (jsonl/cypher), directory (csv), or - for stdout', default: '-' }),
  };

  static override flags = {
    'data-dir': dataDirFlag,
    database: databaseFlag,
    format: Flags.string({ description: 'output format (default: from the target name, else jsonl)', options: ['jsonl', 'csv', 'cypher'] }),
    'at-version': Flags.string({ description: 'export the database as it was at this commit version' }),
    delimiter: Flags.string({ description: 'CSV field delimiter', default: ',' }),
    'array-delimiter': Flags.string({ description: 'CSV array delimiter', default: ';' }),
  };

  public async run(): Promise<ExportResult> {
    const { args, flags } = await this.parse(Export);
    const toStdout = args.target === '-';
    const format = (flags.format ?? (toStdout ? 'jsonl' : (formatOfFile(args.target) ?? 'jsonl'))) as TransferFormat;
    if (format === 'csv' && toStdout) this.error('CSV export needs a target directory.', { exit: 2 });
    const result = await withEngine(flags['data-dir'], (db) =>
      exportGraph(db, {
        format,
        target: toStdout ? process.stdout : args.target,
        database: flags.database,
        atVersion: flags['at-version'] === undefined ? undefined : BigInt(flags['at-version']),
        delimiter: flags.delimiter,
        arrayDelimiter: flags['array-delimiter'],
      }),
    );
    if (!this.jsonEnabled()) {
      const table = keyValueTable([
        ['database', result.database],
        ['version', result.version],
        ['format', format],
        ['nodes', result.nodes],
        ['relationships', result.relationships],
        ['size', formatBytes(result.bytes)],
        ['files', result.files.join(', ') || 'stdout'],
        ['time', `${(result.durationMs / 1000).toFixed(2)} s`],
      ]);
      if (toStdout) this.logToStderr(table);
      else this.log(table);
      if (result.lossyKeys.length > 0) {
        this.warn(`${format} cannot represent these keys exactly (use jsonl for a lossless copy): ${result.lossyKeys.join(', ')}`);
      }
    }
    return toJsonSafe(result) as ExportResult;
  }
}
