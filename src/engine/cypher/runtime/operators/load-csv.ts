/**
 * LOAD CSV from local files (`file:///path` or a plain path): RFC 4180 quoting, optional
 * header row (records become maps), configurable field terminator.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { GraphError, StatusCodes } from '../../../errors/index.js';
import type { CypherValue } from '../../../values/types.js';
import type { LoadCsv } from '../../planner/logical/load-csv.js';
import { flatMapRows } from './physical-operator.js';
import type { Mapper, PhysicalOperator } from './physical-operator.js';
import { extendRow } from '../row.js';

/** Splits CSV text into records of fields. */
export function parseCsv(text: string, terminator: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === terminator) {
      record.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}

function localPath(url: string): string {
  if (url.startsWith('file:')) return fileURLToPath(url);
  if (/^[a-z]+:\/\//i.test(url)) {
    throw new GraphError(StatusCodes.ExecutionFailed, `LOAD CSV only reads local files, not ${url}`);
  }
  return url;
}

/** LoadCsv. */
export function mapLoadCsv(op: LoadCsv, m: Mapper): PhysicalOperator {
  const input = m.map(op.input);
  const source = m.compile(op.source);
  return (ctx, rows) =>
    flatMapRows(input(ctx, rows), (row) => {
      const url = source(row, ctx);
      if (typeof url !== 'string') throw new GraphError(StatusCodes.ExecutionFailed, 'LOAD CSV expects a string URL');
      let text: string;
      try {
        text = readFileSync(localPath(url), 'utf8');
      } catch (error) {
        throw new GraphError(StatusCodes.ExecutionFailed, `Couldn't load the external resource at: ${url}`, { cause: error });
      }
      const records = parseCsv(text, op.fieldTerminator);
      if (!op.withHeaders) return records.map((r) => (extendRow(row, op.variable, r as CypherValue)));
      const [header = [], ...body] = records;
      return body.map((r) => ({
        ...row,
        [op.variable]: new Map(header.map((h, i) => [h, r[i] ?? null] as [string, CypherValue])),
      }));
    });
}
